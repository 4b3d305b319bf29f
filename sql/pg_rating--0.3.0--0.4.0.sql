-- pg_rating 0.3.0 -> 0.4.0: the engine and the Random Chess schema become two extensions.
--
-- pg_rating keeps the engine (types, chess, ratings, ledgers); the Random Chess schema's tables,
-- views and functions leave it here, unchanged and with every row, and are taken over by the
-- extension pg_rating_random_chess in its version 0.3.0 (the schema as pg_rating 0.3.0 made it):
--
--   ALTER EXTENSION pg_rating UPDATE;                            -- this script
--   CREATE EXTENSION pg_rating_random_chess VERSION '0.3.0';     -- takes the objects over
--   ALTER EXTENSION pg_rating_random_chess UPDATE;               -- to the current version
--
-- Between these commands nothing stops working: the trigger functions serve the tables of either
-- extension. Leaving the objects to a second extension drops their pg_dump registrations from
-- pg_rating; the takeover registers them again.

ALTER EXTENSION pg_rating DROP TABLE byes;
ALTER EXTENSION pg_rating DROP TABLE elo_history;
ALTER EXTENSION pg_rating DROP TABLE game_services;
ALTER EXTENSION pg_rating DROP TABLE openings;
ALTER EXTENSION pg_rating DROP TABLE pgn_games;
ALTER EXTENSION pg_rating DROP TABLE ranking_players;
ALTER EXTENSION pg_rating DROP TABLE ranking_writes;
ALTER EXTENSION pg_rating DROP TABLE rankings;
ALTER EXTENSION pg_rating DROP TABLE service_accounts;
ALTER EXTENSION pg_rating DROP TABLE service_games;
ALTER EXTENSION pg_rating DROP TABLE swiss_tournament_entrants;
ALTER EXTENSION pg_rating DROP TABLE swiss_tournament_progress;
ALTER EXTENSION pg_rating DROP TABLE swiss_tournament_standings;
ALTER EXTENSION pg_rating DROP TABLE swiss_tournaments;
ALTER EXTENSION pg_rating DROP TABLE tournaments_games;
ALTER EXTENSION pg_rating DROP TABLE tournaments_players;
ALTER EXTENSION pg_rating DROP TABLE tournaments_ranked_games_reqs;
ALTER EXTENSION pg_rating DROP TABLE tournaments_ranking_reqs;
ALTER EXTENSION pg_rating DROP TABLE users;
ALTER EXTENSION pg_rating DROP SEQUENCE elo_history_id_seq;
ALTER EXTENSION pg_rating DROP SEQUENCE game_services_id_seq;
ALTER EXTENSION pg_rating DROP SEQUENCE openings_id_seq;
ALTER EXTENSION pg_rating DROP SEQUENCE pgn_games_id_seq;
ALTER EXTENSION pg_rating DROP SEQUENCE ranking_versions;
ALTER EXTENSION pg_rating DROP SEQUENCE rankings_id_seq;
ALTER EXTENSION pg_rating DROP SEQUENCE service_games_id_seq;
ALTER EXTENSION pg_rating DROP SEQUENCE swiss_tournaments_tournament_id_seq;
ALTER EXTENSION pg_rating DROP SEQUENCE users_id_seq;
ALTER EXTENSION pg_rating DROP VIEW current_ranking;
ALTER EXTENSION pg_rating DROP VIEW games;
ALTER EXTENSION pg_rating DROP VIEW games_openings;
ALTER EXTENSION pg_rating DROP VIEW games_rankings;
ALTER EXTENSION pg_rating DROP VIEW leaderboard;
ALTER EXTENSION pg_rating DROP VIEW rating_changes;
ALTER EXTENSION pg_rating DROP VIEW swiss_tournaments_detailed_standings;
ALTER EXTENSION pg_rating DROP VIEW swiss_tournaments_players_points;
ALTER EXTENSION pg_rating DROP VIEW swiss_tournaments_round_standings;
ALTER EXTENSION pg_rating DROP VIEW tournaments_reqs;
ALTER EXTENSION pg_rating DROP VIEW users_games;
ALTER EXTENSION pg_rating DROP FUNCTION add_default_service_to_user();
ALTER EXTENSION pg_rating DROP FUNCTION check_tournament_row();
ALTER EXTENSION pg_rating DROP FUNCTION detect_opening(character varying[]);
ALTER EXTENSION pg_rating DROP FUNCTION grant_random_chess_app(regrole);
ALTER EXTENSION pg_rating DROP FUNCTION load_lichess_openings(text);
ALTER EXTENSION pg_rating DROP FUNCTION note_rankings_change();
ALTER EXTENSION pg_rating DROP FUNCTION openings_cache_invalidate(oid);
ALTER EXTENSION pg_rating DROP FUNCTION openings_cache_loads();
ALTER EXTENSION pg_rating DROP FUNCTION openings_changed();
ALTER EXTENSION pg_rating DROP FUNCTION player_rank(integer,character varying,integer,double precision);
ALTER EXTENSION pg_rating DROP FUNCTION prevent_default_service_deletion();
ALTER EXTENSION pg_rating DROP FUNCTION prevent_default_service_modification();
ALTER EXTENSION pg_rating DROP FUNCTION prevent_service_game_deletion();
ALTER EXTENSION pg_rating DROP FUNCTION prevent_service_game_modification();
ALTER EXTENSION pg_rating DROP FUNCTION random_chess_day_one();
ALTER EXTENSION pg_rating DROP FUNCTION ranking_at_timestamp(timestamp with time zone);
ALTER EXTENSION pg_rating DROP FUNCTION ranking_leaderboard(integer,integer,double precision,boolean);
ALTER EXTENSION pg_rating DROP FUNCTION ranking_with_placement_at_timestamp(timestamp with time zone,integer);
ALTER EXTENSION pg_rating DROP FUNCTION rate_service_games();
ALTER EXTENSION pg_rating DROP FUNCTION rebuild_ranking(integer);
ALTER EXTENSION pg_rating DROP FUNCTION rebuild_tournament_standings(integer,boolean);
ALTER EXTENSION pg_rating DROP FUNCTION rebuild_truncated_tournaments();
ALTER EXTENSION pg_rating DROP FUNCTION recalculate_changed_ranking();
ALTER EXTENSION pg_rating DROP PROCEDURE recalculate_ranking(integer);
ALTER EXTENSION pg_rating DROP FUNCTION refresh_tournament_standings();
ALTER EXTENSION pg_rating DROP FUNCTION rerate_redated_service_game();
ALTER EXTENSION pg_rating DROP FUNCTION tournament_trf(integer);

DO $$
BEGIN
    RAISE NOTICE 'the Random Chess schema left pg_rating; take it over with: CREATE EXTENSION pg_rating_random_chess VERSION ''0.3.0''; ALTER EXTENSION pg_rating_random_chess UPDATE;';
END
$$;
