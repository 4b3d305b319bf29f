-- Every ranked local game from ($1 creation_date, $2 id) on, in the history's order, read by
-- src/ranking/store.rs (RankingStore::ranked_games_from) for a replay. The bots are few: the glue
-- reads their names once and sets the two flags, instead of joining every game with its accounts.
SELECT g.id, g.creation_date, g.white_player::text AS white, g.black_player::text AS black,
       (g.result).game_end_type::text AS end_type, (g.clock).starting_time, (g.clock).move_increase,
       false AS white_is_bot, false AS black_is_bot
FROM @extschema@.service_games g
WHERE g.service_id = 1 AND g.is_ranked AND (g.creation_date, g.id) >= ($1, $2)
ORDER BY g.creation_date, g.id
