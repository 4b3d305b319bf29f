-- service_games, pgn_games and the games and users_games views.
INSERT INTO users (email, password_hash) VALUES ('alice@example.com', 'h'), ('bob@example.com', 'h');
INSERT INTO service_accounts VALUES (NULL, 1, 'stockfish', NULL, 'Stockfish', true);
INSERT INTO game_services (name) VALUES ('lichess.org');
INSERT INTO service_accounts VALUES (1, 2, 'alice_li', 'token', 'Alice', false);
INSERT INTO service_accounts VALUES (NULL, 2, 'magnus', NULL, 'Magnus', false);

-- a local game: positions are generated, the start defaults to the standard position
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{e2e4,e7e5,g1f3}', '2024-03-01 12:00+00', '(1-0,RESIGNATION)', '(5 minutes, 3 seconds)', 1, '1', '2', true)
RETURNING id, starting_position, array_length(partial_fens, 1) AS positions, partial_fens[4] AS last_position;

-- an imported game of another service, and a pgn game
INSERT INTO service_games (moves, creation_date, result, clock, game_id_in_service, service_id, white_player, black_player, is_ranked)
VALUES ('{d2d4,d7d5}', '2024-03-02 12:00+00', '(1/2-1/2,UNKNOWN)', NULL, 'Xy12AbCd', 2, 'magnus', 'alice_li', false);
INSERT INTO pgn_games (moves, creation_date, result, owner_id, black_player_name, white_player_name)
VALUES ('{c2c4}', '2024-03-03 12:00+00', '(0-1,TIMEOUT)', 2, 'Carlsen', 'Nakamura');

-- the rules of service games
INSERT INTO service_games (moves, creation_date, result, service_id, white_player, black_player, is_ranked, game_id_in_service)
VALUES ('{}', '2024-03-04 12:00+00', '(1-0,UNKNOWN)', 1, '1', '2', false, 'local-with-id');
INSERT INTO service_games (moves, creation_date, result, service_id, white_player, black_player, is_ranked)
VALUES ('{}', '2024-03-04 12:00+00', '(1-0,UNKNOWN)', 2, 'magnus', 'alice_li', false);
INSERT INTO service_games (moves, creation_date, result, service_id, white_player, black_player, is_ranked, game_id_in_service)
VALUES ('{}', '2024-03-04 12:00+00', '(1-0,UNKNOWN)', 2, 'magnus', 'alice_li', true, 'ranked-elsewhere');
INSERT INTO service_games (moves, creation_date, result, service_id, white_player, black_player, is_ranked, game_id_in_service)
VALUES ('{}', '2024-03-04 12:00+00', '(1-0,UNKNOWN)', 2, 'magnus', 'alice_li', false, 'Xy12AbCd');
INSERT INTO service_games (moves, creation_date, result, service_id, white_player, black_player, is_ranked)
VALUES ('{}', '2024-03-04 12:00+00', '(1-0,UNKNOWN)', 1, '1', 'nobody', false);
INSERT INTO service_games (moves, creation_date, result, service_id, white_player, black_player, is_ranked)
VALUES ('{e2e4,NULL}', '2024-03-04 12:00+00', '(1-0,UNKNOWN)', 1, '1', '2', false);
INSERT INTO service_games (moves, creation_date, result, service_id, white_player, black_player, is_ranked)
VALUES ('{e2e5}', '2024-03-04 12:00+00', '(1-0,UNKNOWN)', 1, '1', '2', false);
INSERT INTO service_games (moves, creation_date, result, service_id, white_player, black_player, is_ranked)
VALUES ('{}', '2024-03-04 12:00+00', '(1-0,STALEMATE)', 1, '1', '2', false);
SELECT count(*) AS service_games_after_failed_inserts FROM service_games;

-- a service game is not deleted, and what rates it does not change
\set VERBOSITY sqlstate
DELETE FROM service_games WHERE id = 1;
\set VERBOSITY default
DELETE FROM service_games WHERE id = 1;
UPDATE service_games SET result = '(0-1,RESIGNATION)' WHERE id = 1;
UPDATE service_games SET clock = '(3 minutes, 2 seconds)' WHERE id = 1;
UPDATE service_games SET white_player = 'stockfish' WHERE id = 1;
UPDATE service_games SET black_player = '1', white_player = '2' WHERE id = 1;
UPDATE service_games SET is_ranked = false WHERE id = 1;
UPDATE service_games SET service_id = 2, game_id_in_service = 'moved' WHERE id = 1;
-- the same time control written differently, the reason of a result and metadata may change
UPDATE service_games SET clock = '(300 seconds, 3 seconds)', result = '(1-0,TIMEOUT)', metadata = '{"event": "casual"}'
WHERE id = 1;
UPDATE service_games SET moves = '{e2e4}' WHERE id = 1 RETURNING array_length(partial_fens, 1) AS positions;
SELECT id, result, clock, metadata FROM service_games WHERE id = 1;

-- the views
SELECT id, kind, moves, result, service_id, white_service_account, black_service_account, is_ranked,
       pgn_owner_id, pgn_black_player_name, pgn_white_player_name
FROM games ORDER BY kind, id;
SELECT user_id, game_id, kind, moves, result FROM users_games ORDER BY user_id, kind, game_id;

-- pgn games go with their owner
DELETE FROM users WHERE id = 2;
SELECT count(*) AS pgn_games_left FROM pgn_games;
