-- pg_rating_random_chess 0.3.0: takes over the Random Chess schema that pg_rating 0.3.0 created
-- and its update to 0.4.0 handed out (see pg_rating--0.3.0--0.4.0.sql). Every row stays; then
-- ALTER EXTENSION pg_rating_random_chess UPDATE brings it to the current version. A new database
-- runs CREATE EXTENSION pg_rating_random_chess (the current version's own script) instead.

DO $$
DECLARE
    missing text;
BEGIN
    SELECT string_agg(o, ', ') INTO missing
    FROM unnest(ARRAY['byes', 'elo_history', 'game_services', 'openings', 'pgn_games', 'ranking_players', 'ranking_writes', 'rankings', 'service_accounts', 'service_games', 'swiss_tournament_entrants', 'swiss_tournament_progress', 'swiss_tournament_standings', 'swiss_tournaments', 'tournaments_games', 'tournaments_players', 'tournaments_ranked_games_reqs', 'tournaments_ranking_reqs', 'users', 'elo_history_id_seq', 'game_services_id_seq', 'openings_id_seq', 'pgn_games_id_seq', 'ranking_versions', 'rankings_id_seq', 'service_games_id_seq', 'swiss_tournaments_tournament_id_seq', 'users_id_seq', 'current_ranking', 'games', 'games_openings', 'games_rankings', 'leaderboard', 'rating_changes', 'swiss_tournaments_detailed_standings', 'swiss_tournaments_players_points', 'swiss_tournaments_round_standings', 'tournaments_reqs', 'users_games']) AS o
    WHERE pg_catalog.to_regclass('@extschema@.' || o) IS NULL
       OR EXISTS (SELECT FROM pg_catalog.pg_depend d
                  WHERE d.classid = 'pg_catalog.pg_class'::regclass
                    AND d.objid = pg_catalog.to_regclass('@extschema@.' || o) AND d.deptype = 'e');
    IF missing IS NOT NULL THEN
        RAISE EXCEPTION 'no Random Chess schema of pg_rating 0.3.0 to take over in schema @extschema@ (missing or still in an extension: %)', missing
            USING ERRCODE = 'object_not_in_prerequisite_state',
                  HINT = 'Run ALTER EXTENSION pg_rating UPDATE first; a new database runs CREATE EXTENSION pg_rating_random_chess without VERSION.';
    END IF;
END
$$;

ALTER EXTENSION pg_rating_random_chess ADD TABLE byes;
ALTER EXTENSION pg_rating_random_chess ADD TABLE elo_history;
ALTER EXTENSION pg_rating_random_chess ADD TABLE game_services;
ALTER EXTENSION pg_rating_random_chess ADD TABLE openings;
ALTER EXTENSION pg_rating_random_chess ADD TABLE pgn_games;
ALTER EXTENSION pg_rating_random_chess ADD TABLE ranking_players;
ALTER EXTENSION pg_rating_random_chess ADD TABLE ranking_writes;
ALTER EXTENSION pg_rating_random_chess ADD TABLE rankings;
ALTER EXTENSION pg_rating_random_chess ADD TABLE service_accounts;
ALTER EXTENSION pg_rating_random_chess ADD TABLE service_games;
ALTER EXTENSION pg_rating_random_chess ADD TABLE swiss_tournament_entrants;
ALTER EXTENSION pg_rating_random_chess ADD TABLE swiss_tournament_progress;
ALTER EXTENSION pg_rating_random_chess ADD TABLE swiss_tournament_standings;
ALTER EXTENSION pg_rating_random_chess ADD TABLE swiss_tournaments;
ALTER EXTENSION pg_rating_random_chess ADD TABLE tournaments_games;
ALTER EXTENSION pg_rating_random_chess ADD TABLE tournaments_players;
ALTER EXTENSION pg_rating_random_chess ADD TABLE tournaments_ranked_games_reqs;
ALTER EXTENSION pg_rating_random_chess ADD TABLE tournaments_ranking_reqs;
ALTER EXTENSION pg_rating_random_chess ADD TABLE users;
ALTER EXTENSION pg_rating_random_chess ADD SEQUENCE elo_history_id_seq;
ALTER EXTENSION pg_rating_random_chess ADD SEQUENCE game_services_id_seq;
ALTER EXTENSION pg_rating_random_chess ADD SEQUENCE openings_id_seq;
ALTER EXTENSION pg_rating_random_chess ADD SEQUENCE pgn_games_id_seq;
ALTER EXTENSION pg_rating_random_chess ADD SEQUENCE ranking_versions;
ALTER EXTENSION pg_rating_random_chess ADD SEQUENCE rankings_id_seq;
ALTER EXTENSION pg_rating_random_chess ADD SEQUENCE service_games_id_seq;
ALTER EXTENSION pg_rating_random_chess ADD SEQUENCE swiss_tournaments_tournament_id_seq;
ALTER EXTENSION pg_rating_random_chess ADD SEQUENCE users_id_seq;
ALTER EXTENSION pg_rating_random_chess ADD VIEW current_ranking;
ALTER EXTENSION pg_rating_random_chess ADD VIEW games;
ALTER EXTENSION pg_rating_random_chess ADD VIEW games_openings;
ALTER EXTENSION pg_rating_random_chess ADD VIEW games_rankings;
ALTER EXTENSION pg_rating_random_chess ADD VIEW leaderboard;
ALTER EXTENSION pg_rating_random_chess ADD VIEW rating_changes;
ALTER EXTENSION pg_rating_random_chess ADD VIEW swiss_tournaments_detailed_standings;
ALTER EXTENSION pg_rating_random_chess ADD VIEW swiss_tournaments_players_points;
ALTER EXTENSION pg_rating_random_chess ADD VIEW swiss_tournaments_round_standings;
ALTER EXTENSION pg_rating_random_chess ADD VIEW tournaments_reqs;
ALTER EXTENSION pg_rating_random_chess ADD VIEW users_games;
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION add_default_service_to_user();
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION check_tournament_row();
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION detect_opening(character varying[]);
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION grant_random_chess_app(regrole);
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION load_lichess_openings(text);
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION note_rankings_change();
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION openings_cache_invalidate(oid);
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION openings_cache_loads();
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION openings_changed();
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION player_rank(integer,character varying,integer,double precision);
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION prevent_default_service_deletion();
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION prevent_default_service_modification();
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION prevent_service_game_deletion();
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION prevent_service_game_modification();
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION random_chess_day_one();
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION ranking_at_timestamp(timestamp with time zone);
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION ranking_leaderboard(integer,integer,double precision,boolean);
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION ranking_with_placement_at_timestamp(timestamp with time zone,integer);
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION rate_service_games();
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION rebuild_ranking(integer);
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION rebuild_tournament_standings(integer,boolean);
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION rebuild_truncated_tournaments();
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION recalculate_changed_ranking();
ALTER EXTENSION pg_rating_random_chess ADD PROCEDURE recalculate_ranking(integer);
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION refresh_tournament_standings();
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION rerate_redated_service_game();
ALTER EXTENSION pg_rating_random_chess ADD FUNCTION tournament_trf(integer);

SELECT pg_catalog.pg_extension_config_dump('users', '');
SELECT pg_catalog.pg_extension_config_dump('users_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('game_services', 'WHERE id <> 1');
SELECT pg_catalog.pg_extension_config_dump('game_services_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('service_accounts', '');
SELECT pg_catalog.pg_extension_config_dump('service_games', '');
SELECT pg_catalog.pg_extension_config_dump('service_games_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('pgn_games', '');
SELECT pg_catalog.pg_extension_config_dump('pgn_games_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('openings', '');
SELECT pg_catalog.pg_extension_config_dump('openings_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('rankings', '');
SELECT pg_catalog.pg_extension_config_dump('rankings_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('elo_history', '');
SELECT pg_catalog.pg_extension_config_dump('elo_history_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('ranking_players', '');
SELECT pg_catalog.pg_extension_config_dump('swiss_tournaments', '');
SELECT pg_catalog.pg_extension_config_dump('swiss_tournaments_tournament_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('tournaments_players', '');
SELECT pg_catalog.pg_extension_config_dump('tournaments_games', '');
SELECT pg_catalog.pg_extension_config_dump('byes', '');
SELECT pg_catalog.pg_extension_config_dump('tournaments_ranking_reqs', '');
SELECT pg_catalog.pg_extension_config_dump('tournaments_ranked_games_reqs', '');
SELECT pg_catalog.pg_extension_config_dump('swiss_tournament_progress', '');
SELECT pg_catalog.pg_extension_config_dump('swiss_tournament_entrants', '');
SELECT pg_catalog.pg_extension_config_dump('swiss_tournament_standings', '');
