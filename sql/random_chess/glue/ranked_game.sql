-- One ranked local game with what the rankings need of it ($1: its id), read by
-- src/ranking/store.rs (RankingStore::game) when a game's date changes.
SELECT g.id, g.creation_date, g.white_player::text AS white, g.black_player::text AS black,
       (g.result).game_end_type::text AS end_type, (g.clock).starting_time, (g.clock).move_increase,
       w.is_bot AS white_is_bot, b.is_bot AS black_is_bot
FROM @extschema@.service_games g
JOIN @extschema@.service_accounts w ON w.service_id = g.service_id AND w.user_id_in_service = g.white_player
JOIN @extschema@.service_accounts b ON b.service_id = g.service_id AND b.user_id_in_service = g.black_player
WHERE g.service_id = 1 AND g.is_ranked AND g.id = $1
