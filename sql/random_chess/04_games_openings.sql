-- games_openings (Random Chess compat): the opening of every game, i.e. the latest of its
-- positions found in openings, and that position's index (0 = start). Games without one are
-- listed with NULLs. detect_opening runs once per game (LATERAL), backed by its in-memory map.
-- Requires the games view (service_games UNION ALL pgn_games): load this file after it.
CREATE VIEW games_openings AS
SELECT g.id AS game_id, g.kind, d.opening_id, d.move_no
FROM @extschema@.games AS g
CROSS JOIN LATERAL @extschema@.detect_opening(g.partial_fens) AS d;

COMMENT ON VIEW games_openings IS
    'The opening of every game: the latest position of the game found in openings (opening_id) and its '
    'index in partial_fens (move_no, 0 = start); NULLs when no position matches.';
