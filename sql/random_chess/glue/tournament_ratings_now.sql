-- Each entrant's current rating in tournament $1's ranking, by registration number: the latest,
-- else the ranking's start; NULL for a bot the ranking excludes or without a ranking. Read by
-- src/tournament/store.rs (TournamentStore::ratings_now).
SELECT e.player_no,
       CASE WHEN k.id IS NULL OR (a.is_bot AND NOT k.include_bots) THEN NULL
       ELSE round(coalesce(r.rating, k.starting_elo))::int END AS rating
FROM @extschema@.swiss_tournament_entrants e
JOIN @extschema@.swiss_tournaments t ON t.tournament_id = e.tournament_id
LEFT JOIN @extschema@.rankings k ON k.id = t.ranking_id
JOIN @extschema@.service_accounts a ON a.service_id = 1 AND a.user_id_in_service = e.user_id_in_service
LEFT JOIN @extschema@.ranking_players r
  ON r.ranking_id = k.id AND r.service_id = 1 AND r.user_id_in_service = e.user_id_in_service
WHERE e.tournament_id = $1
