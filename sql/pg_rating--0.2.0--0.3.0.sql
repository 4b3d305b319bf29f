-- pg_rating 0.2.0 -> 0.3.0, the security release. Run by ALTER EXTENSION pg_rating UPDATE (in one
-- transaction, with the extension's schema first on the search_path).
\echo Use "ALTER EXTENSION pg_rating UPDATE TO '0.3.0'" to load this file. \quit

-- No role may execute a trigger function (so none can attach one to a table of its own); each
-- also refuses to fire on any table but its own (in the library).
REVOKE ALL ON FUNCTION add_default_service_to_user(), prevent_default_service_modification(),
    prevent_default_service_deletion() FROM PUBLIC;
REVOKE ALL ON FUNCTION prevent_service_game_modification(), prevent_service_game_deletion() FROM PUBLIC;
REVOKE ALL ON FUNCTION rate_service_games(), rerate_redated_service_game(), recalculate_changed_ranking(),
    note_rankings_change() FROM PUBLIC;
REVOKE ALL ON FUNCTION check_tournament_row(), refresh_tournament_standings(), rebuild_truncated_tournaments()
    FROM PUBLIC;
REVOKE ALL ON FUNCTION openings_changed() FROM PUBLIC;

-- Derived tables are written only by pg_rating, whatever the grants: the guard replaces the
-- checks of elo_history entries written by others.
CREATE FUNCTION refuse_foreign_write() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'refuse_foreign_write_wrapper';
REVOKE ALL ON FUNCTION refuse_foreign_write() FROM PUBLIC;
COMMENT ON FUNCTION refuse_foreign_write() IS
    'Trigger of the derived tables (elo_history, ranking_players, ranking_writes and the swiss_tournament_* '
    'tables): refuses, with 42501, every write that does not come from pg_rating''s own triggers and functions.';

DROP TRIGGER check_elo_history_entry ON elo_history;
DROP FUNCTION check_elo_history_entry();

CREATE TRIGGER refuse_foreign_write
    BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON elo_history
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();
CREATE TRIGGER refuse_foreign_write
    BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ranking_players
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();
CREATE TRIGGER refuse_foreign_write
    BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ranking_writes
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();
CREATE TRIGGER refuse_foreign_write
    BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON swiss_tournament_progress
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();
CREATE TRIGGER refuse_foreign_write
    BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON swiss_tournament_entrants
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();
CREATE TRIGGER refuse_foreign_write
    BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON swiss_tournament_standings
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();

-- Settings under which some game could never be rated are refused when written (the update
-- fails if a ranking already has them: change them first).
ALTER TABLE rankings
    ADD CONSTRAINT glicko2_tau_at_most_10 CHECK (glicko2_tau <= 10),
    ADD CONSTRAINT starting_volatility_stored CHECK (starting_volatility >= 1e-10),
    ADD CONSTRAINT skemino_starting_elo_in_range CHECK (rating_system <> 'skemino' OR starting_elo < 3660.97);

-- Deleting a ranking deletes its history (no role may delete history entries themselves) and,
-- by note_rankings_change, its standings.
ALTER TABLE elo_history
    DROP CONSTRAINT elo_history_ranking_id_fkey,
    ADD CONSTRAINT elo_history_ranking_id_fkey FOREIGN KEY (ranking_id) REFERENCES rankings ON DELETE CASCADE;

-- A tournament starts from a position (a malformed FEN is 22P02).
ALTER TABLE swiss_tournaments ADD CONSTRAINT starting_position_is_a_position
    CHECK (cardinality(@extschema@.generate_fen_array(starting_position, '{}')) = 1);

-- The recommended privileges of an application's role.
CREATE FUNCTION grant_random_chess_app(app regrole) RETURNS void
LANGUAGE plpgsql VOLATILE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    schema text := '@extschema@';
BEGIN
    EXECUTE format('GRANT USAGE ON SCHEMA %I TO %s', schema, app);
    -- the tables and views it reads
    EXECUTE (
        SELECT format('GRANT SELECT ON %s TO %s', string_agg(c.oid::regclass::text, ', ' ORDER BY c.relname), app)
        FROM pg_class c
        JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e'
        JOIN pg_extension x ON x.oid = d.refobjid AND x.extname = 'pg_rating'
        WHERE c.relkind IN ('r', 'v'));
    -- what it records
    EXECUTE format('GRANT INSERT ON %I.service_games, %I.pgn_games, %I.service_accounts, %I.swiss_tournaments TO %s',
                   schema, schema, schema, schema, app);
    EXECUTE format('GRANT UPDATE ON %I.service_accounts TO %s', schema, app);
    EXECUTE format('GRANT USAGE ON SEQUENCE %I.service_games_id_seq, %I.pgn_games_id_seq, '
                   '%I.swiss_tournaments_tournament_id_seq TO %s', schema, schema, schema, app);
    EXECUTE format('GRANT EXECUTE ON FUNCTION %I.ranking_with_placement_at_timestamp(timestamptz, int) TO %s',
                   schema, app);
END
$$;
REVOKE ALL ON FUNCTION grant_random_chess_app(regrole) FROM PUBLIC;

COMMENT ON FUNCTION grant_random_chess_app(regrole) IS
    'Grants an application role what the Random Chess app needs: SELECT on every table and view of pg_rating, '
    'INSERT on service_games, pgn_games, service_accounts and swiss_tournaments, UPDATE on service_accounts, USAGE '
    'on their sequences, EXECUTE on ranking_with_placement_at_timestamp. Run by the extension''s owner.';
