-- Tournament $1's round count, tie-break order, last round and the dates (UTC, TRF's YYYY/MM/DD)
-- of its first and last games. Read by src/tournament/store.rs (TournamentStore::load).
SELECT t.round_count, t.tie_breaks::text AS tie_breaks, p.last_round,
       to_char(min(g.creation_date) AT TIME ZONE 'UTC', 'YYYY/MM/DD') AS first_date,
       to_char(max(g.creation_date) AT TIME ZONE 'UTC', 'YYYY/MM/DD') AS last_date
FROM @extschema@.swiss_tournaments t
JOIN @extschema@.swiss_tournament_progress p ON p.tournament_id = t.tournament_id
LEFT JOIN @extschema@.tournaments_games tg ON tg.tournament_id = t.tournament_id
LEFT JOIN @extschema@.service_games g ON g.id = tg.game_id
WHERE t.tournament_id = $1 GROUP BY t.round_count, t.tie_breaks, p.last_round
