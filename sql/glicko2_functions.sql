COMMENT ON FUNCTION glicko2_update(glicko2_rating, glicko2_rating[], float8[], float8, float8, float8, float8, float8) IS
    'One Glicko-2 rating period (Glickman 2022): player against opponents with scores in [0,1]; '
    'with no games only the RD grows. tau > 0 (default 0.5). The result is clamped to rd_min <= rd <= rd_max '
    '(defaults 0 and 350), volatility <= volatility_max and |rating change| <= max_change (defaults: no limit). '
    'Errors: 22003 NaN/infinity or no convergence within 1000 iterations, 22023 rd/volatility <= 0, '
    'score outside [0,1], tau <= 0 or bad bounds, 2202E arrays of different lengths, 22004 NULLs.';
COMMENT ON FUNCTION glicko2_game(glicko2_rating, glicko2_rating, float8, float8, float8, float8, float8, float8) IS
    'One game rated on its own, the lichess way: each player updated from the other''s pre-game rating '
    'as a one-game period without the step-6 time inflation (apply glicko2_decay for elapsed time). '
    'Returns (white, black). Bounds and errors as glicko2_update.';
COMMENT ON FUNCTION glicko2_decay(glicko2_rating, float8, float8) IS
    'Inactivity: RD becomes sqrt(RD^2 + periods * (173.7178 * volatility)^2), capped at rd_max (default 350); '
    'periods >= 0 may be fractional. Errors: 22023 negative periods, invalid rating; 22003 NaN/infinity.';
COMMENT ON FUNCTION glicko2_expected(glicko2_rating, glicko2_rating) IS
    'Probability that player beats opponent, with both RDs: 1/(1+exp(-g(sqrt(phi^2+phi_j^2))(mu-mu_j))); '
    'glicko2_expected(a,b) + glicko2_expected(b,a) = 1.';
COMMENT ON FUNCTION glicko2_multiplayer(glicko2_rating[], float8[], float8, float8, float8, float8, float8) IS
    'Multiplayer free-for-all: each player rated in one period against every other player''s pre-game '
    'rating; a better (lower) placement is a win, an equal one a draw. An n-player game counts as n-1 '
    'games for everyone, so RD shrinks as fast as after n-1 two-player games. Bounds and errors as glicko2_update.';
COMMENT ON FUNCTION glicko2_conservative(glicko2_rating, float8) IS
    'Conservative rating: rating - k * rd (default k = 2, the lower end of a ~95% interval).';
COMMENT ON FUNCTION glicko2_provisional(glicko2_rating, float8) IS
    'True while rd > threshold (default 110).';
COMMENT ON FUNCTION glicko2_period_step(internal, anyelement, anyelement, float8) IS
    'Transition function of the glicko2_period aggregate.';
COMMENT ON FUNCTION glicko2_period_step_tau(internal, anyelement, anyelement, float8, float8) IS
    'Transition function of the glicko2_period aggregate with tau.';
COMMENT ON FUNCTION glicko2_period_final(internal) IS
    'Final function of the glicko2_period aggregate.';

-- A rating period as an aggregate: GROUP BY the player, one row per game.
CREATE AGGREGATE glicko2_period(player glicko2_rating, opponent glicko2_rating, score float8) (
    SFUNC = glicko2_period_step,
    STYPE = internal,
    FINALFUNC = glicko2_period_final,
    PARALLEL = SAFE
);
CREATE AGGREGATE glicko2_period(player glicko2_rating, opponent glicko2_rating, score float8, tau float8) (
    SFUNC = glicko2_period_step_tau,
    STYPE = internal,
    FINALFUNC = glicko2_period_final,
    PARALLEL = SAFE
);
COMMENT ON AGGREGATE glicko2_period(glicko2_rating, glicko2_rating, float8) IS
    'One Glicko-2 rating period as an aggregate over a player''s games (GROUP BY the player): '
    'the same result as glicko2_update with default bounds, without building arrays. Rows with a NULL '
    'argument are skipped; the player''s rating must be equal in every row of a group (22023).';
COMMENT ON AGGREGATE glicko2_period(glicko2_rating, glicko2_rating, float8, float8) IS
    'glicko2_period with an explicit tau (the same in every row of a group).';

COMMENT ON FUNCTION glicko2_rate_period(bigint[], glicko2_rating[], bigint[], bigint[], float8[], float8, float8, float8, float8, float8) IS
    'A whole Glicko-2 rating period in one call: players player_ids with ratings (same order), games '
    'white[i] vs black[i] (player ids) with white_scores[i] in [0,1]. Returns (player_id, rating) for every '
    'player; players without games only get the RD growth. The fastest shape for large periods. Bounds as '
    'glicko2_update. Errors: 2202E arrays of different lengths, 22023 duplicate or unknown player id, a player '
    'playing themselves, bad score; 22004 NULL elements; otherwise as glicko2_update.';
