-- The bots among the players $1 of service 1 (one index probe per player), read by
-- src/ranking/store.rs (RankingStore::with_bot_flags) for the games of a statement.
SELECT k.player
FROM unnest($1::text[]) AS k(player)
CROSS JOIN LATERAL (
    SELECT is_bot FROM @extschema@.service_accounts a
    WHERE a.service_id = 1 AND a.user_id_in_service = k.player LIMIT 1) a
WHERE a.is_bot
