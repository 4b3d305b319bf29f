-- pg_rating_random_chess 0.12.0 -> 0.13.0 (update pg_rating to 0.13.0 first).

-- Issue 36: the catalog of the original schema beyond its tables.
-- users_games: one row per (user, game) (a game of two accounts of one user was listed twice),
-- kind text as in the original (was varchar); swiss_tournaments_round_standings.place bigint as in
-- the original (was integer). A view's column type cannot change in place: both are recreated,
-- which drops the grants given on them (grant_random_chess_app gives SELECT): say so.
DO $$
DECLARE
    granted text := (SELECT string_agg(c.relname, ', ' ORDER BY c.relname)
                     FROM pg_catalog.pg_class c
                     WHERE c.oid IN ('@extschema@.users_games'::regclass,
                                     '@extschema@.swiss_tournaments_round_standings'::regclass)
                       AND c.relacl IS NOT NULL);
BEGIN
    IF granted IS NOT NULL THEN
        RAISE WARNING 'the update recreates the views % of pg_rating_random_chess: their grants are dropped', granted
            USING HINT = 'Grant them again, e.g. SELECT grant_random_chess_app(''<app role>'').';
    END IF;
END
$$;
DROP VIEW users_games;
CREATE VIEW users_games AS
SELECT p.owner_id AS user_id, p.id AS game_id, 'pgn'::text AS kind, p.moves, p.creation_date, p.result, p.metadata
FROM @extschema@.pgn_games p
UNION ALL
SELECT a.user_id, g.id, 'service'::text, g.moves, g.creation_date, g.result, g.metadata
FROM @extschema@.service_games g
JOIN @extschema@.service_accounts a
  ON a.service_id = g.service_id AND a.user_id_in_service = g.white_player
WHERE a.user_id IS NOT NULL
UNION ALL
SELECT a.user_id, g.id, 'service'::text, g.moves, g.creation_date, g.result, g.metadata
FROM @extschema@.service_games g
JOIN @extschema@.service_accounts a
  ON a.service_id = g.service_id AND a.user_id_in_service = g.black_player
WHERE a.user_id IS NOT NULL AND g.black_player <> g.white_player
  AND NOT EXISTS (SELECT FROM @extschema@.service_accounts w
                  WHERE w.service_id = g.service_id AND w.user_id_in_service = g.white_player
                    AND w.user_id = a.user_id);
COMMENT ON VIEW users_games IS
    'Games each user owns (pgn) or plays in with one of their accounts (service): one row per (user, game).';

DROP VIEW swiss_tournaments_round_standings;
CREATE VIEW swiss_tournaments_round_standings AS
SELECT row_number() OVER w AS place, s.points_x2 * 0.5 AS points, s.tpr::numeric AS performance_rating,
       s.user_id_in_service, s.tournament_id, s.round
FROM @extschema@.swiss_tournament_standings s
WINDOW w AS (PARTITION BY s.tournament_id, s.round ORDER BY s.tie_rank, s.sort_key DESC, s.player_no);
COMMENT ON VIEW swiss_tournaments_round_standings IS
    'The standings of each round: place = row_number by points, then the tournament''s tie_breaks (default: '
    'performance rating), then pairing number.';

-- The requirements go with a deleted ranking, as in the original (ON DELETE CASCADE).
ALTER TABLE tournaments_ranking_reqs
    DROP CONSTRAINT tournaments_ranking_reqs_ranking_type_fkey,
    ADD CONSTRAINT tournaments_ranking_reqs_ranking_type_fkey
        FOREIGN KEY (ranking_type) REFERENCES rankings ON DELETE CASCADE;
ALTER TABLE tournaments_ranked_games_reqs
    DROP CONSTRAINT tournaments_ranked_games_reqs_ranking_type_fkey,
    ADD CONSTRAINT tournaments_ranked_games_reqs_ranking_type_fkey
        FOREIGN KEY (ranking_type) REFERENCES rankings ON DELETE CASCADE;
