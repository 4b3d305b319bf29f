-- A ranking kept from 0.12 with settings 0.12 allowed and 0.13's rule refuses (K 5000: 0.12's CHECK
-- took K below 100000, the engine's rule takes at most 1000), simulated by writing it with the
-- rankings' triggers off: a game of the other rankings is still rated, and the ranking can be fixed.
INSERT INTO users (email, password_hash)
SELECT format('p%s@example.com', i), 'h' FROM generate_series(1, 2) i;
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Global', '0', NULL, 0, 800, true, 40);
-- refused when written now
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Wild', '0', NULL, 0, 800, true, 5000);
ALTER TABLE rankings DISABLE TRIGGER USER;
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Wild', '0', NULL, 0, 800, true, 5000);
ALTER TABLE rankings ENABLE TRIGGER USER;
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{}', '2024-01-01', '(1-0,CHECKMATE)', '(5 minutes, 0)', 1, '1', '2', true);
SELECT r.name, h.user_id_in_service, round(h.elo, 2) AS elo
FROM elo_history h JOIN rankings r ON r.id = h.ranking_id ORDER BY 1, 2;
-- the kept ranking fixed
UPDATE rankings SET k_factor = 40 WHERE name = 'Wild';
SELECT name, k_factor FROM rankings ORDER BY id;
-- its history recalculated with the fixed K
SELECT r.name, h.user_id_in_service, round(h.elo, 2) AS elo
FROM elo_history h JOIN rankings r ON r.id = h.ranking_id ORDER BY 1, 2;
