-- pg_rating_random_chess 0.12.0 -> 0.13.0 (update pg_rating to 0.13.0 first).

-- Every function runs with search_path = pg_catalog, pg_temp (see pg_rating's update).
DO $$
DECLARE
    f regprocedure;
BEGIN
    FOR f IN
        SELECT p.oid
        FROM pg_catalog.pg_proc p
        JOIN pg_catalog.pg_depend d ON d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
                                   AND d.objid OPERATOR(pg_catalog.=) p.oid AND d.deptype OPERATOR(pg_catalog.=) 'e'
        JOIN pg_catalog.pg_extension x ON x.oid OPERATOR(pg_catalog.=) d.refobjid
        WHERE x.extname OPERATOR(pg_catalog.=) 'pg_rating_random_chess'
          AND EXISTS (SELECT FROM pg_catalog.unnest(p.proconfig) c WHERE c OPERATOR(pg_catalog.~~) 'search_path=%')
    LOOP
        EXECUTE pg_catalog.format('ALTER FUNCTION %s SET search_path = pg_catalog, pg_temp', f);
    END LOOP;
END
$$;

-- Derived rows of a cascade: deleted only once their parent row is gone (check_cascaded_delete).
CREATE TRIGGER check_cascaded_delete
    BEFORE DELETE ON elo_history
    FOR EACH ROW EXECUTE FUNCTION check_cascaded_delete();
CREATE TRIGGER check_cascaded_delete
    BEFORE DELETE ON swiss_tournament_progress
    FOR EACH ROW EXECUTE FUNCTION check_cascaded_delete();
CREATE TRIGGER check_cascaded_delete
    BEFORE DELETE ON swiss_tournament_entrants
    FOR EACH ROW EXECUTE FUNCTION check_cascaded_delete();
CREATE TRIGGER check_cascaded_delete
    BEFORE DELETE ON swiss_tournament_standings
    FOR EACH ROW EXECUTE FUNCTION check_cascaded_delete();

-- The inlined SQL functions compare varchar with OPERATOR(pg_catalog.=): they resolve names with
-- the caller's search_path, where public may hold a varchar = varchar of a database owner.
CREATE OR REPLACE FUNCTION ranking_at_timestamp(t timestamptz)
RETURNS TABLE (service_id int, user_id_in_service varchar, ranking_id int, elo numeric, elo_history_id int)
LANGUAGE sql STABLE STRICT PARALLEL SAFE
AS $$
SELECT a.service_id, a.user_id_in_service, r.id, coalesce(h.elo, r.starting_elo), h.id
FROM @extschema@.service_accounts a
CROSS JOIN @extschema@.rankings r
LEFT JOIN LATERAL (
    SELECT e.id, e.elo
    FROM @extschema@.elo_history e
    WHERE e.ranking_id = r.id AND e.user_id_in_service OPERATOR(pg_catalog.=) a.user_id_in_service
      AND e.service_id = a.service_id AND e.game_date <= t
    ORDER BY e.game_date DESC, e.game_id DESC
    LIMIT 1
) h ON true
WHERE a.service_id = 1 AND (r.include_bots OR NOT a.is_bot)
$$;
CREATE OR REPLACE FUNCTION ranking_leaderboard(ranking int, min_games int DEFAULT 0, max_rd float8 DEFAULT NULL,
                                    include_provisional boolean DEFAULT true)
RETURNS TABLE (rank int, service_id int, user_id_in_service varchar, display_name varchar, rating numeric,
               rd numeric, volatility numeric, games int, wins int, draws int, losses int,
               peak_rating numeric, provisional boolean, last_game_date timestamptz)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT (rank() OVER (ORDER BY p.rating DESC))::int, p.service_id, p.user_id_in_service, a.display_name,
       p.rating, p.rd, p.volatility, p.games, p.wins, p.draws, p.losses, p.peak_rating,
       (p.games < r.provisional_games OR coalesce(p.rd OPERATOR(pg_catalog.>) r.provisional_rd, false)), p.last_game_date
FROM @extschema@.ranking_players p
JOIN @extschema@.rankings r ON r.id = p.ranking_id
JOIN @extschema@.service_accounts a
  ON a.service_id = p.service_id AND a.user_id_in_service OPERATOR(pg_catalog.=) p.user_id_in_service
WHERE p.ranking_id = ranking
  AND p.games >= coalesce(min_games, 0)
  AND (max_rd IS NULL OR p.rd IS NULL OR p.rd OPERATOR(pg_catalog.<=) max_rd)
  AND (coalesce(include_provisional, true)
       OR NOT (p.games < r.provisional_games OR coalesce(p.rd OPERATOR(pg_catalog.>) r.provisional_rd, false)))
ORDER BY p.rating DESC, p.user_id_in_service
$$;
CREATE OR REPLACE FUNCTION player_rank(ranking int, player varchar, min_games int DEFAULT 0, max_rd float8 DEFAULT NULL)
RETURNS int
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT (1 + count(*) FILTER (WHERE o.rating > me.rating))::int
FROM @extschema@.ranking_players me
JOIN @extschema@.ranking_players o
  ON o.ranking_id = me.ranking_id
 AND o.games >= coalesce(min_games, 0)
 AND (max_rd IS NULL OR o.rd IS NULL OR o.rd OPERATOR(pg_catalog.<=) max_rd)
WHERE me.ranking_id = ranking AND me.service_id = 1 AND me.user_id_in_service OPERATOR(pg_catalog.=) player
GROUP BY me.rating
$$;

-- Issue 36: the catalog of the original schema beyond its tables.
-- users_games: one row per (user, game) (a game of two accounts of one user was listed twice),
-- kind text as in the original (was varchar); swiss_tournaments_round_standings.place bigint as in
-- the original (was integer). A view's column type cannot change in place: both are recreated,
-- which drops the grants given on them (grant_random_chess_app gives SELECT): say so.
DO $$
DECLARE
    granted text := (SELECT pg_catalog.string_agg(c.relname::pg_catalog.text, ', ' ORDER BY c.relname)
                     FROM pg_catalog.pg_class c
                     WHERE c.oid OPERATOR(pg_catalog.=) ANY (ARRAY[
                               '@extschema@.users_games'::pg_catalog.regclass::pg_catalog.oid,
                               '@extschema@.swiss_tournaments_round_standings'::pg_catalog.regclass::pg_catalog.oid])
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

-- Glicko-2 as the documents write it (issue 32)
-- The rankings rate Glicko-2 by the lichess rule: their ledgers say so (those made by an update of
-- this extension from before 0.10.0 ran after the engine's new default, 'glickman').
UPDATE @extschema@.ledgers SET glicko2_rule = 'lichess'
WHERE kept_in = '@extschema@.elo_history'::regclass AND glicko2_rule <> 'lichess';
