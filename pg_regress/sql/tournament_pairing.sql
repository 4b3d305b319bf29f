-- Pairing by the FIDE Dutch system (C.04.3, 2025 rules) without writing: tournament_pair_round on
-- the Random Chess tables (pairing numbers in FIDE's initial order: rating as of the start, then
-- display name, then user id), round after round; its errors.
INSERT INTO users (email, password_hash)
SELECT format('player%s@example.com', i), 'h' FROM generate_series(1, 7) i;
-- Elo with K = 200 from 1600: a win between equals moves both by exactly 100
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Blitz', '3 minutes', '10 minutes', 60, 1600, false, 200);
-- before the tournament: 7 and 6 on 1700, 1 and 2 on 1500, 3, 4 and 5 unplayed (1600)
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{}', '2024-01-01', '(1-0,RESIGNATION)', '(5 minutes, 0)', 1, '7', '1', true),
       ('{}', '2024-01-02', '(1-0,RESIGNATION)', '(5 minutes, 0)', 1, '6', '2', true);

CREATE FUNCTION pg_temp.play(t int, r int, w varchar, b varchar, res game_result, at timestamptz) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE g int;
BEGIN
  INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
  SELECT '{e2e4}', at, res, s.time_control, 1, w, b, s.is_ranked FROM swiss_tournaments s WHERE s.tournament_id = t
  RETURNING id INTO g;
  INSERT INTO tournaments_games VALUES (t, g, r);
  RETURN g;
END $$;
-- plays a round as paired: White wins every board
CREATE FUNCTION pg_temp.play_round(t int, r int, at timestamptz) RETURNS int
LANGUAGE plpgsql AS $$
DECLARE p record; n int := 0;
BEGIN
  FOR p IN SELECT * FROM tournament_pair_round(t) LOOP
    IF p.black IS NULL THEN
      INSERT INTO byes VALUES (t, r, p.white);
    ELSE
      PERFORM pg_temp.play(t, r, p.white, p.black, '(1-0,CHECKMATE)', at + n * interval '1 minute');
    END IF;
    n := n + 1;
  END LOOP;
  RETURN n;
END $$;

INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (3, 1, '(5 minutes, 0)');
-- registered in an order unrelated to strength
INSERT INTO tournaments_players (tournament_id, user_id_in_service)
SELECT 1, i::text FROM unnest(ARRAY[1, 2, 3, 4, 5, 6, 7]) i;
-- round 1, seven players: initial order 6, 7 (1700, by display name), 3, 4, 5 (1600), 1, 2 (1500);
-- the top half (6, 7, 3) meets the bottom half (4, 5, 1) with alternating colours, the top seed
-- White; the lowest (2) gets the bye
SELECT * FROM tournament_pair_round(1);
SELECT * FROM tournament_pair_round(1, 1);
SELECT pg_temp.play_round(1, 1, '2024-02-01 10:00+00');
-- round 2: no rematch, no one gets a second bye, colours alternate where they can
SELECT * FROM tournament_pair_round(1);
SELECT pg_temp.play_round(1, 2, '2024-02-02 10:00+00');
SELECT * FROM tournament_pair_round(1);
-- every pairing so far met the absolute criteria: no two players met twice, no second bye
SELECT count(*) AS rematches FROM (
  SELECT least(g.white_player, g.black_player), greatest(g.white_player, g.black_player)
  FROM tournaments_games tg JOIN service_games g ON g.id = tg.game_id WHERE tg.tournament_id = 1
  GROUP BY 1, 2 HAVING count(*) > 1) x;
SELECT count(*) AS second_byes FROM (
  SELECT user_id_in_service FROM byes WHERE tournament_id = 1 GROUP BY 1 HAVING count(*) > 1) x;
SELECT pg_temp.play_round(1, 3, '2024-02-03 10:00+00');

-- accelerated rounds (Baku, FIDE C.04.5.1), eight players over four rounds: the first 2 * ceil(8 / 4) = 4 (group A)
-- get a virtual point in round 1, so A's top half meets A's bottom half and B's likewise (without acceleration
-- the top half of all eight meets the bottom half)
INSERT INTO users (email, password_hash) VALUES ('player8@example.com', 'h');
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (4, 1, '(5 minutes, 0)');
INSERT INTO tournaments_players (tournament_id, user_id_in_service) SELECT 2, i::text FROM generate_series(1, 8) i;
SELECT * FROM tournament_pair_round(2, baku_acceleration => true);
SELECT * FROM tournament_pair_round(2);
-- forbidden pairs (user ids two by two) never meet: 2 and 1 meet on board 1 above; forbidden, the
-- pairing changes; NULL forbids nothing
SELECT * FROM tournament_pair_round(2, forbidden_pairs => ARRAY[['2', '1']]);
SELECT * FROM tournament_pair_round(2, forbidden_pairs => NULL);
-- a NULL tournament pairs nothing
SELECT count(*) FROM tournament_pair_round(NULL);

-- errors
SELECT * FROM tournament_pair_round(1);
SELECT * FROM tournament_pair_round(99);
SELECT * FROM tournament_pair_round(1, 2);
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (3, 1, '(5 minutes, 0)');
INSERT INTO tournaments_players (tournament_id, user_id_in_service) VALUES (3, '1'), (3, '2');
SELECT * FROM tournament_pair_round(3, 2);
-- two players who met in round 1 cannot be paired again: no valid pairing
SELECT pg_temp.play(3, 1, '1', '2', '(1/2-1/2,STALEMATE)', '2024-03-01 10:00+00') > 0 AS played;
SELECT * FROM tournament_pair_round(3);
-- a tournament without players has nothing to pair
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (1, 1, '(5 minutes, 0)');
SELECT * FROM tournament_pair_round(4);
-- the errors' SQLSTATEs
\set VERBOSITY sqlstate
SELECT * FROM tournament_pair_round(1);
SELECT * FROM tournament_pair_round(99);
SELECT * FROM tournament_pair_round(1, 2);
SELECT * FROM tournament_pair_round(3, 3);
SELECT * FROM tournament_pair_round(3);
SELECT * FROM tournament_pair_round(1, baku_acceleration => NULL);
SELECT * FROM tournament_pair_round(2, forbidden_pairs => ARRAY['1', '99']);
SELECT * FROM tournament_pair_round(2, forbidden_pairs => ARRAY['1']);
SELECT * FROM tournament_pair_round(2, forbidden_pairs => ARRAY['1', NULL]);
\set VERBOSITY default
SELECT * FROM tournament_pair_round(2, forbidden_pairs => ARRAY['1', '99']);
SELECT * FROM tournament_pair_round(2, forbidden_pairs => ARRAY['3', '3']);
-- system => 'burstein' (issue 34, item 4): the Burstein system; round 1 of tournament 2 accelerates
-- the upper half (one virtual point), each half paired top against bottom. Another name 22023
-- (NULL 22004).
SELECT * FROM tournament_pair_round(2, system => 'burstein');
SELECT * FROM tournament_pair_round(2, system => 'dutch');
SELECT * FROM tournament_pair_round(2, system => 'swiss');
\set VERBOSITY sqlstate
SELECT * FROM tournament_pair_round(2, system => 'swiss');
SELECT * FROM tournament_pair_round(2, system => NULL);
\set VERBOSITY default
