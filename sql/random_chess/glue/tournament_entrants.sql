-- The entrants of tournament $1 in registration order: number, user, rating as of the start,
-- display name. Read by src/tournament/store.rs (TournamentStore::load).
SELECT e.player_no, e.user_id_in_service::text AS user_id, e.start_rating,
       a.display_name::text AS display_name
FROM @extschema@.swiss_tournament_entrants e
JOIN @extschema@.service_accounts a ON a.service_id = 1 AND a.user_id_in_service = e.user_id_in_service
WHERE e.tournament_id = $1 ORDER BY e.player_no
