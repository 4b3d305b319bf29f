-- The floor of a game's cost with two ledgers: the rows the ledgers must write for it (issue #11,
-- item 4: an entry per player per ledger, and each player's standing), written by plain SQL
-- beside the game's own INSERT, with no trigger and no rating computed. Tables of the same shape
-- and keys as pg_rating's own (run with the extension created).
CREATE TABLE floor_entries (LIKE ledger_entries INCLUDING INDEXES);
CREATE TABLE floor_standings (LIKE ledger_standings INCLUDING INDEXES) WITH (fillfactor = 50);

-- Games first..last as bench_insert inserts them, committing every 100, but each game's INSERT
-- also writing its four entries (two players, two ledgers) and upserting its four standings:
-- one statement per game, as in the baseline, so that the two differ by the rows alone.
CREATE PROCEDURE floor_insert(first bigint, last bigint)
LANGUAGE plpgsql AS $$
DECLARE m record;
BEGIN
    FOR n IN first..last LOOP
        m := bench_match(n);
        WITH game AS (
            INSERT INTO matches (id, played_at, white, black, score) VALUES (n, m.at, m.white, m.black, m.score)
        ), entries AS (
            INSERT INTO floor_entries (ledger_id, scope, player, game_date, game_key, game, opponent, score,
                                       expected, rating_before, rating, rd_before, rd, volatility_before,
                                       volatility, games, wins, draws, losses, peak, streak, best_streak,
                                       opponents_sum, score_sum)
            SELECT l, '', p::text, m.at, lpad(n::text, 20, '0'), n::text, o::text, s, 0.5, 1500, 1500 + 10 * s,
                   CASE WHEN l = 2 THEN 350 END, CASE WHEN l = 2 THEN 340 END,
                   CASE WHEN l = 2 THEN 0.06 END, CASE WHEN l = 2 THEN 0.06 END,
                   n, 0, 0, 0, 1500, 0, 0, 1500 * n, s * n
            FROM (VALUES (1, m.white, m.black, m.score), (1, m.black, m.white, 1 - m.score),
                         (2, m.white, m.black, m.score), (2, m.black, m.white, 1 - m.score)) v(l, p, o, s)
        )
        INSERT INTO floor_standings AS f (ledger_id, scope, player, rating, rd, volatility, games, wins,
                                          draws, losses, peak, streak, best_streak, opponents_sum,
                                          score_sum, last_game_date, last_game_key)
        SELECT l, '', p::text, 1500 + 10 * s, CASE WHEN l = 2 THEN 340 END, CASE WHEN l = 2 THEN 0.06 END,
               1, 0, 0, 0, 1500, 0, 0, 1500, s, m.at, lpad(n::text, 20, '0')
        FROM (VALUES (1, m.white, m.score), (1, m.black, 1 - m.score),
                     (2, m.white, m.score), (2, m.black, 1 - m.score)) v(l, p, s)
        ON CONFLICT (ledger_id, scope, player) DO UPDATE SET
            rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility,
            games = f.games + 1, wins = f.wins, draws = f.draws, losses = f.losses,
            peak = greatest(f.peak, excluded.rating), streak = f.streak, best_streak = f.best_streak,
            opponents_sum = f.opponents_sum + 1500, score_sum = f.score_sum + excluded.score_sum,
            last_game_date = excluded.last_game_date, last_game_key = excluded.last_game_key;
        IF n % 100 = 0 THEN
            COMMIT;
        END IF;
    END LOOP;
END $$;
