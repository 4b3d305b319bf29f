-- pg_rating_random_chess 0.12.0 -> 0.13.0 (update pg_rating to 0.13.0 first).

-- Every function runs with search_path = pg_catalog, pg_temp (see pg_rating's update).
DO $$
DECLARE
    f regprocedure;
BEGIN
    FOR f IN
        SELECT p.oid
        FROM pg_catalog.pg_proc p
        JOIN pg_catalog.pg_depend d ON d.classid = 'pg_catalog.pg_proc'::pg_catalog.regclass
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
