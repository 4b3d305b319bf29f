-- A Blitz ranking with forty games and two Swiss tournaments (tie-break orders, a games
-- requirement, byes, rounds played); shared by the tournament dump-and-restore and upgrade tests.
INSERT INTO users (email, password_hash) SELECT format('u%s@example.com', i), 'h' FROM generate_series(1, 8) i;
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Blitz', '3 minutes', '10 minutes', 60, 1500, false, 40);
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
SELECT '{}', timestamptz '2024-01-01' + i * interval '1 hour',
       (ARRAY['(1-0,CHECKMATE)', '(0-1,TIMEOUT)', '(1/2-1/2,STALEMATE)'])[1 + i % 3]::game_result,
       '(5 minutes, 0)', 1, (1 + i % 7)::text, (1 + (i + 1 + i % 5) % 7)::text, true
FROM generate_series(1, 40) i WHERE (1 + i % 7) <> (1 + (i + 1 + i % 5) % 7);
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control, tie_breaks)
VALUES (4, 1, '(5 minutes, 0)', 'DE, BH-C1, SB'), (3, 1, '(5 minutes, 0)', DEFAULT);
INSERT INTO tournaments_ranked_games_reqs (tournament_id, ranking_type, game_count) VALUES (2, 1, 1);
INSERT INTO tournaments_players (tournament_id, user_id_in_service)
SELECT 1, i::text FROM generate_series(1, 7) i UNION ALL SELECT 2, i::text FROM generate_series(1, 4) i;
-- tournament 1, rounds 1 and 2: three games and a bye each
CREATE TEMP TABLE plan (t int, r int, w text, b text, res text, mv text);
INSERT INTO plan VALUES (1, 1, '1', '2', '(1-0,CHECKMATE)', '{e2e4}'), (1, 1, '3', '4', '(1/2-1/2,STALEMATE)', '{e2e4}'),
                        (1, 1, '5', '6', '(1-0,ABANDONMENT)', '{}'), (1, 2, '2', '7', '(0-1,RESIGNATION)', '{e2e4}'),
                        (1, 2, '1', '3', '(1/2-1/2,STALEMATE)', '{e2e4}'), (1, 2, '4', '5', '(1-0,TIMEOUT)', '{e2e4}'),
                        (2, 1, '1', '2', '(0-1,CHECKMATE)', '{e2e4}'), (2, 1, '3', '4', '(1-0,CHECKMATE)', '{e2e4}');
CREATE TEMP TABLE played AS
WITH g AS (
    INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
    SELECT mv::varchar(5)[], timestamptz '2024-03-01' + (t * 10 + r) * interval '1 day', res::game_result,
           '(5 minutes, 0)', 1, w, b, true FROM plan ORDER BY t, r, w
    RETURNING id, white_player, creation_date)
SELECT g.id, p.t, p.r FROM g JOIN plan p ON p.w = g.white_player
 AND g.creation_date = timestamptz '2024-03-01' + (p.t * 10 + p.r) * interval '1 day';
INSERT INTO tournaments_games SELECT t, id, r FROM played ORDER BY t, r, id;
INSERT INTO byes VALUES (1, 1, '7'), (1, 2, '6');
