-- Adds standings rows of tournament $1 for rounds $2..$3 of every entrant (or of player number $4
-- when not NULL): absent entries, values to be computed. Run by src/tournament/store.rs
-- (TournamentStore::add_rows).
INSERT INTO @extschema@.swiss_tournament_standings (tournament_id, round, player_no, user_id_in_service,
    opponent_no, colour, result, points_x2, adjusted_x2, played, win, won, bh_x2, bh_c1_x2,
    sb_x4, sb_c1_x4, sort_key)
SELECT $1, r, e.player_no, e.user_id_in_service, NULL, '-', 'Z', 0, 0, 0, 0, 0, 0, 0, 0, 0, '\x'
FROM @extschema@.swiss_tournament_entrants e CROSS JOIN generate_series($2, $3) r
WHERE e.tournament_id = $1 AND ($4::int IS NULL OR e.player_no = $4)
