-- Standings kept on insert: a hand-computed five-player Swiss with pairing-allocated byes, a
-- forfeit (a decisive ABANDONMENT without a move) and a withdrawal, round by round; the FIDE
-- tie-breaks (C.07, 2026) and TPR against ratings as of the start; corrections; the views;
-- the TRF-16 export.
INSERT INTO users (email, password_hash)
SELECT format('player%s@example.com', i), 'h' FROM generate_series(1, 5) i;
-- Elo with K = 200 from 1600: a win between equals moves both by exactly 100
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Blitz', '3 minutes', '10 minutes', 60, 1600, false, 200);
-- before the tournament: players 1..5 end on 1800, 1700, 1600, 1500, 1400
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{}', '2024-01-01', '(1-0,RESIGNATION)', '(5 minutes, 0)', 1, '1', '5', true),
       ('{}', '2024-01-02', '(1-0,RESIGNATION)', '(5 minutes, 0)', 1, '2', '4', true),
       ('{}', '2024-01-03', '(1-0,RESIGNATION)', '(5 minutes, 0)', 1, '1', '2', true),
       ('{}', '2024-01-04', '(1-0,RESIGNATION)', '(5 minutes, 0)', 1, '4', '5', true),
       ('{}', '2024-01-05', '(1-0,RESIGNATION)', '(5 minutes, 0)', 1, '2', '4', true);
SELECT user_id_in_service, rating FROM ranking_players ORDER BY 1;

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

INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (4, 1, '(5 minutes, 0)');
INSERT INTO tournaments_players (tournament_id, user_id_in_service) SELECT 1, i::text FROM generate_series(1, 5) i;
-- nothing played yet: no standings
SELECT count(*) FROM swiss_tournaments_round_standings;

-- round 1: 1-2 draw, 3-4 1-0, 5 bye
SELECT pg_temp.play(1, 1, '1', '2', '(1/2-1/2,THREEFOLD_REPETITION)', '2024-02-01 10:00+00') > 0 AS played;
SELECT pg_temp.play(1, 1, '3', '4', '(1-0,CHECKMATE)', '2024-02-01 10:01+00') > 0 AS played;
INSERT INTO byes VALUES (1, 1, '5');
SELECT * FROM swiss_tournaments_round_standings WHERE tournament_id = 1 AND round = 1 ORDER BY place;
-- round 2: 5-1 0-1, 2-3 forfeit (3 never came: 1-0 ABANDONMENT without a move), 4 bye
SELECT pg_temp.play(1, 2, '5', '1', '(0-1,RESIGNATION)', '2024-02-02 10:00+00') > 0 AS played;
SELECT pg_temp.play(1, 2, '2', '3', '(1-0,ABANDONMENT)', '2024-02-02 10:01+00', '{}') > 0 AS played;
INSERT INTO byes VALUES (1, 2, '4');
SELECT * FROM swiss_tournaments_round_standings WHERE tournament_id = 1 AND round = 2 ORDER BY place;
-- round 3: 1-3 0-1, 2-4 draw; player 5 has withdrawn
SELECT pg_temp.play(1, 3, '1', '3', '(0-1,CHECKMATE)', '2024-02-03 10:00+00') > 0 AS played;
SELECT pg_temp.play(1, 3, '2', '4', '(1/2-1/2,STALEMATE)', '2024-02-03 10:01+00') > 0 AS played;
SELECT * FROM swiss_tournaments_round_standings WHERE tournament_id = 1 AND round = 3 ORDER BY place;
-- round 4: 4-1 draw, 3-2 1-0
SELECT pg_temp.play(1, 4, '4', '1', '(1/2-1/2,STALEMATE)', '2024-02-04 10:00+00') > 0 AS played;
SELECT pg_temp.play(1, 4, '3', '2', '(1-0,TIMEOUT)', '2024-02-04 10:01+00') > 0 AS played;
SELECT * FROM swiss_tournaments_round_standings WHERE tournament_id = 1 AND round = 4 ORDER BY place;
SELECT * FROM swiss_tournaments_players_points WHERE tournament_id = 1 ORDER BY round, user_id_in_service;

-- every tie-break value of the final standings
SELECT place, rank, user_id_in_service AS player, points, buchholz, buchholz_cut1, sonneborn_berger,
       sonneborn_berger_cut1, wins, games_won, aro, aro_c1, tpr, ptp, games_played, adjusted_points, start_rating
FROM swiss_tournaments_detailed_standings WHERE tournament_id = 1 AND round = 4 ORDER BY place;
-- checked against the values computed by hand (core/src/tournament/tests.rs, random_chess_case):
-- points 2 2 3 2 1; BH 9 9 8 9 5 (player 3's forfeit-loss dummy capped at player 2's 2.0,
-- C.07 2026 16.4.1); BH-C1 7 7 6 7 4; SB 4 4 6 4 1; SB-C1 3 3 6 3 1; WIN 1 1 3 1 1; WON 1 0 3 0 0;
-- ARO 1550 1633 1667 1700 1800; TPR 1550 1508 2467 (full score: +800) 1575 1000 (zero: -800).
-- The query lists the rows that differ: none.
SELECT d.user_id_in_service, d.points, d.buchholz, d.buchholz_cut1, d.sonneborn_berger, d.sonneborn_berger_cut1,
       d.wins, d.games_won, d.aro, d.tpr
FROM swiss_tournaments_detailed_standings d
JOIN (VALUES ('1', 2.0, 9.0, 7.0, 4.0, 3.0, 1, 1, 1550, 1550),
             ('2', 2.0, 9.0, 7.0, 4.0, 3.0, 1, 0, 1633, 1508),
             ('3', 3.0, 8.0, 6.0, 6.0, 6.0, 3, 3, 1667, 2467),
             ('4', 2.0, 9.0, 7.0, 4.0, 3.0, 1, 0, 1700, 1575),
             ('5', 1.0, 5.0, 4.0, 1.0, 1.0, 1, 0, 1800, 1000))
  AS h(player, points, bh, bh_c1, sb, sb_c1, win, won, aro, tpr) ON h.player = d.user_id_in_service
WHERE d.tournament_id = 1 AND d.round = 4
  AND (d.points, d.buchholz, d.buchholz_cut1, d.sonneborn_berger, d.sonneborn_berger_cut1, d.wins, d.games_won,
       d.aro, d.tpr) IS DISTINCT FROM (h.points, h.bh, h.bh_c1, h.sb, h.sb_c1, h.win, h.won, h.aro, h.tpr);

-- ratings as of the start: the tournament's own games changed the ranking, not the standings
SELECT e.user_id_in_service, e.start_rating, p.rating AS current_rating
FROM swiss_tournament_entrants e JOIN ranking_players p USING (user_id_in_service) ORDER BY 1;
SELECT started_at, last_round FROM swiss_tournament_progress;

-- a from-scratch recomputation gives the same rows
CREATE TEMP TABLE kept AS SELECT * FROM swiss_tournament_standings;
SELECT rebuild_tournament_standings(1) AS rows_written;
SELECT count(*) AS differing_rows FROM (
  (SELECT * FROM kept EXCEPT SELECT * FROM swiss_tournament_standings)
  UNION ALL
  (SELECT * FROM swiss_tournament_standings EXCEPT SELECT * FROM kept)) d;

-- correcting a result: delete the round-4 game 3-2 and record a draw instead
DELETE FROM tournaments_games WHERE game_id = (SELECT max(game_id) FROM tournaments_games);
SELECT place, user_id_in_service, points, performance_rating FROM swiss_tournaments_round_standings
WHERE tournament_id = 1 AND round = 4 ORDER BY place;
SELECT pg_temp.play(1, 4, '3', '2', '(1/2-1/2,STALEMATE)', '2024-02-04 10:02+00') > 0 AS played;
SELECT place, user_id_in_service, points, performance_rating FROM swiss_tournaments_round_standings
WHERE tournament_id = 1 AND round = 4 ORDER BY place;
-- moving a game to a round where its players already played is refused; an UPDATE in place is a delete and an insert
UPDATE tournaments_games SET round = 3 WHERE game_id = (SELECT max(game_id) FROM tournaments_games);
UPDATE tournaments_games SET round = 4 WHERE game_id = (SELECT max(game_id) FROM tournaments_games);
-- a game's reason and moves may change: a forfeit becomes a game played over the board
UPDATE service_games SET moves = '{e2e4}', result = '(1-0,RESIGNATION)'
WHERE id = (SELECT game_id FROM tournaments_games WHERE round = 2 ORDER BY game_id DESC LIMIT 1);
SELECT round, user_id_in_service, opponent_no, colour, result, points, buchholz, tpr
FROM swiss_tournaments_detailed_standings WHERE tournament_id = 1 AND user_id_in_service IN ('2', '3') AND round >= 2
ORDER BY round, user_id_in_service;
-- removing the last round's games shrinks the standings to three rounds
DELETE FROM tournaments_games WHERE round = 4;
SELECT max(round) AS last_round, count(*) AS rows FROM swiss_tournament_standings;
TRUNCATE kept;
INSERT INTO kept SELECT * FROM swiss_tournament_standings;
SELECT rebuild_tournament_standings(1) AS rows_written;
SELECT count(*) AS differing_rows FROM (
  (SELECT * FROM kept EXCEPT SELECT * FROM swiss_tournament_standings)
  UNION ALL
  (SELECT * FROM swiss_tournament_standings EXCEPT SELECT * FROM kept)) d;

-- the tie-break order is the tournament's: Buchholz first, then direct encounter
UPDATE swiss_tournaments SET tie_breaks = 'bh, de, sb' WHERE tournament_id = 1;
SELECT place, rank, user_id_in_service, points, tie_breaks, buchholz, de, sonneborn_berger
FROM swiss_tournaments_detailed_standings WHERE tournament_id = 1 AND round = 3 ORDER BY place;
-- points only: players still tied share a rank, place follows the pairing number
UPDATE swiss_tournaments SET tie_breaks = '' WHERE tournament_id = 1;
SELECT place, rank, user_id_in_service, points FROM swiss_tournaments_detailed_standings
WHERE tournament_id = 1 AND round = 3 ORDER BY place;
UPDATE swiss_tournaments SET tie_breaks = DEFAULT WHERE tournament_id = 1;

-- a player registered late has absent rounds (zero-point byes)
INSERT INTO users (email, password_hash) VALUES ('late@example.com', 'h');
INSERT INTO tournaments_players (tournament_id, user_id_in_service) VALUES (1, '6');
SELECT round, points, performance_rating FROM swiss_tournaments_players_points
WHERE tournament_id = 1 AND user_id_in_service = '6' ORDER BY round;
DELETE FROM tournaments_players WHERE tournament_id = 1 AND user_id_in_service = '6';
SELECT count(*) AS rows_of_player_6 FROM swiss_tournament_standings WHERE user_id_in_service = '6';

-- the FIDE TRF-16 report
SELECT tournament_trf(1);
SELECT tournament_trf(99);

-- byes of half a point and zero (TRF H and Z): points and codes, kept incrementally as a rebuild
-- computes them; a bye's points corrected; a value other than 1, 0.5 or 0 refused
INSERT INTO byes (tournament_id, round, user_id_in_service, points) VALUES (1, 4, '1', 0.5), (1, 4, '2', 0);
SELECT user_id_in_service, round, opponent_no, colour, result, points_x2
FROM swiss_tournament_standings WHERE tournament_id = 1 AND round = 4 ORDER BY player_no;
SELECT place, user_id_in_service, points, buchholz FROM swiss_tournaments_detailed_standings
WHERE tournament_id = 1 AND round = 4 ORDER BY place;
SELECT substr(line, 1, 8) AS player, substr(line, 92) AS rounds
FROM regexp_split_to_table(tournament_trf(1), E'\n') AS line WHERE line LIKE '001%';
CREATE TEMP TABLE incremental AS SELECT * FROM swiss_tournament_standings WHERE tournament_id = 1;
SELECT rebuild_tournament_standings(1) > 0 AS rebuilt;
SELECT count(*) AS rows_differing_from_the_rebuild
FROM ((TABLE incremental EXCEPT SELECT * FROM swiss_tournament_standings WHERE tournament_id = 1)
      UNION ALL (SELECT * FROM swiss_tournament_standings WHERE tournament_id = 1 EXCEPT TABLE incremental)) d;
UPDATE byes SET points = 1 WHERE tournament_id = 1 AND round = 4 AND user_id_in_service = '1';
SELECT user_id_in_service, result, points_x2 FROM swiss_tournament_standings
WHERE tournament_id = 1 AND round = 4 AND user_id_in_service IN ('1', '2') ORDER BY player_no;
INSERT INTO byes (tournament_id, round, user_id_in_service, points) VALUES (1, 4, '3', 2);
DELETE FROM byes WHERE tournament_id = 1 AND round = 4;
SELECT max(round) AS last_round FROM swiss_tournament_standings WHERE tournament_id = 1;

-- reading one round is an index scan, without a sort
EXPLAIN (COSTS OFF) SELECT * FROM swiss_tournaments_round_standings WHERE tournament_id = 1 AND round = 3;

-- applications cannot write the derived tables
CREATE ROLE regress_tournament_app LOGIN;
GRANT SELECT ON ALL TABLES IN SCHEMA public TO regress_tournament_app;
GRANT INSERT, UPDATE, DELETE ON service_games, tournaments_games, byes, tournaments_players, swiss_tournaments
  TO regress_tournament_app;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO regress_tournament_app;
SET ROLE regress_tournament_app;
INSERT INTO byes VALUES (1, 4, '5');
SELECT place, user_id_in_service, points FROM swiss_tournaments_round_standings
WHERE tournament_id = 1 AND round = 4 ORDER BY place;
UPDATE swiss_tournament_standings SET points_x2 = 100;
DELETE FROM swiss_tournament_entrants;
SELECT rebuild_tournament_standings(1);
RESET ROLE;
SELECT proname, prosecdef, proconfig FROM pg_proc
WHERE proname IN ('check_swiss_tournament', 'check_tournament_player', 'check_tournament_game', 'check_bye',
                  'refresh_standings_of_tournament', 'refresh_standings_of_player', 'refresh_standings_of_game',
                  'refresh_standings_of_bye', 'refresh_standings_of_service_game', 'rebuild_truncated_tournaments',
                  'rebuild_tournament_standings')
ORDER BY proname;

-- TRUNCATE fires no row trigger; a statement trigger recomputes the standings
TRUNCATE byes;
SELECT place, user_id_in_service, points FROM swiss_tournaments_round_standings
WHERE tournament_id = 1 AND round = 3 ORDER BY place;
SELECT max(round) AS last_round FROM swiss_tournament_standings;
TRUNCATE tournaments_games;
SELECT count(*) AS standings_rows, (SELECT last_round FROM swiss_tournament_progress) AS last_round,
       (SELECT count(*) FROM swiss_tournament_entrants) AS entrants
FROM swiss_tournament_standings;
