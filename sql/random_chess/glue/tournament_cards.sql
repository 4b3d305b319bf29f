-- The cards of players $2 (registration numbers) of tournament $1: one row per player with its
-- rating as of the start and its entries in round order (opponents as an array, -1 for none;
-- colour and result letters as one string). Read by src/tournament/store.rs (StoredCards::cards).
SELECT e.player_no, e.start_rating,
       coalesce(array_agg(coalesce(s.opponent_no, -1) ORDER BY s.round)
                FILTER (WHERE s.round IS NOT NULL), '{}') AS opponents,
       coalesce(string_agg(s.colour::text || s.result::text, '' ORDER BY s.round), '') AS codes
FROM @extschema@.swiss_tournament_entrants e
LEFT JOIN @extschema@.swiss_tournament_standings s ON s.tournament_id = e.tournament_id AND s.player_no = e.player_no
WHERE e.tournament_id = $1 AND e.player_no = ANY($2)
GROUP BY e.player_no, e.start_rating
