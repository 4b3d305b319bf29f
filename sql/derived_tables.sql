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
