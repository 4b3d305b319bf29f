-- Reading the standings: pg_rating's views and the baseline's, same rows.
\o /dev/null
\timing on
\echo BENCH ours_final_round
SELECT * FROM swiss_tournaments_round_standings WHERE tournament_id = 1 AND round = 11 ORDER BY place;
\echo BENCH baseline_final_round
SELECT * FROM baseline_round_standings WHERE tournament_id = 1 AND round = 11 ORDER BY place;
\echo BENCH ours_points_all_rounds
SELECT * FROM swiss_tournaments_players_points WHERE tournament_id = 1;
\echo BENCH baseline_points_all_rounds
SELECT * FROM baseline_players_points WHERE tournament_id = 1;
\timing off
\o
