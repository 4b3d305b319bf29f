-- The guard of derived tables: rating history, standings and their bookkeeping are written
-- only by pg_rating's own code. Attached as a BEFORE ... FOR EACH STATEMENT trigger (INSERT,
-- UPDATE, DELETE and TRUNCATE) to each derived table by that table's SQL file; a write from
-- anywhere else fails with 42501 whatever the role's grants. A restore (a superuser session with
-- row_security off, as pg_dump's scripts and pg_restore run) loads the rows.

CREATE FUNCTION refuse_foreign_write() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'refuse_foreign_write_wrapper';
REVOKE ALL ON FUNCTION refuse_foreign_write() FROM PUBLIC;

COMMENT ON FUNCTION refuse_foreign_write() IS
    'Trigger of the derived tables (elo_history, ranking_players, ranking_writes, the '
    'swiss_tournament_* tables and the ledgers'' derived tables): refuses, with 42501, every write that '
    'does not come from pg_rating''s own triggers and functions.';

-- The derived tables whose rows a foreign key's ON DELETE CASCADE removes with their parent
-- (ledger_attachments, elo_history, the swiss_tournament_* tables) also carry this row trigger
-- (BEFORE DELETE): outside pg_rating's own writers a row goes only once its parent row is gone,
-- so a DELETE that a role runs from a trigger of its own tables during a cascade of its own
-- removes nothing.
CREATE FUNCTION check_cascaded_delete() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'check_cascaded_delete_wrapper';
REVOKE ALL ON FUNCTION check_cascaded_delete() FROM PUBLIC;
ALTER FUNCTION check_cascaded_delete() SET search_path = pg_catalog, pg_temp;

COMMENT ON FUNCTION check_cascaded_delete() IS
    'Row trigger (BEFORE DELETE) of the derived tables that a foreign key''s cascade empties with their parent '
    '(ledger_attachments, elo_history, swiss_tournament_progress, swiss_tournament_entrants, '
    'swiss_tournament_standings): outside pg_rating''s own code a row is deleted only once its parent row is gone '
    '(42501 otherwise).';
