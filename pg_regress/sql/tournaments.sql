-- Swiss tournaments: the tables and every rule of tournaments, registrations, games and byes,
-- each error, and that a failing statement writes nothing.
INSERT INTO users (email, password_hash)
SELECT format('player%s@example.com', i), 'h' FROM generate_series(1, 6) i;
INSERT INTO service_accounts VALUES (NULL, 1, 'stockfish', NULL, 'Stockfish', true);
INSERT INTO game_services (name) VALUES ('lichess');
INSERT INTO service_accounts VALUES (1, 2, 'alice', 'tok', 'Alice', false), (2, 2, 'bob', 'tok', 'Bob', false);
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Global', '0', NULL, 0, 1500, true, 20),
       ('Blitz', '3 minutes', '10 minutes', 60, 1500, false, 20);

-- a game of a tournament: the service game, then its tournaments_games row
CREATE FUNCTION pg_temp.play(t int, r int, w varchar, b varchar, res game_result, at timestamptz,
                             mv varchar(5)[] DEFAULT '{e2e4}') RETURNS int
LANGUAGE plpgsql AS $$
DECLARE g int;
BEGIN
  INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
  SELECT mv, at, res, s.time_control, 1, w, b, s.is_ranked FROM swiss_tournaments s WHERE s.tournament_id = t
  RETURNING id INTO g;
  INSERT INTO tournaments_games VALUES (t, g, r);
  RETURN g;
END $$;

-- the columns, in the order of the contract
SELECT table_name, string_agg(column_name || ' ' || data_type, ', ' ORDER BY ordinal_position)
FROM information_schema.columns
WHERE table_schema = 'public'
  AND table_name IN ('swiss_tournaments', 'tournaments_players', 'tournaments_games', 'byes',
                     'tournaments_ranking_reqs', 'tournaments_ranked_games_reqs', 'tournaments_reqs',
                     'swiss_tournaments_players_points', 'swiss_tournaments_round_standings')
GROUP BY table_name ORDER BY table_name;

-- tournaments
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (3, 2, '(5 minutes, 0)');
SELECT * FROM swiss_tournaments;
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control, tie_breaks)
VALUES (5, 2, '(5 minutes, 0)', ' de,bh-c1 , sb/c1,win ');
SELECT tournament_id, tie_breaks FROM swiss_tournaments ORDER BY 1;
-- errors
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (0, 2, '(5 minutes, 0)');
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (1001, 2, '(5 minutes, 0)');
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (3, 99, '(5 minutes, 0)');
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (3, 2, NULL);
-- a tournament without a ranking, as the original allows (no ratings as of the start)
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (3, NULL, '(5 minutes, 0)')
RETURNING tournament_id, ranking_id;
DELETE FROM swiss_tournaments WHERE ranking_id IS NULL;
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (3, 2, '(1 minute, 0)');
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (3, 2, '(,)');
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control, tie_breaks) VALUES (3, 2, '(5 minutes, 0)', 'BH, Median');
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control, tie_breaks) VALUES (3, 2, '(5 minutes, 0)', 'BH, SB, BH');
-- an unranked tournament may have any clock; its ranking still gives the performance ratings
INSERT INTO swiss_tournaments (round_count, is_ranked, ranking_id, time_control) VALUES (2, false, 2, '(1 minute, 0)');
SELECT count(*) AS tournaments FROM swiss_tournaments;

-- requirements
INSERT INTO tournaments_ranking_reqs (tournament_id, ranking_type, required_value) VALUES (2, 2, 1400);
INSERT INTO tournaments_ranked_games_reqs (tournament_id, ranking_type, game_count) VALUES (2, 1, 1);
INSERT INTO tournaments_ranking_reqs (tournament_id, ranking_type, required_value) VALUES (2, 2, 1300);
INSERT INTO tournaments_ranking_reqs (tournament_id, required_value) VALUES (2, 0);
INSERT INTO tournaments_ranked_games_reqs (tournament_id, game_count) VALUES (2, 0);
INSERT INTO tournaments_ranked_games_reqs (tournament_id, ranking_type, game_count) VALUES (99, 1, 1);
SELECT * FROM tournaments_reqs ORDER BY tournament_id, ranking_type, game_count;

-- registrations
INSERT INTO tournaments_players (tournament_id, user_id_in_service) VALUES (1, '1'), (1, '2'), (1, '3'), (1, '4');
SELECT * FROM tournaments_players ORDER BY tournament_id, user_id_in_service;
INSERT INTO tournaments_players (tournament_id, user_id_in_service) VALUES (1, '1');
INSERT INTO tournaments_players (tournament_id, user_id_in_service) VALUES (1, 'nobody');
INSERT INTO tournaments_players (service_id, tournament_id, user_id_in_service) VALUES (2, 1, 'alice');
INSERT INTO tournaments_players (tournament_id, user_id_in_service) VALUES (99, '1');
-- requirement of rated games in Global: player 5 has none; the bot is exempt
INSERT INTO tournaments_players (tournament_id, user_id_in_service) VALUES (2, '5');
INSERT INTO tournaments_players (tournament_id, user_id_in_service) VALUES (2, 'stockfish');
-- a player with a game in Global (rating 1500 + in Blitz too) may join; one who lost below 1400 may not
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{}', '2024-01-01', '(1-0,RESIGNATION)', '(5 minutes, 0)', 1, '5', '6', true);
SELECT ranking_id, user_id_in_service, rating FROM ranking_players ORDER BY 1, 2;
INSERT INTO tournaments_players (tournament_id, user_id_in_service) VALUES (2, '5');
UPDATE tournaments_ranking_reqs SET required_value = 1500 WHERE tournament_id = 2;
INSERT INTO tournaments_players (tournament_id, user_id_in_service) VALUES (2, '6');
-- a failing multi-row insert writes nothing
INSERT INTO tournaments_players (tournament_id, user_id_in_service) VALUES (2, '1'), (2, '6');
SELECT tournament_id, user_id_in_service FROM tournaments_players WHERE tournament_id = 2 ORDER BY 2;
UPDATE tournaments_players SET user_id_in_service = '6' WHERE tournament_id = 2;

-- games
SELECT pg_temp.play(1, 1, '1', '2', '(1-0,CHECKMATE)', '2024-03-01 10:00+00') AS game_r1a;
SELECT pg_temp.play(1, 1, '3', '4', '(1/2-1/2,STALEMATE)', '2024-03-01 10:05+00') AS game_r1b;
SELECT tournament_id, round FROM tournaments_games ORDER BY game_id;
-- errors: each rule
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked,
                           starting_position, game_id_in_service)
VALUES ('{}', '2024-03-02', '(1-0,TIMEOUT)', '(5 minutes, 0)', 1, '1', '3', true, DEFAULT, NULL),          -- 4 ok
       ('{}', '2024-03-02', '(1-0,TIMEOUT)', '(5 minutes, 0)', 1, '1', '3', false, DEFAULT, NULL),         -- 5 unranked
       ('{}', '2024-03-02', '(1-0,TIMEOUT)', '(5 minutes, 0)', 1, '1', '3', true,
        'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', NULL),                                 -- 6 position
       ('{}', '2024-03-02', '(1-0,TIMEOUT)', '(5 minutes, 2 seconds)', 1, '1', '3', true, DEFAULT, NULL),  -- 7 clock
       ('{}', '2024-03-02', '(1-0,TIMEOUT)', '(5 minutes, 0)', 2, 'alice', 'bob', false, DEFAULT, 'x1'),   -- 8 lichess
       ('{}', '2024-03-02', '(1-0,TIMEOUT)', '(5 minutes, 0)', 1, '1', '5', true, DEFAULT, NULL),          -- 9 unregistered
       ('{}', '2024-03-02', '(1-0,TIMEOUT)', '(5 minutes, 0)', 1, '2', '3', true, DEFAULT, NULL);          -- 10
SELECT id, white_player, black_player, is_ranked, service_id FROM service_games WHERE id > 3 ORDER BY id;
INSERT INTO tournaments_games VALUES (1, 4, 4);
INSERT INTO tournaments_games VALUES (1, 4, 0);
INSERT INTO tournaments_games VALUES (1, 5, 2);
INSERT INTO tournaments_games VALUES (1, 6, 2);
INSERT INTO tournaments_games VALUES (1, 7, 2);
INSERT INTO tournaments_games VALUES (1, 8, 2);
INSERT INTO tournaments_games VALUES (1, 9, 2);
INSERT INTO tournaments_games VALUES (1, 999, 2);
INSERT INTO tournaments_games VALUES (99, 4, 2);
INSERT INTO tournaments_games VALUES (1, 2, 2);
-- player 1 already played in round 1; two games of one player in one statement fail together
INSERT INTO tournaments_games VALUES (1, 4, 1);
INSERT INTO tournaments_games VALUES (1, 4, 2), (1, 10, 2);
SELECT count(*) AS games_of_tournament_1 FROM tournaments_games WHERE tournament_id = 1;
INSERT INTO tournaments_games VALUES (1, 4, 2);
-- a game with a player absent from another tournament is refused there
INSERT INTO tournaments_games VALUES (2, 4, 1);

-- byes
INSERT INTO byes VALUES (1, 3, '2');
INSERT INTO byes VALUES (1, 3, '2');
INSERT INTO byes VALUES (1, 4, '2');
INSERT INTO byes VALUES (1, 0, '2');
INSERT INTO byes VALUES (1, 2, '5');
INSERT INTO byes VALUES (1, 2, '1');
INSERT INTO byes VALUES (1, 1, '4');
SELECT * FROM byes ORDER BY tournament_id, round, user_id_in_service;

-- removing players: not with games; a player with only byes leaves with them
INSERT INTO tournaments_players (tournament_id, user_id_in_service) VALUES (1, '6');
INSERT INTO byes VALUES (1, 2, '6');
DELETE FROM tournaments_players WHERE tournament_id = 1 AND user_id_in_service = '1';
DELETE FROM tournaments_players WHERE tournament_id = 1 AND user_id_in_service = '6';
SELECT * FROM byes ORDER BY tournament_id, round, user_id_in_service;
SELECT user_id_in_service FROM tournaments_players WHERE tournament_id = 1 ORDER BY 1;

-- changing a tournament must keep its games valid
UPDATE swiss_tournaments SET round_count = 1 WHERE tournament_id = 1;
UPDATE swiss_tournaments SET time_control = '(3 minutes, 0)' WHERE tournament_id = 1;
UPDATE swiss_tournaments SET is_ranked = false WHERE tournament_id = 1;
UPDATE swiss_tournaments SET round_count = 4 WHERE tournament_id = 1;
SELECT tournament_id, round_count FROM swiss_tournaments WHERE tournament_id = 1;

-- deleting a tournament deletes its games, byes, registrations and standings
SELECT count(*) AS derived_rows FROM swiss_tournament_standings WHERE tournament_id = 1;
DELETE FROM swiss_tournaments WHERE tournament_id = 1;
SELECT (SELECT count(*) FROM tournaments_games) AS games, (SELECT count(*) FROM byes) AS byes,
       (SELECT count(*) FROM tournaments_players WHERE tournament_id = 1) AS players,
       (SELECT count(*) FROM swiss_tournament_standings) AS standings,
       (SELECT count(*) FROM swiss_tournament_progress) AS progress;

-- an unranked game may have one player on both sides; a tournament does not take it
SELECT tournament_id AS unranked FROM swiss_tournaments WHERE NOT is_ranked \gset
INSERT INTO tournaments_players (tournament_id, user_id_in_service) VALUES (:unranked, '1');
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{}', '2024-03-05', '(1-0,TIMEOUT)', '(1 minute, 0)', 1, '1', '1', false);
INSERT INTO tournaments_games SELECT :unranked, max(id), 1 FROM service_games;
-- the functions name a missing tournament
SELECT rebuild_tournament_standings(99);
SELECT tournament_trf(99);
-- a tournament starts from a position: a malformed FEN is refused (22P02)
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control, starting_position)
VALUES (3, 2, '(5 minutes, 0)', 'garbage');
