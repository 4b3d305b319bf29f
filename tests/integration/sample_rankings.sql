-- Accounts (a bot, an account of another service), three rankings (Elo, Elo without bots,
-- Glicko-2 with a rating period) and some sixty games, one of them older than the rest; shared
-- by the dump-and-restore and upgrade tests.
INSERT INTO users (email, password_hash) SELECT format('u%s@example.com', i), 'h' FROM generate_series(1, 6) i;
INSERT INTO service_accounts VALUES (NULL, 1, 'bot', NULL, 'Bot', true);
INSERT INTO game_services (name) VALUES ('lichess.org');
INSERT INTO service_accounts VALUES (1, 2, 'u1_li', 'token', 'U1', false);
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Global', '0', NULL, 0, 800, true, 40), ('Blitz', '3 minutes', '10 minutes', 60, 800, false, 40);
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor,
                      rating_system, rating_period)
VALUES ('Glicko', '0', NULL, 0, 1500, true, 0, 'glicko2', '7 days');
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
SELECT '{e2e4,e7e5}', timestamptz '2024-01-01' + i * interval '1 hour',
       (ARRAY['(1-0,CHECKMATE)', '(0-1,TIMEOUT)', '(1/2-1/2,STALEMATE)'])[1 + i % 3]::game_result,
       '(5 minutes, 0)', 1, (1 + i % 6)::text, (1 + (i + 1 + i % 4) % 6)::text, true
FROM generate_series(1, 60) i WHERE (1 + i % 6) <> (1 + (i + 1 + i % 4) % 6);
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{d2d4}', '2023-12-31', '(1-0,RESIGNATION)', '(4 minutes, 1 second)', 1, '2', 'bot', true);
INSERT INTO pgn_games (moves, creation_date, result, owner_id, black_player_name, white_player_name)
VALUES ('{c2c4,e7e5}', '2024-02-01', '(1/2-1/2,UNKNOWN)', 3, 'B', 'W');
