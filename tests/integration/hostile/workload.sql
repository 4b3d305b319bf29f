-- Every trigger path and every function of both extensions that runs SQL, run as a superuser
-- whose search_path is the default ("$user", public) while public holds the database owner's
-- hostile operators and functions. The statements here compare only types that pg_catalog has an
-- exact operator for (int = int, text = text), so that they themselves resolve nothing in public.
SET track_functions = 'all';

-- Random Chess: users and accounts, games, a re-dated game, rankings changed and deleted
SELECT random_chess_day_one();
INSERT INTO users (email, password_hash) VALUES ('ann@example.com', 'h'), ('bob@example.com', 'h'),
                                                ('cy@example.com', 'h'), ('di@example.com', 'h');
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{e2e4,e7e5}', '2025-01-01', '(1-0,RESIGNATION)', '(3 minutes, 2 seconds)', 1, '2', '3', true),
       ('{d2d4}', '2025-01-02', '(0-1,TIMEOUT)', '(3 minutes, 2 seconds)', 1, '3', '4', true),
       ('{c2c4}', '2025-01-03', '(1/2-1/2,STALEMATE)', '(10 minutes, 0 seconds)', 1, '4', '5', true);
UPDATE service_games SET creation_date = '2024-12-31' WHERE id = 2;
UPDATE rankings SET k_factor = 32 WHERE id = 4;
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Test', '0', NULL, 0, 1000, true, 20);
CALL recalculate_ranking(1);
SELECT count(*) > 0 AS rated FROM current_ranking;
SELECT count(*) > 0 AS placed FROM ranking_with_placement_at_timestamp(now(), 1);
SELECT count(*) > 0 AS on_board FROM ranking_leaderboard(1);
SELECT player_rank(1, '2'::varchar) IS NOT NULL AS ranked;
DELETE FROM rankings WHERE id = 10;
UPDATE service_accounts SET display_name = 'Ann' WHERE service_id = 1 AND user_id = 2;
DELETE FROM service_accounts WHERE service_id = 3 AND user_id_in_service::text = '8';
-- (a service game is never deleted: its trigger refuses, and a call that raises is not counted)
DO $$
BEGIN
    DELETE FROM service_games WHERE id = 1;
EXCEPTION WHEN insufficient_privilege OR raise_exception OR restrict_violation OR others THEN
    NULL;
END
$$;
INSERT INTO pgn_games (moves, creation_date, result, owner_id, black_player_name, white_player_name)
VALUES ('{e2e4}', '2025-01-05', '(1-0,RESIGNATION)', 2, 'x', 'y');
SELECT count(*) >= 0 AS read FROM users_games;
SELECT count(*) >= 0 AS read FROM games_openings;
SELECT load_lichess_openings(E'eco\tname\tpgn\nC20\tKing''s Pawn Game\t1. e4 e5\n');
SELECT (detect_opening(partial_fens)).opening_id IS NOT NULL AS found FROM service_games WHERE id = 1;

-- Swiss tournaments: players, games, byes, results changed, a round paired, TRF
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (3, 1, '(3 minutes, 2 seconds)');
INSERT INTO tournaments_players (tournament_id, user_id_in_service) VALUES (1, '2'), (1, '3'), (1, '4'), (1, '5');
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{e2e4}', '2025-02-01', '(1-0,RESIGNATION)', '(3 minutes, 2 seconds)', 1, '2', '3', true),
       ('{e2e4}', '2025-02-01', '(0-1,RESIGNATION)', '(3 minutes, 2 seconds)', 1, '4', '5', true);
INSERT INTO tournaments_games VALUES (1, 4, 1), (1, 5, 1);
INSERT INTO byes (tournament_id, user_id_in_service, round) VALUES (1, '2', 2);
UPDATE service_games SET result = '(1-0,TIMEOUT)' WHERE id = 4;
DELETE FROM byes WHERE tournament_id = 1;
SELECT count(*) > 0 AS paired FROM tournament_pair_round(1, 2);
SELECT length(tournament_trf(1)) > 0 AS trf;
SELECT rebuild_tournament_standings(1, true);
SELECT count(*) > 0 AS standings FROM swiss_tournaments_round_standings;
DELETE FROM tournaments_games WHERE game_id = 5;
DELETE FROM tournaments_players WHERE user_id_in_service::text = '5';
TRUNCATE byes;
DELETE FROM swiss_tournaments WHERE tournament_id = 1;

-- Ledgers: two-player and multiplayer attachments, writes of every kind, seeds, seasons, reads
CREATE TABLE public.matches (id int PRIMARY KEY, played_at timestamptz NOT NULL, white varchar NOT NULL,
                             black varchar NOT NULL, score float8, league varchar NOT NULL);
INSERT INTO ledgers (name, rating_system, k_factor) VALUES ('club', 'elo', 24);
INSERT INTO ledgers (name, rating_system, rating_period) VALUES ('club g2', 'glicko2', '7 days');
SELECT ledger_attach('club', 'public.matches', 'id', 'played_at', 'white', 'black', 'score',
                     scope_column => 'league', filter => 'score IS NOT NULL') >= 0 AS attached;
SELECT ledger_attach('club g2', 'public.matches', 'id', 'played_at', 'white', 'black', 'score',
                     scope_column => 'league') >= 0 AS attached;
-- (literal rows: the workload's own statements call no built-in that public has a twin of)
INSERT INTO public.matches VALUES
    (1, '2025-01-02', 'p1', 'p3', 0.5, 'east'),
    (2, '2025-01-03', 'p2', 'p4', 1.0, 'east'),
    (3, '2025-01-04', 'p3', 'p0', 0.0, 'east'),
    (4, '2025-01-05', 'p4', 'p1', 0.5, 'east'),
    (5, '2025-01-06', 'p0', 'p2', 1.0, 'east'),
    (6, '2025-01-07', 'p1', 'p3', 0.0, 'east'),
    (7, '2025-01-08', 'p2', 'p4', 0.5, 'east'),
    (8, '2025-01-09', 'p3', 'p0', 1.0, 'east'),
    (9, '2025-01-10', 'p4', 'p1', 0.0, 'east'),
    (10, '2025-01-11', 'p0', 'p2', 0.5, 'east'),
    (11, '2025-01-12', 'p1', 'p3', 1.0, 'east'),
    (12, '2025-01-13', 'p2', 'p4', 0.0, 'east'),
    (13, '2025-01-14', 'p3', 'p0', 0.5, 'east'),
    (14, '2025-01-15', 'p4', 'p1', 1.0, 'east'),
    (15, '2025-01-16', 'p0', 'p2', 0.0, 'east'),
    (16, '2025-01-17', 'p1', 'p3', 0.5, 'east'),
    (17, '2025-01-18', 'p2', 'p4', 1.0, 'east'),
    (18, '2025-01-19', 'p3', 'p0', 0.0, 'east'),
    (19, '2025-01-20', 'p4', 'p1', 0.5, 'east'),
    (20, '2025-01-21', 'p0', 'p2', 1.0, 'east');
UPDATE public.matches SET score = 1 WHERE id = 3;
UPDATE public.matches SET played_at = '2024-12-01' WHERE id = 4;
DELETE FROM public.matches WHERE id = 5;
INSERT INTO ledger_seeds (ledger_id, scope, player, rating) SELECT id, 'east', 'p1', 1800 FROM ledgers WHERE name = 'club';
UPDATE ledger_seeds SET rating = 1850;
INSERT INTO ledger_seasons (ledger_id, scope, name, ends_at, rating_pull)
SELECT id, 'east', 's1', '2025-01-10', 0.5 FROM ledgers WHERE name = 'club';
DELETE FROM ledger_seasons;
DELETE FROM ledger_seeds;
-- (refuse_truncate always raises: run, not counted)
DO $$ BEGIN TRUNCATE ledger_seeds; EXCEPTION WHEN feature_not_supported THEN NULL; END $$;
DO $$ BEGIN TRUNCATE ledger_seasons; EXCEPTION WHEN feature_not_supported THEN NULL; END $$;
-- seeds by the ledger's name; a seeded player without games on the boards
SELECT ledger_seed('club', ARRAY['p1', 'p9'], ARRAY[1800, 1700]::float8[], scope => 'east') = 2 AS seeded;
SELECT ledger_seed('club', 'p8', 1600, scope => 'east') AS seeded;
SELECT count(*) > 0 AS board FROM ledger_leaderboard('club', 'east');
SELECT ledger_player_rank('club', 'p9', 'east') > 0 AS ranked;
SELECT count(*) > 0 AS standing FROM ledger_player_standing('club', 'p9'::varchar, 'east');
SELECT count(*) > 0 AS at FROM ledger_rating_at('club', 'p9', now(), 'east');
SELECT ledger_unseed('club', ARRAY['p1', 'p9'], 'east') = 2 AS unseeded;
SELECT ledger_unseed('club', 'p8', 'east') AS unseeded;
UPDATE ledgers SET k_factor = 16 WHERE name = 'club';
SELECT ledger_rebuild('club') > 0 AS rebuilt;
SELECT count(*) > 0 AS board FROM ledger_leaderboard('club', 'east');
SELECT ledger_player_rank('club', 'p1', 'east') > 0 AS ranked;
SELECT count(*) > 0 AS at FROM ledger_rating_at('club', 'p1', now(), 'east');
SELECT count(*) > 0 AS history FROM ledger_history_of('club', NULL::text);
SELECT count(*) > 0 AS standings FROM ledger_standings_of('club', NULL::varchar);
SELECT count(*) > 0 AS quality FROM ledger_prediction_quality('club', period => '7 days', rating_band => 100);
SELECT count(*) > 0 AS what_if FROM ledger_what_if('club', k_factors => '{16,32}');
SELECT length(ledger_rating_svg('club', '{p1,p2}', scope => 'east')) > 0 AS svg;
SELECT count(*) >= 0 AS seasons FROM ledger_season_standings;
-- a reader that is not a superuser: the ledgers' row-level security runs (ledger_games_readable)
CREATE ROLE hostile_reader;
GRANT SELECT ON ledgers, ledger_attachments, ledger_entries, ledger_standings, ledger_seeds, ledger_seasons,
    ledger_standings_now TO hostile_reader;
GRANT SELECT ON public.matches TO hostile_reader;
SET ROLE hostile_reader;
SELECT count(*) > 0 AS visible FROM ledger_standings_now;
RESET ROLE;
CREATE TABLE public.plays (play_id int, played_at timestamptz, player varchar, place int);
INSERT INTO ledgers (name, rating_system) VALUES ('meeple', 'glicko2');
SELECT ledger_attach_multiplayer('meeple', 'public.plays', 'play_id', 'played_at', 'player', 'place',
                                 rule => 'period') >= 0 AS attached;
INSERT INTO public.plays VALUES (1, '2025-01-01', 'a', 1), (1, '2025-01-01', 'b', 2), (1, '2025-01-01', 'c', 3);
UPDATE public.plays SET place = 4 WHERE player::text = 'c';
DELETE FROM public.plays WHERE player::text = 'b';
TRUNCATE public.plays;
SELECT ledger_detach('meeple');
DELETE FROM ledgers WHERE name = 'meeple';
-- Column paths through foreign keys (a bigint key referenced by an int column): changes of the
-- related table re-rate through ledger_related_changed
CREATE TABLE public.leagues (id bigint PRIMARY KEY, name varchar NOT NULL, active boolean NOT NULL);
CREATE TABLE public.fixtures (id int PRIMARY KEY, league_id int NOT NULL REFERENCES public.leagues ON DELETE CASCADE,
                              played_at timestamptz NOT NULL, white varchar NOT NULL, black varchar NOT NULL,
                              score float8);
INSERT INTO public.leagues VALUES (1, 'east', true), (2, 'west', true);
INSERT INTO ledgers (name, rating_system) VALUES ('paths', 'elo');
SELECT ledger_attach('paths', 'public.fixtures', 'id', 'played_at', 'white', 'black', 'score',
                     scope_column => 'league_id -> name', rated_column => 'league_id -> active') >= 0 AS attached;
INSERT INTO public.fixtures VALUES (1, 1, '2025-01-01', 'a', 'b', 1), (2, 2, '2025-01-02', 'a', 'c', 0),
                                   (3, 1, '2025-01-03', 'b', 'c', 0.5);
UPDATE public.leagues SET name = 'north' WHERE id = 1;
UPDATE public.leagues SET active = false WHERE id = 1;
DELETE FROM public.leagues WHERE id = 2;
INSERT INTO public.leagues VALUES (3, 'south', true);
-- the games table dropped: its ledger detached, the related table's triggers dropped
-- (ledgers_forget_dropped_tables)
DROP TABLE public.fixtures;
SELECT count(*) AS attachments_left FROM ledger_attachments a JOIN ledgers l ON l.id = a.ledger_id
WHERE l.name = 'paths';
DELETE FROM ledgers WHERE name = 'paths';
TRUNCATE public.matches;

-- the engine's SQL functions with SQL of their own
SELECT glicko2_update('(1500,200,0.06)', ARRAY['(1400,30,0.06)']::glicko2_rating[], '{1}') IS NOT NULL AS g2;
SELECT fide_tpr('{2200,2100}', 1.5) IS NOT NULL AS tpr;
SELECT count(*) > 0 AS pairs FROM tournament_pairings_from_trf('012 Two
001    1      A                                 2400
001    2      B                                 2300
XXR 2');
DROP OWNED BY hostile_reader;
DROP ROLE hostile_reader;
