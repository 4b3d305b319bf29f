COMMENT ON FUNCTION game_result_is_valid(text, text) IS
    'True when (game_end_type, game_end_reason) is a valid game_result pair; used by the game_result domain.';
COMMENT ON FUNCTION game_score(game_result, boolean) IS
    'Score of a game for white (default) or black: 1 for a win, 0.5 for a draw, 0 for a loss.';
COMMENT ON FUNCTION clock_base_time(clock_settings, integer) IS
    'starting_time + extra_move_multiplier * move_increase: the nominal length used to place a game in '
    'a time-control window; NULL when the clock is unset. Errors with 22008 when the interval overflows.';
