-- Service game $1 as a tournament sees it: players, result, number of moves and date. Read by
-- src/tournament/store.rs (TournamentStore::game).
SELECT white_player::text AS white, black_player::text AS black,
       (result).game_end_type::text AS end_type, (result).game_end_reason::text AS reason,
       coalesce(cardinality(moves), 0) AS moves, creation_date
FROM @extschema@.service_games WHERE id = $1
