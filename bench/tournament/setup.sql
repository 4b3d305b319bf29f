-- 300 players with a rating history, one 11-round Swiss tournament of them.
SELECT setseed(0.20261126);
INSERT INTO users (email, password_hash) SELECT format('p%s@example.com', i), 'h' FROM generate_series(1, :players) i;
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Blitz', '3 minutes', '10 minutes', 60, 1500, false, 20);
-- a rating history before the tournament: 10 games per player
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
SELECT '{}', timestamptz '2023-01-01' + i * interval '10 minutes',
       (ARRAY['(1-0,CHECKMATE)', '(0-1,RESIGNATION)', '(1/2-1/2,STALEMATE)'])[1 + floor(random() * 3)::int]::game_result,
       '(5 minutes, 0)', 1, w::text, (1 + (w + floor(random() * (:players - 1))::int) % :players)::text, true
FROM (SELECT i, 1 + floor(random() * :players)::int AS w FROM generate_series(1, 5 * :players) i) x;
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (11, 1, '(5 minutes, 0)');
INSERT INTO tournaments_players (tournament_id, user_id_in_service) SELECT 1, id::text FROM users ORDER BY id;
SELECT count(*) AS rated_entries FROM elo_history;
