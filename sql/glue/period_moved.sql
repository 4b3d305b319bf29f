-- For each (ledger $1, scope $2, player $3): the sum of the absolute changes of the player's entries
-- from $4 (the start of the period) up to the game at ($5 date, $6 key), in game order, as the replay
-- summed them. Read by src/ledger/tables.rs (period_moved).
SELECT u.ledger_id, u.scope, u.player, m.moved
FROM unnest($1::int4[], $2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[], $6::text[])
    AS u(ledger_id, scope, player, since, game_date, game_key)
CROSS JOIN LATERAL (
    SELECT pg_catalog.sum(pg_catalog.abs(x.rating - x.rating_before)
                          ORDER BY x.game_date, x.game_key) AS moved
    FROM @extschema@.ledger_entries x
    WHERE x.ledger_id = u.ledger_id AND x.scope = u.scope AND x.player = u.player
      AND x.game_date >= u.since
      AND (x.game_date, x.game_key) <= (u.game_date, u.game_key)) m
