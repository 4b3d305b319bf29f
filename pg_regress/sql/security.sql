-- Nobody can forge a rating: an application role with the usual web-app grant (every privilege on
-- every table) cannot write rating history or standings, cannot reuse pg_rating's trigger functions
-- on a table of its own, and no setting it may change switches a rule or a derived row off.
CREATE ROLE regress_web_app LOGIN;
GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON ALL TABLES IN SCHEMA public TO regress_web_app;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO regress_web_app;
GRANT CREATE ON SCHEMA public TO regress_web_app;

INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Global', '0', NULL, 0, 800, true, 40);
INSERT INTO users (email, password_hash) SELECT format('p%s@example.com', i), 'h' FROM generate_series(1, 5) i;
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{e2e4}', '2024-05-01', '(1-0,RESIGNATION)', '(3 minutes, 2 seconds)', 1, '4', '5', true);
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (3, 1, '(3 minutes, 2 seconds)');
INSERT INTO tournaments_players (tournament_id, user_id_in_service) VALUES (1, '1'), (1, '2');
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{e2e4}', '2024-05-02', '(1-0,RESIGNATION)', '(3 minutes, 2 seconds)', 1, '1', '2', true);
INSERT INTO tournaments_games VALUES (1, 2, 1);
CREATE TEMP VIEW ratings AS
SELECT user_id_in_service, round(rating, 2) AS rating, games FROM ranking_players ORDER BY 1;
GRANT SELECT ON ratings TO regress_web_app;
SELECT * FROM ratings;

SET ROLE regress_web_app;
-- 1. pg_rating's trigger functions cannot be attached to a table of one's own
CREATE TEMP TABLE fake (id int, creation_date timestamptz, white_player varchar, black_player varchar,
  result game_result, clock clock_settings, service_id int, is_ranked bool);
CREATE TRIGGER t AFTER INSERT ON fake REFERENCING NEW TABLE AS inserted_games
  FOR EACH STATEMENT EXECUTE FUNCTION rate_service_games();
CREATE TRIGGER t AFTER INSERT ON fake FOR EACH ROW EXECUTE FUNCTION refresh_standings_of_game();
CREATE TRIGGER t AFTER INSERT ON fake FOR EACH ROW EXECUTE FUNCTION recalculate_changed_ranking();
CREATE TRIGGER t AFTER INSERT ON fake FOR EACH STATEMENT EXECUTE FUNCTION note_rankings_change();
CREATE TRIGGER t BEFORE INSERT ON fake FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();
-- ... and the functions that rebuild derived rows are not the application's to call
SELECT rebuild_ranking(1);
SELECT rebuild_tournament_standings(1);

-- 2. derived rows: every write is refused (42501), whatever the grants
UPDATE ranking_players SET rating = 9999 WHERE user_id_in_service = '4';
UPDATE elo_history SET elo = 9999;
DELETE FROM elo_history WHERE game_id = 1;
INSERT INTO elo_history (user_id_in_service, ranking_id, game_id, elo, game_date) VALUES ('5', 1, 1, 2000, now());
DELETE FROM ranking_writes;
UPDATE ledger_scopes SET writes = 0;
UPDATE ledgers SET k_factor = 1;
TRUNCATE ranking_players;
UPDATE swiss_tournament_standings SET points_x2 = 100;
DELETE FROM swiss_tournament_entrants;
INSERT INTO swiss_tournament_progress (tournament_id) VALUES (2);
TRUNCATE swiss_tournament_standings;

-- 3. row_security = off switches nothing off for a role that is not a superuser: a game is
-- rated, an impossible tournament game is refused, a user gets its account
SET row_security = off;
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{e2e4}', '2024-05-03', '(0-1,RESIGNATION)', '(3 minutes, 2 seconds)', 1, '3', '4', true);
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{e2e4}', '2024-05-04', '(1-0,RESIGNATION)', '(3 minutes, 2 seconds)', 1, '1', '3', true);
INSERT INTO tournaments_games VALUES (1, 4, 77);
INSERT INTO users (email, password_hash) VALUES ('p6@example.com', 'h');
RESET row_security;
SELECT * FROM ratings;
SELECT count(*) AS accounts_of_p6 FROM service_accounts WHERE user_id_in_service = '6';
-- the tournament still takes legitimate games
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{e2e4}', '2024-05-05', '(0-1,RESIGNATION)', '(3 minutes, 2 seconds)', 1, '2', '1', true);
INSERT INTO tournaments_games VALUES (1, 5, 2);
SELECT user_id_in_service, round, points FROM swiss_tournaments_players_points ORDER BY round, 1;
-- a deleted tournament takes its standings with it (the cascade of its foreign keys)
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (3, 1, '(3 minutes, 2 seconds)');
INSERT INTO tournaments_players (tournament_id, user_id_in_service) VALUES (2, '3');
DELETE FROM swiss_tournaments WHERE tournament_id = 2;
SELECT count(*) AS entrants_of_deleted FROM swiss_tournament_entrants WHERE tournament_id = 2;
-- reads work
SELECT left(tournament_trf(1), 3) AS trf;
RESET ROLE;

-- 4. even a superuser's trigger on another table does not fire pg_rating's functions there
CREATE TEMP TABLE fake2 (id int, creation_date timestamptz, white_player varchar, black_player varchar,
  result game_result, clock clock_settings, service_id int, is_ranked bool);
CREATE TRIGGER t AFTER INSERT ON fake2 REFERENCING NEW TABLE AS inserted_games
  FOR EACH STATEMENT EXECUTE FUNCTION rate_service_games();
INSERT INTO fake2 VALUES (3, now() + '1 year', 'ghost', '5', '(1-0,RESIGNATION)', '(3 minutes, 2 seconds)', 1, true);
CREATE TABLE public.fake3 (LIKE fake2);
CREATE TRIGGER t BEFORE INSERT ON public.fake3 FOR EACH ROW EXECUTE FUNCTION check_tournament_game();
INSERT INTO public.fake3 VALUES (3, now(), 'ghost', '5', '(1-0,RESIGNATION)', '(3 minutes, 2 seconds)', 1, true);
DROP TABLE public.fake3;
-- each tournament trigger function serves its own table only, not another of pg_rating's
CREATE TRIGGER t BEFORE INSERT ON byes FOR EACH ROW EXECUTE FUNCTION check_tournament_game();
INSERT INTO byes VALUES (1, 3, '1');
DROP TRIGGER t ON byes;
-- a trigger function called directly (39P01)
SELECT rate_service_games();
\set VERBOSITY sqlstate
SELECT refresh_standings_of_tournament();
\set VERBOSITY default
SELECT * FROM ratings;
-- a restore is a superuser session with row_security off: only then are derived rows loaded
SET row_security = off;
UPDATE swiss_tournament_progress SET last_round = last_round WHERE tournament_id = 1;
RESET row_security;
-- TRUNCATE of the registrations of a tournament with games is refused as DELETE would be (23001)
TRUNCATE tournaments_players CASCADE;

-- 5. the recommended role of the Random Chess application: what the app does, and no more
CREATE ROLE regress_random_chess_app LOGIN;
SELECT grant_random_chess_app('regress_random_chess_app');
SET ROLE regress_random_chess_app;
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{e2e4,e7e5}', '2024-05-06', '(1/2-1/2,THREEFOLD_REPETITION)', '(3 minutes, 2 seconds)', 1, '4', '5', true)
RETURNING id;
INSERT INTO pgn_games (moves, starting_position, creation_date, result, owner_id, black_player_name, white_player_name)
VALUES ('{e2e4}', 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', now(), '(1-0,RESIGNATION)', 1, 'B', 'A')
RETURNING id;
INSERT INTO game_services (name) VALUES ('lichess.org');
RESET ROLE;
INSERT INTO game_services (name) VALUES ('lichess.org');
SET ROLE regress_random_chess_app;
INSERT INTO service_accounts (user_id, service_id, user_id_in_service, token, display_name, is_bot)
VALUES (1, 2, 'alice', 'tok', 'Alice', false);
UPDATE service_accounts SET token = 'new' WHERE service_id = 2 AND user_id_in_service = 'alice';
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (5, 1, '(3 minutes, 2 seconds)')
RETURNING tournament_id;
SELECT placement, user_id_in_service, elo FROM ranking_with_placement_at_timestamp(now(), 1) ORDER BY 1, 2;
SELECT count(*) > 0 AS reads_views FROM games_openings;
-- not the app's to do
INSERT INTO users (email, password_hash) VALUES ('x@example.com', 'h');
DELETE FROM service_games;
UPDATE rankings SET k_factor = 10;
UPDATE ranking_players SET rating = 1;
RESET ROLE;
SELECT * FROM ratings;

-- derived rows deleted from a trigger of the role's own temporary tables during a cascade of its
-- own (a referential action): refused (42501); the cascade of a deleted ranking still deletes them
-- (terse: the context would name this session's temporary schema)
\set VERBOSITY terse
SET ROLE regress_web_app;
CREATE TEMP TABLE parent (id int PRIMARY KEY);
CREATE TEMP TABLE child (id int REFERENCES parent ON DELETE CASCADE);
CREATE FUNCTION pg_temp.wipe() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('DELETE FROM public.%I', TG_ARGV[0]);
    RETURN OLD;
END
$$;
INSERT INTO parent VALUES (1);
INSERT INTO child VALUES (1);
CREATE TRIGGER wipe BEFORE DELETE ON child FOR EACH ROW EXECUTE FUNCTION pg_temp.wipe('elo_history');
DELETE FROM parent;
DROP TRIGGER wipe ON child;
CREATE TRIGGER wipe BEFORE DELETE ON child FOR EACH ROW EXECUTE FUNCTION pg_temp.wipe('ranking_players');
DELETE FROM parent;
DROP TRIGGER wipe ON child;
CREATE TRIGGER wipe BEFORE DELETE ON child FOR EACH ROW EXECUTE FUNCTION pg_temp.wipe('swiss_tournament_standings');
DELETE FROM parent;
\set VERBOSITY default
RESET ROLE;
SELECT count(*) AS history, (SELECT count(*) FROM ranking_players) AS standings,
       (SELECT count(*) FROM swiss_tournament_standings) AS tournament_standings FROM elo_history;

-- a foreign key of the role's own table to a Random Chess table, whose deletes pg_rating's code
-- makes as the extension's owner (a registration's byes): its cascade would fire the table's
-- triggers with the owner's rights, so REFERENCES stays with the owner, whatever was granted
GRANT REFERENCES ON ALL TABLES IN SCHEMA public TO regress_web_app;
SELECT c.relname, has_table_privilege('regress_web_app', c.oid, 'REFERENCES') AS references_held
FROM pg_class c WHERE c.relname IN ('byes', 'tournaments_players', 'users', 'swiss_tournaments', 'elo_history')
ORDER BY 1;
SET ROLE regress_web_app;
CREATE TABLE public.held_byes (t int, r int, u varchar,
    FOREIGN KEY (t, r, u) REFERENCES byes (tournament_id, round, user_id_in_service) ON DELETE CASCADE);
RESET ROLE;

-- tables of the extensions only: a ranking_locks (the writers' lock table of schema 0.9.0) that
-- another role made in the schema is none of pg_rating's, whose writers would otherwise lock it (and
-- fire its triggers) as the extension's owner
SET ROLE regress_web_app;
CREATE TABLE public.ranking_locks (ranking_id int PRIMARY KEY, writes int NOT NULL DEFAULT 0);
CREATE FUNCTION public.ranking_locks_written() RETURNS trigger LANGUAGE plpgsql AS
    $$ BEGIN RAISE EXCEPTION 'ranking_locks written as %', current_user; END $$;
CREATE TRIGGER written BEFORE INSERT OR UPDATE ON public.ranking_locks
    FOR EACH ROW EXECUTE FUNCTION public.ranking_locks_written();
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{e2e4}', '2024-05-03', '(1-0,RESIGNATION)', '(3 minutes, 2 seconds)', 1, '4', '5', true);
SELECT count(*) AS lock_rows FROM public.ranking_locks;
DROP TABLE public.ranking_locks;
RESET ROLE;
SELECT * FROM ratings;

-- the sequences pg_rating's writers use keep UPDATE (setval) to their owner: set back, the ids of
-- elo_history would collide and ranking_versions would make a backend's cache of the rankings look
-- current; an application's own sequences keep what was granted
GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO regress_web_app;
SELECT s AS sequence, has_sequence_privilege('regress_web_app', s, 'UPDATE') AS setval,
       has_sequence_privilege('regress_web_app', s, 'USAGE') AS nextval
FROM unnest(ARRAY['elo_history_id_seq', 'ranking_versions', 'ledgers_id_seq', 'users_id_seq']) s ORDER BY 1;
SET ROLE regress_web_app;
SELECT setval('ranking_versions', 1, false);
RESET ROLE;
-- ... and privileges granted on columns go as those on tables: UPDATE of one column of a derived
-- table would let a role hold its rows (SELECT ... FOR UPDATE), REFERENCES of one a foreign key
GRANT UPDATE (games), REFERENCES (ranking_id) ON ranking_players TO regress_web_app;
GRANT REFERENCES (id) ON users TO regress_web_app;
SELECT has_column_privilege('regress_web_app', 'ranking_players', 'games', 'UPDATE') AS update_games,
       has_column_privilege('regress_web_app', 'ranking_players', 'ranking_id', 'REFERENCES') AS references_ranking,
       has_column_privilege('regress_web_app', 'users', 'id', 'REFERENCES') AS references_users;
SET ROLE regress_web_app;
SELECT user_id_in_service FROM ranking_players LIMIT 1 FOR UPDATE;
RESET ROLE;

-- no function in the schema has the name of one of pg_rating's (42723): the calls of pg_rating's
-- own bodies and of applications would reach the namesake with a nearer argument type, with each
-- caller's rights; made or renamed, whoever asks
SET ROLE regress_web_app;
CREATE FUNCTION public.ledger_typed(value text, type_of text) RETURNS text LANGUAGE sql AS 'SELECT value';
CREATE FUNCTION public.rebuild_ranking(text) RETURNS void LANGUAGE sql AS '';
CREATE FUNCTION public.my_typed(value text, type_of text) RETURNS text LANGUAGE sql AS 'SELECT value';
ALTER FUNCTION public.my_typed(text, text) RENAME TO ledger_typed;
DROP FUNCTION public.my_typed(text, text);
-- (a range type's constructors are functions of its name)
CREATE TYPE public.ledger_typed AS RANGE (subtype = text, multirange_type_name = public.ledger_typed_ranges);
-- nor an operator there on one of pg_rating's types: no built-in operator takes them exactly, so it
-- would receive every comparison of them
CREATE FUNCTION public.same_result(game_result, game_result) RETURNS boolean LANGUAGE sql AS 'SELECT true';
CREATE OPERATOR public.= (leftarg = game_result, rightarg = game_result, function = public.same_result);
-- what is refused locks no other command out
CREATE FUNCTION public.my_own() RETURNS int LANGUAGE sql AS 'SELECT 1';
DROP FUNCTION public.my_own(), public.same_result(game_result, game_result);
RESET ROLE;
CREATE FUNCTION public.ledger_typed(value text, type_of text) RETURNS text LANGUAGE sql AS 'SELECT value';
SELECT count(*) AS namesakes FROM pg_proc WHERE proname = 'ledger_typed';

DROP OWNED BY regress_web_app;
DROP ROLE regress_web_app;
DROP OWNED BY regress_random_chess_app;
DROP ROLE regress_random_chess_app;

