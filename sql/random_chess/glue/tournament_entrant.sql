-- Makes user $2 an entrant of tournament $1 with the tournament's next pairing number, which it
-- returns. Run by src/tournament/triggers.rs (registration_changed) for a new registration.
WITH n AS (UPDATE @extschema@.swiss_tournament_progress SET next_player_no = next_player_no + 1
           WHERE tournament_id = $1 RETURNING next_player_no - 1 AS no)
INSERT INTO @extschema@.swiss_tournament_entrants (tournament_id, user_id_in_service, player_no)
SELECT $1, $2, n.no FROM n RETURNING player_no
