-- The expected and actual scores of the entries of ledger $1 (scope $2; NULL: every scope), each with
-- the start of its period of length $3 (binned from a Monday, 2000-01-03, so that weeks start on
-- Mondays as date_trunc('week', ...) does) and its rating band of width $4 (each NULL when not
-- asked for). Read by src/ledger/analytics.rs (ledger_prediction_quality).
SELECT CASE WHEN $3::interval IS NULL THEN NULL
            ELSE date_bin($3, e.game_date, timestamptz '2000-01-03') END AS period_start,
       CASE WHEN $4::float8 IS NULL THEN NULL
            ELSE floor(e.rating_before / $4) * $4 END AS band_low,
       e.expected, e.score
FROM @extschema@.ledger_entries e
WHERE e.ledger_id = $1 AND ($2::text IS NULL OR e.scope = $2)
-- one order, so that the sums are the same to the last bit wherever they run
ORDER BY e.scope, e.player, e.game_date, e.game_key
