-- Notifies the channel of each (ledger $1, scope $2, player $3) whose ledger has one: a JSON payload
-- per player with its standing (a player left without games: games 0 and no rating), in the order
-- given. `@ledgers@`: the copy a writer reads (crate::compat::for_writers). Read by
-- src/ledger/tables.rs (notify).
SELECT pg_catalog.count(pg_catalog.pg_notify(x.channel, x.payload)) AS sent
FROM (SELECT l.notify_channel AS channel,
             pg_catalog.json_build_object('ledger', l.name, 'scope', c.scope, 'player', c.player,
                 'rating', s.rating, 'rd', s.rd, 'games', coalesce(s.games, 0),
                 'last_played', s.last_game_date)::text AS payload
      FROM unnest($1::int[], $2::text[], $3::text[]) WITH ORDINALITY c(ledger_id, scope, player, n)
      JOIN @ledgers@ l ON l.id = c.ledger_id
      LEFT JOIN @extschema@.ledger_standings s
             ON s.ledger_id = c.ledger_id AND s.scope = c.scope AND s.player = c.player
      WHERE l.notify_channel IS NOT NULL
      ORDER BY c.n) x
