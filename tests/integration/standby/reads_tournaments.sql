-- The tournaments' read functions and views, on the primary and on a hot standby.
SELECT * FROM tournaments_reqs ORDER BY 1, 2;
SELECT * FROM swiss_tournaments_players_points ORDER BY tournament_id, round, user_id_in_service;
SELECT * FROM swiss_tournaments_round_standings ORDER BY tournament_id, round, place;
SELECT * FROM swiss_tournaments_detailed_standings ORDER BY tournament_id, round, place;
SELECT tournament_trf(tournament_id) FROM swiss_tournaments ORDER BY tournament_id;
