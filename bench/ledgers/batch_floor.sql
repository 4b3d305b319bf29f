-- The floor of one INSERT of many games with an Elo ledger (issue 33: "one INSERT of 100,000 games with
-- an Elo ledger at >= 0.6x the same INSERT without it"): the rows the ledger must keep for them (an
-- entry per player per game, each player's standing), written by plain SQL in the games' own
-- statement, with no trigger and no rating computed. Tables of the same shape and keys as pg_rating's
-- own (run with the extension created and bench/ledgers/setup.sql loaded).
CREATE TABLE batch_floor_matches (LIKE matches INCLUDING ALL);
CREATE TABLE batch_floor_entries (LIKE ledger_entries INCLUDING INDEXES);
CREATE TABLE batch_floor_standings (LIKE ledger_standings INCLUDING INDEXES) WITH (fillfactor = 50);

-- Games 1..n as the section's INSERT makes them, with their entries and standings.
CREATE PROCEDURE batch_floor_insert(n bigint)
LANGUAGE sql AS $$
WITH games AS (
    INSERT INTO batch_floor_matches (id, played_at, white, black, score)
    SELECT i, m.at, m.white, m.black, m.score FROM generate_series(1, n) i, bench_match(i) m
    RETURNING id, played_at, white, black, score
), entries AS (
    INSERT INTO batch_floor_entries (ledger_id, scope, player, game_date, game_key, game, opponent, score,
                                     expected, rating_before, rating, rd_before, rd, volatility_before,
                                     volatility, games, wins, draws, losses, peak, streak, best_streak,
                                     opponents_sum, score_sum)
    SELECT 1, '', v.p::text, g.played_at, lpad(g.id::text, 20, '0'), g.id::text, v.o::text, v.s, 0.5, 1500,
           1500 + 10 * v.s, NULL, NULL, NULL, NULL, g.id, 0, 0, 0, 1500, 0, 0, 1500 * g.id, v.s * g.id
    FROM games g, LATERAL (VALUES (g.white, g.black, g.score), (g.black, g.white, 1 - g.score)) v(p, o, s)
)
INSERT INTO batch_floor_standings (ledger_id, scope, player, rating, rd, volatility, games, wins, draws, losses,
                                   peak, streak, best_streak, opponents_sum, score_sum, last_game_date,
                                   last_game_key)
SELECT 1, '', p::text, 1500, NULL, NULL, count(*), 0, 0, 0, 1500, 0, 0, 1500, 0, max(at), max(k)
FROM (SELECT g.white AS p, g.played_at AS at, lpad(g.id::text, 20, '0') AS k FROM games g
      UNION ALL
      SELECT g.black, g.played_at, lpad(g.id::text, 20, '0') FROM games g) x
GROUP BY p
$$;
