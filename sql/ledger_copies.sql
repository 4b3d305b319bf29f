-- The settings, seeds and seasons in force: pg_rating's own copies of ledgers, ledger_seeds and
-- ledger_seasons, which its writers read instead of those tables (since 0.13.0).
--
-- Why: an application owner writes its ledgers, seeds and seasons with UPDATE and DELETE, and
-- PostgreSQL lets any role that holds either privilege LOCK TABLE the whole table. Were the
-- writers to read those tables, one application's open transaction holding such a lock would
-- stall every other application's games. The copies are derived tables (refuse_foreign_write):
-- nobody but their owner keeps UPDATE, DELETE or TRUNCATE on them (restrict_table_privileges), so
-- nobody else can take a lock that holds off a reader. A lock on ledgers, ledger_seeds or
-- ledger_seasons now holds off only changes of ledgers, seeds and seasons, and reads through them.
--
-- Kept equal by triggers: copy_ledger (each row of ledgers, as it is after the statement), and
-- reseed_ledger_scopes and reseason_ledger (each (ledger, scope) whose seeds or seasons changed,
-- copied again before it is replayed). The copies have the columns of their tables, in the same
-- order: the triggers copy whole rows.

CREATE TABLE ledgers_in_force (LIKE ledgers, PRIMARY KEY (id));
CREATE TABLE ledger_seeds_in_force (LIKE ledger_seeds, PRIMARY KEY (ledger_id, scope, player));
CREATE TABLE ledger_seasons_in_force (LIKE ledger_seasons, PRIMARY KEY (ledger_id, scope, name));

CREATE TRIGGER refuse_foreign_write BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ledgers_in_force
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();
CREATE TRIGGER refuse_foreign_write BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ledger_seeds_in_force
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();
CREATE TRIGGER refuse_foreign_write BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ledger_seasons_in_force
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();

CREATE FUNCTION copy_ledger() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'copy_ledger_wrapper';
REVOKE ALL ON FUNCTION copy_ledger() FROM PUBLIC;
ALTER FUNCTION copy_ledger() SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
-- (named to fire before rebuild_changed_ledger, which rebuilds by the copy)
CREATE TRIGGER copy_ledger AFTER INSERT OR UPDATE OR DELETE ON ledgers
    FOR EACH ROW EXECUTE FUNCTION copy_ledger();

-- A TRUNCATE fires no row trigger: it would replay nothing and leave the copies as they were.
CREATE FUNCTION refuse_truncate() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'refuse_truncate_wrapper';
REVOKE ALL ON FUNCTION refuse_truncate() FROM PUBLIC;
ALTER FUNCTION refuse_truncate() SET search_path = pg_catalog, pg_temp;
CREATE TRIGGER refuse_truncate BEFORE TRUNCATE ON ledger_seeds
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_truncate();
CREATE TRIGGER refuse_truncate BEFORE TRUNCATE ON ledger_seasons
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_truncate();

-- Seen as their tables are (ledger_policies.sql); nobody is granted them.
ALTER TABLE ledgers_in_force ENABLE ROW LEVEL SECURITY;
ALTER TABLE ledger_seeds_in_force ENABLE ROW LEVEL SECURITY;
ALTER TABLE ledger_seasons_in_force ENABLE ROW LEVEL SECURITY;
CREATE POLICY ledger_visible ON ledgers_in_force FOR SELECT
    USING (id IN (SELECT l.id FROM @extschema@.ledgers l));
CREATE POLICY ledger_visible ON ledger_seeds_in_force FOR SELECT
    USING (ledger_id IN (SELECT l.id FROM @extschema@.ledgers l));
CREATE POLICY ledger_visible ON ledger_seasons_in_force FOR SELECT
    USING (ledger_id IN (SELECT l.id FROM @extschema@.ledgers l));

SELECT pg_catalog.pg_extension_config_dump('ledgers_in_force', '');
SELECT pg_catalog.pg_extension_config_dump('ledger_seeds_in_force', '');
SELECT pg_catalog.pg_extension_config_dump('ledger_seasons_in_force', '');

COMMENT ON TABLE ledgers_in_force IS
    'Derived: a copy of ledgers (same columns) that pg_rating''s writers read, so that a role that may lock '
    'ledgers holds off no writer; kept equal by the trigger copy_ledger.';
COMMENT ON TABLE ledger_seeds_in_force IS
    'Derived: a copy of ledger_seeds that pg_rating''s writers read; copied again per changed scope before the '
    'scope is replayed.';
COMMENT ON TABLE ledger_seasons_in_force IS
    'Derived: a copy of ledger_seasons that pg_rating''s writers read; copied again per changed scope before the '
    'scope is replayed.';
COMMENT ON FUNCTION refuse_truncate() IS
    'Trigger of ledger_seeds and ledger_seasons: refuses TRUNCATE (0A000), which would replay no ledger; DELETE '
    'replays each scope it changes.';
COMMENT ON FUNCTION copy_ledger() IS
    'Trigger of ledgers: keeps ledgers_in_force, the copy the writers read, equal to ledgers.';
