-- An application role without superuser: it records users and games and reads everything,
-- while only pg_rating's triggers write the rating history.
CREATE ROLE regress_chess_app LOGIN;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO regress_chess_app;
GRANT INSERT, UPDATE, DELETE ON users, service_accounts, service_games, pgn_games TO regress_chess_app;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO regress_chess_app;
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Global', '0', NULL, 0, 800, true, 40);

SET ROLE regress_chess_app;
INSERT INTO users (email, password_hash) VALUES ('a@example.com', 'h'), ('b@example.com', 'h');
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{f2f3,e7e5,g2g4,d8h4}', '2024-05-01', '(0-1,CHECKMATE)', '(5 minutes, 0)', 1, '1', '2', true);
SELECT user_id_in_service, round(elo, 2) AS elo FROM current_ranking ORDER BY 1;
SELECT rank, user_id_in_service, games FROM leaderboard ORDER BY rank;
-- the history and the standings are not the application's to write
INSERT INTO elo_history (user_id_in_service, ranking_id, game_id, elo, game_date) VALUES ('1', 1, 1, 2000, now());
UPDATE elo_history SET elo = 2000;
DELETE FROM ranking_players;
UPDATE rankings SET k_factor = 10;
CALL recalculate_ranking(1);
RESET ROLE;

SELECT count(*) AS entries, max(elo) < 900 AS untouched FROM elo_history;
-- the functions that write the history run as the extension owner, with a pinned search_path
SELECT proname, prosecdef, proconfig FROM pg_proc
WHERE proname IN ('rate_service_games', 'rerate_redated_service_game', 'recalculate_changed_ranking',
                  'rebuild_ranking')
ORDER BY proname;
-- a search_path attack does not reach them
CREATE SCHEMA regress_evil;
CREATE TABLE regress_evil.elo_history (LIKE elo_history);
SET search_path = regress_evil, public;
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{}', '2024-05-02', '(1-0,TIMEOUT)', '(5 minutes, 0)', 1, '1', '2', true);
RESET search_path;
SELECT count(*) AS evil_rows FROM regress_evil.elo_history;
SELECT count(*) AS entries FROM elo_history;
DROP SCHEMA regress_evil CASCADE;

DROP OWNED BY regress_chess_app;
DROP ROLE regress_chess_app;
