-- The Random Chess schema: users, games and the rankings kept by Rust triggers
-- The app's nine rankings (as its setup script creates them) and a Glicko-2 one.
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Global', '0', NULL, 0, 800, true, 40),
       ('Bullet', '0', '3 minutes', 60, 800, false, 40),
       ('Blitz', '3 minutes', '10 minutes', 60, 800, false, 40),
       ('Rapid', '10 minutes', '60 minutes', 60, 800, false, 40),
       ('Classical', '1 hour', '24 hours', 60, 800, false, 40),
       ('Bullet with bots', '0', '3 minutes', 60, 800, true, 40),
       ('Blitz with bots', '3 minutes', '10 minutes', 60, 800, true, 40),
       ('Rapid with bots', '10 minutes', '60 minutes', 60, 800, true, 40),
       ('Classical with bots', '1 hour', '24 hours', 60, 800, true, 40);
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor,
                      rating_system, rating_period)
VALUES ('Glicko-2 weekly', '0', NULL, 0, 1500, true, 0, 'glicko2', '7 days');

-- Users get their Random Chess account automatically; a bot has one without a user.
INSERT INTO users (email, password_hash)
VALUES ('ania@example.com', 'x'), ('bartek@example.com', 'x'), ('celina@example.com', 'x');
INSERT INTO service_accounts VALUES (NULL, 1, 'stockfish-4', NULL, 'Stockfish level 4', true);
SELECT user_id, service_id, user_id_in_service, display_name, is_bot FROM service_accounts ORDER BY 3;

-- Games as the app inserts them; positions are computed, illegal moves refused.
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{e2e4,e7e5,d1h5,b8c6,f1c4,g8f6,h5f7}', '2024-05-01 18:00+00', '(1-0,CHECKMATE)', '(3 minutes, 2 seconds)', 1, '1', '2', true),
       ('{d2d4,d7d5,c2c4}', '2024-05-02 18:00+00', '(1/2-1/2,STALEMATE)', '(3 minutes, 2 seconds)', 1, '2', '3', true),
       ('{e2e4,c7c5}', '2024-05-03 18:00+00', '(0-1,RESIGNATION)', '(10 minutes, 0)', 1, '1', 'stockfish-4', true);
SELECT id, moves, result, array_length(partial_fens, 1) AS positions FROM service_games ORDER BY id;
SELECT game_id, array_agg(r.name ORDER BY r.id) AS counts_in
FROM games_rankings JOIN rankings r ON r.id = ranking_id GROUP BY game_id ORDER BY game_id;

-- The history, chained per player and ranking.
SELECT r.name AS ranking, e.game_id, e.user_id_in_service AS player, round(e.elo, 1) AS elo,
       p.game_id AS previous_game
FROM elo_history e JOIN rankings r ON r.id = e.ranking_id LEFT JOIN elo_history p ON p.id = e.previous_entry
WHERE r.name IN ('Global', 'Blitz') ORDER BY r.id, e.game_date, e.user_id_in_service;

-- A game played before the others but recorded late is rated in its place: the later history is repaired.
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{g2g4,e7e5,f2f3,d8h4}', '2024-04-30 12:00+00', '(0-1,CHECKMATE)', '(5 minutes, 0)', 1, '1', '3', true);
SELECT e.game_id, e.user_id_in_service AS player, round(e.elo, 1) AS elo, p.game_id AS previous_game
FROM elo_history e LEFT JOIN elo_history p ON p.id = e.previous_entry
WHERE e.ranking_id = 1 ORDER BY e.game_date, e.user_id_in_service;

-- What the app reads: the current ranking with placements, and one ranking as of a date.
SELECT * FROM ranking_with_placement_at_timestamp(now(), 1);
SELECT placement, user_id_in_service, elo FROM ranking_with_placement_at_timestamp('2024-05-01 23:00+00', 1);

-- For the other platforms: a leaderboard with RD and records, a player's rank, rating changes.
SELECT rank, user_id_in_service AS player, display_name, round(rating, 1) AS rating, round(rd, 1) AS rd,
       games, wins, draws, losses, round(peak_rating, 1) AS peak, provisional
FROM ranking_leaderboard((SELECT id FROM rankings WHERE name = 'Glicko-2 weekly'));
SELECT player_rank(1, '3') AS rank_of_celina_in_global;
SELECT game_id, user_id_in_service AS player, round(rating_before, 1) AS before, round(rating_after, 1) AS after,
       round(change, 1) AS change, opponent, round(opponent_rating_before, 1) AS opponent_before
FROM rating_changes WHERE ranking_id = 1 AND user_id_in_service = '1' ORDER BY game_date;

-- The rules of the schema, each with its error.
\set ON_ERROR_STOP off
DELETE FROM service_games WHERE id = 1;
UPDATE service_games SET black_player = '3' WHERE id = 1;
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{e2e5}', now(), '(1-0,TIMEOUT)', '(3 minutes, 0)', 1, '1', '2', true);
\set ON_ERROR_STOP on
