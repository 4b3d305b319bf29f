-- One round (:r): Swiss-like pairings by the standings after the previous round (points, then a
-- random order), the 150 service games recorded first, then the 150 tournament results one
-- statement each (the timed part: the standings trigger).
CREATE TEMP TABLE order_r AS
SELECT p.user_id_in_service AS player,
       row_number() OVER (ORDER BY coalesce(s.points, 0) DESC, random()) AS n
FROM tournaments_players p
LEFT JOIN swiss_tournaments_players_points s
  ON s.tournament_id = 1 AND s.round = :r - 1 AND s.user_id_in_service = p.user_id_in_service
WHERE p.tournament_id = 1;
CREATE TEMP TABLE games_r AS
WITH g AS (
    INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
    SELECT '{e2e4}', timestamptz '2024-06-01' + (:r || ' days')::interval + a.n * interval '1 second',
           (ARRAY['(1-0,CHECKMATE)', '(0-1,RESIGNATION)', '(1/2-1/2,STALEMATE)'])[1 + floor(random() * 3)::int]::game_result,
           '(5 minutes, 0)', 1, a.player, b.player, true
    FROM order_r a JOIN order_r b ON b.n = a.n + 1 WHERE a.n % 2 = 1
    RETURNING id)
SELECT id FROM g;
-- the first timing printed after the marker is the query that generates the INSERTs
\echo BENCH record_round :r
\timing on
SELECT format('INSERT INTO tournaments_games VALUES (1, %s, %s)', id, :r) FROM games_r ORDER BY id \gexec
\timing off
\echo BENCH end
DROP TABLE order_r, games_r;
