-- Each player's ($3) latest entry in ledger $1, scope $2 before the game at ($4 date, $5 key): the
-- standing a replay from that game starts from. Read by src/ledger/tables.rs (standings_before).
SELECT e.* FROM unnest($3::text[]) AS u(player)
CROSS JOIN LATERAL (
    SELECT * FROM @extschema@.ledger_entries x
    WHERE x.ledger_id = $1 AND x.scope = $2 AND x.player = u.player
      AND (x.game_date, x.game_key) < ($4, $5)
    ORDER BY x.player DESC, x.game_date DESC, x.game_key DESC LIMIT 1) e
