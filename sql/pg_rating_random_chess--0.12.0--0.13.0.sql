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

-- Privileges only a table's owner keeps on the Random Chess tables (issue 31)
SELECT @extschema@.restrict_table_privileges();

-- The condition of refresh_standings_of_service_game names pg_catalog's array equality: a
-- varchar[] = varchar[] operator in public, present when the trigger was created, would have been
-- bound to it (issue 31, hole 1). The other expressions of both extensions that named no schema
-- now name pg_catalog's operators, which PostgreSQL stores as they were (no change here).
DROP TRIGGER refresh_standings_of_service_game ON service_games;
CREATE TRIGGER refresh_standings_of_service_game
    AFTER UPDATE OF result, moves, creation_date ON service_games
    FOR EACH ROW
    WHEN (OLD.result IS DISTINCT FROM NEW.result OR NOT OLD.moves OPERATOR(pg_catalog.=) NEW.moves
          OR OLD.creation_date IS DISTINCT FROM NEW.creation_date)
    EXECUTE FUNCTION refresh_standings_of_service_game();
ALTER FUNCTION openings_changed() SET search_path = pg_catalog, pg_temp;

-- random_chess_day_one() warns when user 1 or ranking 1 are not its own (issue 35)
CREATE OR REPLACE FUNCTION random_chess_day_one() RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    INSERT INTO @extschema@.game_services (id, name) VALUES (2, 'chess.com'), (3, 'lichess.org')
    ON CONFLICT DO NOTHING;
    PERFORM pg_catalog.setval('@extschema@.game_services_id_seq',
                              greatest(3, (SELECT max(id) FROM @extschema@.game_services)));

    INSERT INTO @extschema@.service_accounts (user_id, service_id, user_id_in_service, token, display_name, is_bot)
    VALUES (NULL, 1, 'stockfish-easy', NULL, 'Stockfish (Easy)', true),
           (NULL, 1, 'stockfish-medium', NULL, 'Stockfish (Medium)', true),
           (NULL, 1, 'stockfish-hard', NULL, 'Stockfish (Hard)', true),
           (NULL, 1, 'stockfish-impossible', NULL, 'Stockfish (Impossible)', true)
    ON CONFLICT DO NOTHING;
    INSERT INTO @extschema@.service_accounts (user_id, service_id, user_id_in_service, token, display_name, is_bot)
    SELECT NULL, 3, level::text, NULL, format('Lichess bot (level %s)', level), true
    FROM generate_series(1, 8) AS level
    ON CONFLICT DO NOTHING;

    INSERT INTO @extschema@.rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo,
                                      include_bots, k_factor)
    SELECT r.name, r.playtime_min, r.playtime_max, r.multiplier, 800, r.bots, 40
    FROM (VALUES (1, 'Global ranking', interval '0', NULL::interval, 0, true),
                 (2, 'Bullet', interval '0', interval '3 minutes', 60, false),
                 (3, 'Bullet with bots', interval '0', interval '3 minutes', 60, true),
                 (4, 'Blitz', interval '3 minutes', interval '10 minutes', 60, false),
                 (5, 'Blitz with bots', interval '3 minutes', interval '10 minutes', 60, true),
                 (6, 'Rapid', interval '10 minutes', interval '60 minutes', 60, false),
                 (7, 'Rapid with bots', interval '10 minutes', interval '60 minutes', 60, true),
                 (8, 'Classical', interval '1 hour', interval '24 hours', 60, false),
                 (9, 'Classical with bots', interval '1 hour', interval '24 hours', 60, true))
         AS r(n, name, playtime_min, playtime_max, multiplier, bots)
    WHERE NOT EXISTS (SELECT FROM @extschema@.rankings k WHERE k.name = r.name)
    ORDER BY r.n;

    IF NOT EXISTS (SELECT FROM @extschema@.users WHERE id = 1) THEN
        -- not a usable password hash: the admin signs in once one is set
        INSERT INTO @extschema@.users (id, email, password_hash) VALUES (1, 'admin@randomchess.com', '!');
        PERFORM pg_catalog.setval('@extschema@.users_id_seq',
                                  greatest(1, (SELECT max(id) FROM @extschema@.users)));
        UPDATE @extschema@.service_accounts SET display_name = 'Admin'
        WHERE service_id = 1 AND user_id_in_service = '1';
    END IF;
    -- In a database that had rows before, the server's look-ups by id miss: say so.
    IF NOT EXISTS (SELECT FROM @extschema@.users WHERE id = 1 AND email = 'admin@randomchess.com') THEN
        RAISE WARNING 'the admin user (admin@randomchess.com) was not created: user 1 is already %',
            (SELECT email FROM @extschema@.users WHERE id = 1)
            USING HINT = 'random_chess_day_one() sets up a new database: run it right after CREATE EXTENSION.';
    END IF;
    IF NOT EXISTS (SELECT FROM @extschema@.rankings WHERE id = 1 AND name = 'Global ranking') THEN
        RAISE WARNING 'ranking 1 is not "Global ranking" (which has id %): rankings had rows before',
            (SELECT min(id) FROM @extschema@.rankings WHERE name = 'Global ranking')
            USING HINT = 'random_chess_day_one() sets up a new database: run it right after CREATE EXTENSION.';
    END IF;
END
$$;

-- The rankings rate Glicko-2 by the lichess rule (issue 32): a ranking's ledger made by an earlier
-- update script of this extension, after the engine's update gave new ledgers Glickman's rule, says so.
UPDATE ledgers SET glicko2_rule = 'lichess' WHERE kept_in IS NOT NULL AND glicko2_rule <> 'lichess';

-- Burstein pairing (issue 34): tournament_pair_round takes the pairing system.
DROP FUNCTION tournament_pair_round(int, int, boolean, varchar[]);
CREATE FUNCTION tournament_pair_round(tournament_id int, round int DEFAULT NULL,
                                      baku_acceleration boolean DEFAULT false,
                                      forbidden_pairs varchar[] DEFAULT '{}',
                                      system text DEFAULT 'dutch')
    RETURNS TABLE (board int, white varchar, black varchar)
    STABLE PARALLEL RESTRICTED
    LANGUAGE c AS 'MODULE_PATHNAME', 'tournament_pair_round_wrapper';
ALTER FUNCTION tournament_pair_round(int, int, boolean, varchar[], text) SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION tournament_pair_round(int, int, boolean, varchar[], text) IS
    'The FIDE Dutch pairing (C.04.3, 2025 rules) of a tournament''s next round, or with system => ''burstein'' the '
    'Burstein pairing (C.04.4.2 as bbpPairings v6.0.0 reads it; rounds 1 and 2 accelerated unless baku_acceleration), '
    'without writing it: one row per board '
    '(board from 1, white and black user ids), then the pairing-allocated bye, if any, as a row with black NULL. '
    'Players are numbered in FIDE''s initial order: rating as of the start (before the first game: the current rating '
    'in the tournament''s ranking; unrated last), then display name, then user id; the top seed has White in round 1. '
    'The round paired is the one after the last round with a game or a one-point bye; players with a bye of that '
    'round are not paired. baku_acceleration: accelerated rounds by FIDE C.04.5.1 (the first 2 * ceil(n / 4) players '
    'get virtual points: 1 in the first half of the accelerated rounds, the first half of the tournament, 0.5 in the '
    'rest), the same on every call of the tournament. forbidden_pairs: user ids two by two (ARRAY[[''a'', ''b''], '
    '[''c'', ''d'']]), players who must not meet (team-mates, relatives). Errors: unknown tournament 22023, round '
    'already paired 55000, a later round 22023, every round paired 22023, a forbidden pair that is not two different '
    'players of the tournament 22023 (a NULL: 22004), a system other than dutch or burstein 22023 (NULL: 22004), no '
    'pairing that meets the absolute criteria 23514.';

-- One rule for a rating system's settings (issue 33): the bounds of a ranking's settings are the
-- engine's (pg_rating_core::rating::system, as for a ledger), checked when a ranking is written
-- (23514); the rankings' own CHECKs, with values of their own (K below 100000 where a ledger's K is
-- at most 1000), go.
ALTER TABLE rankings
    DROP CONSTRAINT k_factor_finite,
    DROP CONSTRAINT glicko2_tau_positive,
    DROP CONSTRAINT glicko2_tau_at_most_10,
    DROP CONSTRAINT starting_rd_positive,
    DROP CONSTRAINT starting_volatility_positive,
    DROP CONSTRAINT starting_volatility_stored,
    DROP CONSTRAINT skemino_starting_elo_in_range,
    DROP CONSTRAINT fide_starting_elo_in_range;

-- pairing colours and points (issue 34)
-- tournament_pair_round takes the initial colour (C.04.3 5.2.5, drawn by lot): first_colour_white
-- NULL (the default) takes the colour the stored rounds show, else White; and virtual_points
-- (C.04.5) by user id, as a TRF's XXA lines.
DROP FUNCTION tournament_pair_round(int, int, boolean, varchar[], text);
CREATE FUNCTION tournament_pair_round(tournament_id int, round int DEFAULT NULL,
                                      baku_acceleration boolean DEFAULT false,
                                      forbidden_pairs varchar[] DEFAULT '{}',
                                      system text DEFAULT 'dutch',
                                      first_colour_white boolean DEFAULT NULL,
                                      virtual_points jsonb DEFAULT NULL)
    RETURNS TABLE (board int, white varchar, black varchar)
    STABLE PARALLEL RESTRICTED
    LANGUAGE c AS 'MODULE_PATHNAME', 'tournament_pair_round_wrapper';
ALTER FUNCTION tournament_pair_round(int, int, boolean, varchar[], text, boolean, jsonb) SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION tournament_pair_round(int, int, boolean, varchar[], text, boolean, jsonb) IS
    'The FIDE Dutch pairing (C.04.3, 2025 rules) of a tournament''s next round, or with system => ''burstein'' the '
    'Burstein pairing (C.04.4.2 as bbpPairings v6.0.0 reads it; rounds 1 and 2 accelerated unless baku_acceleration), '
    'without writing it: one row per board '
    '(board from 1, white and black user ids), then the pairing-allocated bye, if any, as a row with black NULL. '
    'Players are numbered in FIDE''s initial order: rating as of the start (before the first game: the current rating '
    'in the tournament''s ranking; unrated last), then display name, then user id. first_colour_white: the top '
    'seed''s colour in round 1 (C.04.3 5.2.5, drawn by lot: true White, false Black; NULL: the colour the stored '
    'rounds show, as a TRF without XXC, else White). '
    'The round paired is the one after the last round with a game or a one-point bye; players with a bye of that '
    'round are not paired. baku_acceleration: accelerated rounds by FIDE C.04.5.1 (the first 2 * ceil(n / 4) players '
    'get virtual points: 1 in the first half of the accelerated rounds, the first half of the tournament, 0.5 in the '
    'rest), the same on every call of the tournament; virtual_points instead: accelerated rounds (C.04.5) as a TRF''s '
    'XXA lines give them, a JSON object of user ids and their virtual points per round from round 1 '
    '({"2": [1, 1, 0.5]}). forbidden_pairs: user ids two by two (ARRAY[[''a'', ''b''], '
    '[''c'', ''d'']]), players who must not meet (team-mates, relatives). Errors: unknown tournament 22023, round '
    'already paired 55000, a later round 22023, every round paired 22023, a forbidden pair that is not two different '
    'players of the tournament 22023 (a NULL: 22004), a system other than dutch or burstein 22023 (NULL: 22004), '
    'virtual_points not an object of arrays of whole or half points from 0 to 1000, naming no player, '
    'longer than the rounds, or with baku_acceleration 22023, no pairing that meets the absolute criteria 23514.';

-- No function made in the schema before this update has the name of one of pg_rating_random_chess's
-- (pg_rating's refuse_function_namesakes: the engine is updated first).
SELECT @extschema@.refuse_function_namesakes();
