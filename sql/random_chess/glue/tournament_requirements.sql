-- The requirements of tournament $1 as user $2 meets them: per ranking, the rating required and
-- the user's rating (floor and text), the rated games required and played, and whether the user is
-- a bot. Read by src/tournament/rules.rs (check_registration).
SELECT q.ranking_type, k.name::text AS ranking_name, q.required_value, q.game_count,
       floor(coalesce(p.rating, k.starting_elo))::int8 AS rating_floor,
       round(coalesce(p.rating, k.starting_elo), 2)::text AS rating,
       (SELECT count(*) FROM @extschema@.elo_history h WHERE h.ranking_id = q.ranking_type AND h.service_id = 1
          AND h.user_id_in_service = $2) AS rated_games,
       EXISTS (SELECT 1 FROM @extschema@.service_accounts a WHERE a.service_id = 1 AND a.user_id_in_service = $2
                 AND a.is_bot) AS is_bot
FROM @extschema@.tournaments_reqs q JOIN @extschema@.rankings k ON k.id = q.ranking_type
LEFT JOIN @extschema@.ranking_players p ON p.ranking_id = q.ranking_type AND p.service_id = 1 AND p.user_id_in_service = $2
WHERE q.tournament_id = $1
