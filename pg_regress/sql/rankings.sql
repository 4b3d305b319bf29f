-- Rankings kept by the Rust trigger: the app's nine rankings, Elo per game, date order,
-- the views and procedures apps call, and the rules of elo_history.
INSERT INTO users (email, password_hash)
SELECT format('player%s@example.com', i), 'h' FROM generate_series(1, 4) i;
INSERT INTO service_accounts VALUES (NULL, 1, 'stockfish', NULL, 'Stockfish', true);

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

-- the window of each ranking, bots only where included
CREATE TEMP TABLE g (n int, white varchar, black varchar, result game_result, clock clock_settings, at timestamptz);
INSERT INTO g VALUES
  (1, '1', '2', '(1-0,CHECKMATE)', '(3 minutes, 2 seconds)', '2024-01-01 10:00+00'),   -- blitz (5 min)
  (2, '2', '3', '(1/2-1/2,STALEMATE)', '(1 minute, 0)', '2024-01-02 10:00+00'),        -- bullet
  (3, '3', 'stockfish', '(0-1,TIMEOUT)', '(10 minutes, 0)', '2024-01-03 10:00+00'),   -- rapid, a bot
  (4, '1', '3', '(0-1,RESIGNATION)', '(3 minutes, 2 seconds)', '2024-01-04 10:00+00');
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
SELECT '{}', at, result, clock, 1, white, black, true FROM g ORDER BY n;
-- unranked, clockless and other-service games count nowhere
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{}', '2024-01-05 10:00+00', '(1-0,UNKNOWN)', '(3 minutes, 2 seconds)', 1, '1', '2', false),
       ('{}', '2024-01-05 11:00+00', '(1-0,UNKNOWN)', NULL, 1, '1', '2', true);
SELECT game_id, array_agg(r.name ORDER BY ranking_id) AS rankings
FROM games_rankings JOIN rankings r ON r.id = ranking_id GROUP BY game_id ORDER BY game_id;

-- one entry per player per ranking per game, chained by previous_entry
SELECT e.ranking_id, e.game_id, e.user_id_in_service, round(e.elo, 4) AS elo,
       p.game_id AS previous_game
FROM elo_history e LEFT JOIN elo_history p ON p.id = e.previous_entry
ORDER BY e.ranking_id, e.game_date, e.game_id, e.user_id_in_service;

-- the Elo formula: Q = 10^(R/400), E = Q/(Q + Q_opp), new = R + K (S - E)
SELECT round(800 + 40 * (1 - 1 / (1 + 10 ^ ((820 - 800) / 400.0)))::numeric, 4) AS expected_player3_after_game4;

-- rankings as apps read them
SELECT ranking_id, user_id_in_service, round(elo, 2) AS elo, elo_history_id IS NOT NULL AS rated
FROM current_ranking WHERE ranking_id IN (1, 3, 8) ORDER BY ranking_id, user_id_in_service;
SELECT * FROM ranking_with_placement_at_timestamp('2024-01-02 12:00+00', 1);
SELECT placement, user_id_in_service, elo FROM ranking_with_placement_at_timestamp('2024-01-31', 1);
SELECT user_id_in_service, round(elo, 2) FROM ranking_at_timestamp('2023-12-31') WHERE ranking_id = 1
ORDER BY 1;

-- a game dated before games already rated is rated in its place, the later history repaired
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{}', '2024-01-01 09:00+00', '(0-1,CHECKMATE)', '(5 minutes, 0)', 1, '1', '3', true);
SELECT e.game_id, e.user_id_in_service, round(e.elo, 4) AS elo, p.game_id AS previous_game
FROM elo_history e LEFT JOIN elo_history p ON p.id = e.previous_entry
WHERE e.ranking_id = 1 ORDER BY e.game_date, e.game_id, e.user_id_in_service;

-- recalculate_ranking rebuilds from scratch and gives the same history
CREATE TEMP TABLE kept AS
SELECT e.ranking_id, e.game_id, e.user_id_in_service, e.elo, p.game_id AS previous_game
FROM elo_history e LEFT JOIN elo_history p ON p.id = e.previous_entry;
CALL recalculate_ranking(1);
CALL recalculate_ranking(3);
SELECT count(*) AS differences FROM (
    (SELECT * FROM kept EXCEPT
     SELECT e.ranking_id, e.game_id, e.user_id_in_service, e.elo, p.game_id
     FROM elo_history e LEFT JOIN elo_history p ON p.id = e.previous_entry)
    UNION ALL
    (SELECT e.ranking_id, e.game_id, e.user_id_in_service, e.elo, p.game_id
     FROM elo_history e LEFT JOIN elo_history p ON p.id = e.previous_entry
     EXCEPT SELECT * FROM kept)) d;
CALL recalculate_ranking(99);

-- re-dating a game moves it in the history
UPDATE service_games SET creation_date = '2024-01-06 10:00+00' WHERE id = 1;
SELECT e.game_id, e.user_id_in_service, round(e.elo, 4) AS elo, p.game_id AS previous_game
FROM elo_history e LEFT JOIN elo_history p ON p.id = e.previous_entry
WHERE e.ranking_id = 1 ORDER BY e.game_date, e.game_id, e.user_id_in_service;

-- changing a ranking recalculates it
UPDATE rankings SET k_factor = 20 WHERE id = 3;
SELECT game_id, user_id_in_service, round(elo, 4) AS elo FROM elo_history WHERE ranking_id = 3
ORDER BY game_date, game_id, user_id_in_service;

-- the leaderboard, a player's rank and the rating changes
SELECT rank, user_id_in_service, display_name, round(rating, 2) AS rating, games, wins, draws, losses,
       round(peak_rating, 2) AS peak, provisional
FROM leaderboard WHERE ranking_id = 1 ORDER BY rank, user_id_in_service;
SELECT rank, user_id_in_service, games FROM ranking_leaderboard(1, min_games => 3);
SELECT player_rank(1, '3') AS rank_of_3, player_rank(1, '1') AS rank_of_1, player_rank(1, '4') AS unrated;
SELECT game_id, user_id_in_service, round(rating_before, 2) AS before, round(rating_after, 2) AS after,
       round(change, 2) AS change, opponent, round(opponent_rating_before, 2) AS opponent_before, score
FROM rating_changes WHERE ranking_id = 1 ORDER BY game_date, game_id, user_id_in_service;

-- the history and the standings are pg_rating's to write, even for a superuser (42501)
INSERT INTO elo_history (user_id_in_service, ranking_id, game_id, elo, game_date)
VALUES ('4', 1, 1, 900, '2024-01-01 10:00+00');
UPDATE elo_history SET elo = elo WHERE ranking_id = 1 AND game_id = 4;
DELETE FROM ranking_players WHERE ranking_id = 1;
TRUNCATE elo_history CASCADE;
-- setting row_security off makes no difference to an ordinary session either (only a superuser
-- session restoring a dump loads derived rows): see the privileges file
-- invalid rankings
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('negative', '-1 minute', NULL, 0, 800, true, 40);
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('inverted', '10 minutes', '5 minutes', 0, 800, true, 40);
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('zero max', '0', '0', 0, 800, true, 40);
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('no start', '0', NULL, 0, 0, true, 40);
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('nan', '0', NULL, 0, 'NaN', true, 40);
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('multiplier', '0', NULL, -1, 800, true, 40);
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor, rating_system)
VALUES ('unknown system', '0', NULL, 0, 800, true, 40, 'trueskill');
-- a ranked game against oneself cannot be rated, and nothing of it is written
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{}', '2024-02-01', '(1-0,UNKNOWN)', '(5 minutes, 0)', 1, '2', '2', true);
SELECT count(*) AS games, (SELECT count(*) FROM elo_history) AS entries FROM service_games;

-- The entries of new games are written below SQL, without a query per foreign key and entry:
-- pg_rating makes their keys good itself. A game whose id a trigger of the same statement
-- changed before it was rated is refused (23503), and nothing of the statement is kept.
CREATE FUNCTION renumber_game() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE service_games SET id = NEW.id + 1000 WHERE id = NEW.id;
    RETURN NULL;
END $$;
CREATE TRIGGER renumber_game AFTER INSERT ON service_games FOR EACH ROW EXECUTE FUNCTION renumber_game();
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{}', '2024-03-01', '(1-0,CHECKMATE)', '(5 minutes, 0)', 1, '1', '2', true);
DROP TRIGGER renumber_game ON service_games;
DROP FUNCTION renumber_game();
SELECT count(*) AS games, (SELECT count(*) FROM elo_history) AS entries FROM service_games;
-- a row trigger of the DBA's own on elo_history runs for every entry written (those entries go
-- by SQL, which runs it); it runs within pg_rating's writer, whose search_path is pg_catalog,
-- pg_temp, so it names its table with its schema
CREATE TABLE entries_seen (entry int, game int);
CREATE FUNCTION see_entry() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO public.entries_seen VALUES (NEW.id, NEW.game_id);
    RETURN NULL;
END $$;
CREATE TRIGGER see_entry AFTER INSERT ON elo_history FOR EACH ROW EXECUTE FUNCTION see_entry();
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{}', '2024-03-02', '(1-0,CHECKMATE)', '(5 minutes, 0)', 1, '1', '2', true);
SELECT (SELECT count(*) FROM entries_seen) AS seen,
       (SELECT count(*) FROM elo_history WHERE game_id = (SELECT max(id) FROM service_games)) AS written,
       (SELECT count(*) FROM entries_seen s JOIN elo_history e ON e.id = s.entry AND e.game_id = s.game) AS same;
DROP TRIGGER see_entry ON elo_history;
DROP FUNCTION see_entry();
DROP TABLE entries_seen;
-- and every entry's game and ranking exist
SELECT count(*) AS entries_without_game_or_ranking
FROM elo_history e
WHERE NOT EXISTS (SELECT FROM service_games g WHERE g.id = e.game_id)
   OR NOT EXISTS (SELECT FROM rankings r WHERE r.id = e.ranking_id);
-- a ranked game dated infinity has no place in a ranking (22008), as in a ledger
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{}', 'infinity', '(1-0,CHECKMATE)', '(5 minutes, 0)', 1, '1', '2', true);
