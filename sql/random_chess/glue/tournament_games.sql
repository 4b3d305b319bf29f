-- The games of tournament $1 by round, then id: players, result and number of moves. Read by
-- src/tournament/store.rs (TournamentStore::load).
SELECT tg.round, g.white_player::text AS white, g.black_player::text AS black,
       (g.result).game_end_type::text AS end_type, (g.result).game_end_reason::text AS reason,
       coalesce(cardinality(g.moves), 0) AS moves
FROM @extschema@.tournaments_games tg JOIN @extschema@.service_games g ON g.id = tg.game_id
WHERE tg.tournament_id = $1 ORDER BY tg.round, g.id
