-- Sets the rating as of the start of every entrant of tournament $1 (or of the one user $2 when
-- not NULL): its ranking's latest elo_history entry dated before the start, starting_elo without
-- one, NULL before the start, without a ranking or for a bot the ranking excludes. Returns a row per
-- entrant whose rating changed. Run by src/tournament/store.rs (TournamentStore::update_ratings).
WITH r AS (
   SELECT e.tournament_id, e.user_id_in_service,
          CASE WHEN p.started_at IS NULL OR k.id IS NULL OR (a.is_bot AND NOT k.include_bots) THEN NULL
          ELSE round(coalesce((
              SELECT h.elo FROM @extschema@.elo_history h
              WHERE h.ranking_id = k.id AND h.service_id = 1
                AND h.user_id_in_service = e.user_id_in_service AND h.game_date < p.started_at
              ORDER BY h.game_date DESC, h.game_id DESC LIMIT 1), k.starting_elo))::int
          END AS rating
   FROM @extschema@.swiss_tournament_entrants e
   JOIN @extschema@.swiss_tournament_progress p ON p.tournament_id = e.tournament_id
   JOIN @extschema@.swiss_tournaments t ON t.tournament_id = e.tournament_id
   LEFT JOIN @extschema@.rankings k ON k.id = t.ranking_id
   JOIN @extschema@.service_accounts a ON a.service_id = 1 AND a.user_id_in_service = e.user_id_in_service
   WHERE e.tournament_id = $1 AND ($2::text IS NULL OR e.user_id_in_service = $2))
UPDATE @extschema@.swiss_tournament_entrants e SET start_rating = r.rating
FROM r WHERE e.tournament_id = r.tournament_id AND e.user_id_in_service = r.user_id_in_service
  AND e.start_rating IS DISTINCT FROM r.rating
RETURNING 1
