-- Swiss tournaments: a small tournament round by round, standings with FIDE tie-breaks after each round, TRF-16
-- Five players (so one bye per round) in their own ranking, with a rating history before the tournament.
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Swiss demo blitz', '3 minutes', '10 minutes', 60, 1500, false, 40)
RETURNING id AS ranking \gset
CREATE TEMP TABLE demo_players (name text, account varchar);
WITH u AS (
    INSERT INTO users (email, password_hash)
    SELECT format('swiss-%s@example.com', lower(n)), 'h' FROM unnest(ARRAY['Alice', 'Bruno', 'Chloe', 'Dmitri', 'Eva']) n
    RETURNING id, email)
INSERT INTO demo_players SELECT initcap(split_part(split_part(email, '@', 1), '-', 2)), id::text FROM u;
UPDATE service_accounts a SET display_name = d.name FROM demo_players d
WHERE a.service_id = 1 AND a.user_id_in_service = d.account;

-- a game between two demo players (names), optionally registered in a tournament round
CREATE FUNCTION pg_temp.game(w text, b text, res game_result, at timestamptz, t int DEFAULT NULL,
                             r int DEFAULT NULL, mv varchar(5)[] DEFAULT '{e2e4,e7e5}') RETURNS int
LANGUAGE plpgsql AS $$
DECLARE g int;
BEGIN
    INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
    VALUES (mv, at, res, '(5 minutes, 0)', 1,
            (SELECT account FROM demo_players WHERE name = w), (SELECT account FROM demo_players WHERE name = b), true)
    RETURNING id INTO g;
    IF t IS NOT NULL THEN
        INSERT INTO tournaments_games VALUES (t, g, r);
    END IF;
    RETURN g;
END $$;
-- the standings of a round, with names
CREATE TEMP VIEW demo_standings AS
SELECT d.tournament_id, d.round, d.place, p.name, d.points, d.tpr AS performance_rating, d.buchholz,
       d.sonneborn_berger, d.wins, d.aro, d.result AS this_round
FROM swiss_tournaments_detailed_standings d JOIN demo_players p ON p.account = d.user_id_in_service;

-- history before the tournament
SELECT count(pg_temp.game(w, b, res::game_result, at::timestamptz)) AS games_before
FROM (VALUES ('Alice', 'Eva', '(1-0,CHECKMATE)', '2024-05-01'), ('Alice', 'Dmitri', '(1-0,RESIGNATION)', '2024-05-02'),
             ('Bruno', 'Eva', '(1-0,TIMEOUT)', '2024-05-03'), ('Chloe', 'Dmitri', '(1/2-1/2,STALEMATE)', '2024-05-04'),
             ('Bruno', 'Chloe', '(1-0,CHECKMATE)', '2024-05-05')) g(w, b, res, at);
SELECT p.name, round(r.rating) AS rating FROM ranking_players r JOIN demo_players p ON p.account = r.user_id_in_service
WHERE r.ranking_id = :ranking ORDER BY r.rating DESC;

-- The tournament: 3 rounds of 5-minute blitz; tie-breaks after points: TPR (the default), then Buchholz Cut-1
-- and Sonneborn-Berger. Requirements: a rating of at least 1400 and one rated game in the ranking.
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control, tie_breaks)
VALUES (3, :ranking, '(5 minutes, 0)', 'tpr, bh-c1, sb') RETURNING tournament_id AS t, tie_breaks \gset
INSERT INTO tournaments_ranking_reqs (tournament_id, ranking_type, required_value) VALUES (:t, :ranking, 1400);
INSERT INTO tournaments_ranked_games_reqs (tournament_id, ranking_type, game_count) VALUES (:t, :ranking, 1);
SELECT * FROM tournaments_reqs WHERE tournament_id = :t;
INSERT INTO tournaments_players (tournament_id, user_id_in_service) SELECT :t, account FROM demo_players ORDER BY name;

-- Rules are enforced: a game with another clock is refused.
DO $$
BEGIN
    INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
    SELECT '{}', '2024-06-01', '(1-0,TIMEOUT)', '(3 minutes, 2 seconds)', 1, min(account), max(account), true
    FROM demo_players;
    INSERT INTO tournaments_games SELECT max(tournament_id), currval('service_games_id_seq'), 1 FROM swiss_tournaments;
EXCEPTION WHEN check_violation THEN
    RAISE NOTICE 'rejected: % (SQLSTATE %)', SQLERRM, SQLSTATE;
END $$;

-- Round 1: Alice-Dmitri 1-0, Chloe-Bruno draw, Eva has the bye.
SELECT pg_temp.game('Alice', 'Dmitri', '(1-0,CHECKMATE)', '2024-06-01 18:00+00', :t, 1) > 0 AS recorded;
SELECT pg_temp.game('Chloe', 'Bruno', '(1/2-1/2,THREEFOLD_REPETITION)', '2024-06-01 18:02+00', :t, 1) > 0 AS recorded;
INSERT INTO byes SELECT :t, 1, account FROM demo_players WHERE name = 'Eva';
SELECT place, name, points, performance_rating, buchholz, this_round FROM demo_standings
WHERE tournament_id = :t AND round = 1 ORDER BY place;

-- Round 2: Eva-Alice 0-1, Bruno-Dmitri: Dmitri never came (a decisive ABANDONMENT without a move is a forfeit),
-- Chloe has the bye.
SELECT pg_temp.game('Eva', 'Alice', '(0-1,RESIGNATION)', '2024-06-02 18:00+00', :t, 2) > 0 AS recorded;
SELECT pg_temp.game('Bruno', 'Dmitri', '(1-0,ABANDONMENT)', '2024-06-02 18:01+00', :t, 2, '{}') > 0 AS recorded;
INSERT INTO byes SELECT :t, 2, account FROM demo_players WHERE name = 'Chloe';
SELECT place, name, points, performance_rating, buchholz, this_round FROM demo_standings
WHERE tournament_id = :t AND round = 2 ORDER BY place;

-- Round 3: Alice-Bruno draw, Dmitri-Chloe 0-1; Eva has withdrawn (absent: a zero-point round).
SELECT pg_temp.game('Alice', 'Bruno', '(1/2-1/2,STALEMATE)', '2024-06-03 18:00+00', :t, 3) > 0 AS recorded;
SELECT pg_temp.game('Dmitri', 'Chloe', '(0-1,CHECKMATE)', '2024-06-03 18:01+00', :t, 3) > 0 AS recorded;
SELECT place, name, points, performance_rating, buchholz, sonneborn_berger, wins, aro, this_round FROM demo_standings
WHERE tournament_id = :t AND round = 3 ORDER BY place;

-- The views of the Random Chess schema read the same rows.
SELECT s.place, p.name, s.points, s.performance_rating FROM swiss_tournaments_round_standings s
JOIN demo_players p ON p.account = s.user_id_in_service WHERE s.tournament_id = :t AND s.round = 3 ORDER BY s.place;

-- Performance ratings use the ratings as of the tournament's start: the tournament's own games moved the ranking,
-- not the standings.
SELECT p.name, e.start_rating, round(r.rating) AS rating_now FROM swiss_tournament_entrants e
JOIN demo_players p ON p.account = e.user_id_in_service
JOIN ranking_players r ON r.ranking_id = :ranking AND r.user_id_in_service = e.user_id_in_service
WHERE e.tournament_id = :t ORDER BY e.player_no;

-- A correction: the round-3 draw Alice-Bruno was in fact won by Bruno. Delete the tournament game, record the right
-- one: the standings are repaired.
DELETE FROM tournaments_games tg USING service_games g
WHERE tg.tournament_id = :t AND tg.round = 3 AND g.id = tg.game_id AND (g.result).game_end_type = '1/2-1/2';
SELECT pg_temp.game('Alice', 'Bruno', '(0-1,RESIGNATION)', '2024-06-03 18:30+00', :t, 3) > 0 AS recorded;
SELECT place, name, points, performance_rating, buchholz FROM demo_standings
WHERE tournament_id = :t AND round = 3 ORDER BY place;

-- The FIDE TRF-16 report, for FIDE-endorsed checking and pairing programs.
SELECT tournament_trf(:t) AS trf \g (format=unaligned tuples_only)

-- Pairing by the FIDE Dutch system (tournament_pair_round): a second tournament of the same five, each round
-- paired in the database and recorded as paired (White wins on board 1, the other boards are drawn). Players are
-- numbered by their rating as of the start, the top seed has White in round 1, the lowest-ranked player without a
-- bye gets the bye; nothing is written until the app records the games.
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (3, :ranking, '(5 minutes, 0)')
RETURNING tournament_id AS t2 \gset
INSERT INTO tournaments_players (tournament_id, user_id_in_service) SELECT :t2, account FROM demo_players;
CREATE FUNCTION pg_temp.play_paired(t int, r int) RETURNS TABLE (board int, white text, black text)
LANGUAGE plpgsql AS $$
DECLARE p record;
BEGIN
    FOR p IN SELECT * FROM tournament_pair_round(t) LOOP
        board := p.board;
        white := (SELECT name FROM demo_players WHERE account = p.white);
        black := (SELECT name FROM demo_players WHERE account = p.black);
        IF p.black IS NULL THEN
            INSERT INTO byes VALUES (t, r, p.white);
        ELSE
            PERFORM pg_temp.game(white, black, CASE WHEN p.board = 1 THEN '(1-0,CHECKMATE)' ELSE '(1/2-1/2,STALEMATE)' END::game_result,
                                 timestamptz '2024-07-01 18:00+00' + r * interval '1 day' + p.board * interval '1 minute',
                                 t, r);
        END IF;
        RETURN NEXT;
    END LOOP;
END $$;
-- Players who must not meet (team-mates, relatives) are forbidden pairs, an absolute criterion like a rematch:
-- round 1 as it would be paired if the two players of its board 1 were team-mates (not played).
SELECT p.board, w.name AS white, b.name AS black
FROM tournament_pair_round(:t2, forbidden_pairs => (SELECT ARRAY[white, black] FROM tournament_pair_round(:t2)
                                                    WHERE board = 1)) p
JOIN demo_players w ON w.account = p.white LEFT JOIN demo_players b ON b.account = p.black
ORDER BY p.board;
SELECT * FROM pg_temp.play_paired(:t2, 1);
SELECT * FROM pg_temp.play_paired(:t2, 2);
SELECT * FROM pg_temp.play_paired(:t2, 3);
SELECT place, name, points, buchholz FROM demo_standings WHERE tournament_id = :t2 AND round = 3 ORDER BY place;
