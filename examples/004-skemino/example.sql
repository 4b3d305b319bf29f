-- Seed 004, Skèmino: a rating with a K that falls as ratings rise (K = 160 e^(−mean/721.35)),
-- ten levels, peaks, recent form and the accuracy of the predictions. The document's example 1:
-- 1613 beats 1609 and they end near 1621 and 1601.

CREATE TABLE players (nick text PRIMARY KEY, rating_import int);
CREATE TABLE partite (
    id        serial PRIMARY KEY,
    giocata   timestamptz NOT NULL,
    bianco    text NOT NULL REFERENCES players,
    nero      text NOT NULL REFERENCES players,
    esito     text NOT NULL CHECK (esito IN ('1-0', '0-1', '½-½'))
);
INSERT INTO players VALUES ('alba', 1613), ('bruno', 1609), ('carla', NULL), ('dario', NULL);
INSERT INTO ledgers (name, rating_system, starting_rating, provisional_games)
VALUES ('skemino', 'skemino', 1000, 10);
INSERT INTO ledger_seeds (ledger_id, player, rating)
SELECT l.id, p.nick, p.rating_import FROM players p, ledgers l WHERE l.name = 'skemino' AND p.rating_import IS NOT NULL;
SELECT ledger_attach('skemino', 'partite', 'id', 'giocata', 'bianco', 'nero', 'esito',
                     '{"1-0": 1, "0-1": 0, "½-½": 0.5}');

INSERT INTO partite (giocata, bianco, nero, esito) VALUES ('2025-04-01 21:00', 'alba', 'bruno', '1-0');
DO $$
BEGIN
    -- example 1
    ASSERT (SELECT round(rating) FROM ledger_history WHERE ledger = 'skemino' AND player = 'alba') = 1621, 'alba 1621';
    ASSERT (SELECT round(rating) FROM ledger_history WHERE ledger = 'skemino' AND player = 'bruno') = 1601, 'bruno 1601';
END $$;

INSERT INTO partite (giocata, bianco, nero, esito)
SELECT timestamptz '2025-04-02' + i * interval '1 hour',
       (ARRAY['alba', 'bruno', 'carla', 'dario'])[1 + i % 4], (ARRAY['alba', 'bruno', 'carla', 'dario'])[1 + (i + 1 + i % 3) % 4],
       (ARRAY['1-0', '0-1', '½-½', '1-0'])[1 + (i * 7) % 4]
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
