-- Seed 004, Skèmino: a rating with a K that falls as ratings rise (K = 160 e^(−mean/721.35)),
-- ten levels, peaks, recent form and the accuracy of the predictions. The document's example 1:
-- 1613 beats 1609 and they end near 1621 and 1601.
--
-- The document's schema ("Database Schema Rating") has four tables: player_ratings and rating_history are
-- what the ledger keeps (ledger_standings_now, ledger_history), game_notation is the PSN record, and
-- game_results is the games table the ledger is attached to, as the document writes it. The document gives
-- game_results no date: the game's date is its PSN header's [Date "AAAA.MM.GG"], kept here as psn_date (the
-- one column the ledger needs that the document's table lacks). Results are the PSN codes, "*" a game under
-- way. white_rating_change and black_rating_change stay as the document has them; the ledger's history holds
-- every change (ledger_history.change).

CREATE TABLE game_results (
    game_id             serial PRIMARY KEY,
    psn_date            date NOT NULL,                  -- the PSN header's [Date]
    white_player        text NOT NULL,
    black_player        text NOT NULL,
    result              text NOT NULL CHECK (result IN ('1-0', '0-1', '1/2-1/2', '*')),
    white_rating_change float8,
    black_rating_change float8
);
CREATE TABLE game_notation (
    game_id        int PRIMARY KEY REFERENCES game_results ON DELETE CASCADE,
    psn_header     text,
    psn_moves      text,
    final_position text
);

-- The document gives no starting rating: 1000, its lowest level (Principiante); "?" (provisional) for the
-- first 10 games.
INSERT INTO ledgers (name, rating_system, starting_rating, provisional_games)
VALUES ('skemino', 'skemino', 1000, 10);
SELECT ledger_attach('skemino', 'game_results', key_column => 'game_id', date_column => 'psn_date',
                     white_column => 'white_player', black_column => 'black_player', result_column => 'result',
                     result_map => '{"1-0": 1, "0-1": 0, "1/2-1/2": 0.5, "*": "unrated"}');
-- ==== end of the system's schema and ledger (tests/integration/examples_replay.py runs the file up to here) ====

-- example 1's players come with their ratings
SELECT ledger_seed('skemino', ARRAY['alba', 'bruno'], ARRAY[1613, 1609]::float8[]) AS seeded;

INSERT INTO game_results (psn_date, white_player, black_player, result) VALUES ('2025-04-01', 'alba', 'bruno', '1-0');
DO $$
BEGIN
    -- example 1: K = 17, EA = 0.508, 1613 + 8.36 = 1621 and 1609 − 8.36 = 1601
    ASSERT (SELECT round(rating) FROM ledger_history WHERE ledger = 'skemino' AND player = 'alba') = 1621, 'alba 1621';
    ASSERT (SELECT round(rating) FROM ledger_history WHERE ledger = 'skemino' AND player = 'bruno') = 1601, 'bruno 1601';
    ASSERT (SELECT round(expected::numeric, 3) FROM ledger_history WHERE ledger = 'skemino' AND player = 'alba')
           = 0.508, 'EA = 0.508';
    -- zero-sum: the two changes cancel
    ASSERT (SELECT abs(sum(change)) < 1e-9 FROM ledger_history WHERE ledger = 'skemino'), 'zero-sum';
END $$;

-- a game under way ("*") is not rated until its result comes
INSERT INTO game_results (psn_date, white_player, black_player, result) VALUES ('2025-04-01', 'carla', 'dario', '*');
DO $$
BEGIN
    ASSERT NOT EXISTS (SELECT FROM ledger_history WHERE ledger = 'skemino' AND player = 'carla'), 'under way';
END $$;
UPDATE game_results SET result = '1/2-1/2' WHERE result = '*';

INSERT INTO game_results (psn_date, white_player, black_player, result)
SELECT date '2025-04-02' + i / 6,
       (ARRAY['alba', 'bruno', 'carla', 'dario'])[1 + i % 4], (ARRAY['alba', 'bruno', 'carla', 'dario'])[1 + (i + 1 + i % 3) % 4],
       (ARRAY['1-0', '0-1', '1/2-1/2', '1-0'])[1 + (i * 7) % 4]
FROM generate_series(1, 60) i
WHERE 1 + i % 4 <> 1 + (i + 1 + i % 3) % 4;

-- levels, peaks, recent form (the last five results) and prediction accuracy
CREATE VIEW standing AS
SELECT s.player, s.rating, skemino_level(s.rating) AS level, s.peak, s.games, s.streak,
       (SELECT string_agg(CASE h.score WHEN 1 THEN 'W' WHEN 0 THEN 'L' ELSE 'D' END, '' ORDER BY h.game_date)
        FROM (SELECT * FROM ledger_history h WHERE h.ledger = 'skemino' AND h.player = s.player
              ORDER BY h.game_date DESC, h.sort_key DESC LIMIT 5) h) AS form
FROM ledger_standings_now s WHERE s.ledger = 'skemino';
DO $$
BEGIN
    ASSERT (SELECT bool_and(peak >= rating) FROM standing), 'peaks';
    ASSERT (SELECT bool_and(length(form) = 5) FROM standing), 'form';
    ASSERT (SELECT bool_and(level IS NOT NULL) FROM standing), 'levels';
    ASSERT (SELECT accuracy BETWEEN 0 AND 1 AND brier < 0.5 FROM ledger_prediction_quality('skemino')), 'quality';
END $$;

SELECT player, round(rating::numeric, 1) AS rating, level, round(peak::numeric, 1) AS peak, games, form FROM standing
ORDER BY rating DESC;
SELECT entries, round(accuracy::numeric, 3) AS accuracy, round(brier::numeric, 3) AS brier,
       round(upset_rate::numeric, 3) AS upset_rate
FROM ledger_prediction_quality('skemino');
