-- The tournaments' read functions and views, on the primary and on a hot standby.
SELECT * FROM tournaments_reqs ORDER BY 1, 2;
SELECT * FROM swiss_tournaments_players_points ORDER BY tournament_id, round, user_id_in_service;
SELECT * FROM swiss_tournaments_round_standings ORDER BY tournament_id, round, place;
SELECT * FROM swiss_tournaments_detailed_standings ORDER BY tournament_id, round, place;
SELECT tournament_trf(tournament_id) FROM swiss_tournaments ORDER BY tournament_id;
-- the next round's pairing of every tournament with rounds left (nothing written: a standby pairs too)
SELECT t.tournament_id, p.*
FROM swiss_tournaments t
CROSS JOIN LATERAL tournament_pair_round(t.tournament_id) p
WHERE (SELECT coalesce(max(round), 0) FROM tournaments_games g WHERE g.tournament_id = t.tournament_id) < t.round_count
ORDER BY 1, 2;
