-- The entries of ranking $1 from the game at ($2 creation_date, $3 id) on, read by
-- src/ranking/history.rs (RankingStore::entries_from) for a replay, which keeps their ids and
-- rewrites only those that differ. Planned per call: a tail of a few games and a whole ranking
-- want different plans.
SELECT id, user_id_in_service::text AS player, game_id, elo::float8 AS elo, rd::float8 AS rd,
       volatility::float8 AS volatility, previous_entry, game_date
FROM @extschema@.elo_history
WHERE ranking_id = $1 AND (game_date, game_id) >= ($2, $3)
