-- pg_rating_random_chess 0.8.0 -> 0.9.0: a lock per ranking. Writers of the history take the
-- rows of the rankings they write in ranking_locks (made by each ranking's first writer) instead
-- of the one row of ranking_writes, so writers of different rankings no longer wait for each
-- other; a change of rankings takes every ranking's lock first, in a trigger that now fires
-- before the statement. No row of the history or the standings changes.

CREATE TABLE ranking_locks (
    ranking_id int PRIMARY KEY,
    writes     bigint NOT NULL DEFAULT 0
);
CREATE TRIGGER refuse_foreign_write
    BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ranking_locks
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();
-- ranking_writes keeps only the version of the rankings: made anew (a dropped column would stay
-- in the table's description), with its version.
CREATE TABLE ranking_writes_new (
    only_row bool PRIMARY KEY DEFAULT true CONSTRAINT ranking_writes_one_row CHECK (only_row),
    rankings_version bigint NOT NULL DEFAULT 0
);
INSERT INTO ranking_writes_new SELECT only_row, rankings_version FROM ranking_writes;
DROP TABLE ranking_writes;
ALTER TABLE ranking_writes_new RENAME TO ranking_writes;
ALTER INDEX ranking_writes_new_pkey RENAME TO ranking_writes_pkey;
CREATE TRIGGER refuse_foreign_write
    BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ranking_writes
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();

CREATE FUNCTION forget_deleted_rankings() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'forget_deleted_rankings_wrapper';
REVOKE ALL ON FUNCTION forget_deleted_rankings() FROM PUBLIC;
ALTER FUNCTION forget_deleted_rankings() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;

DROP TRIGGER note_rankings_change ON rankings;
CREATE TRIGGER note_rankings_change
    BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON rankings
    FOR EACH STATEMENT EXECUTE FUNCTION note_rankings_change();
CREATE TRIGGER forget_deleted_rankings
    AFTER DELETE OR TRUNCATE ON rankings
    FOR EACH STATEMENT EXECUTE FUNCTION forget_deleted_rankings();

COMMENT ON TABLE ranking_locks IS
    'One row per ranking: the lock every writer of its elo_history and ranking_players rows takes first '
    '(in ranking order); writes counts them.';
COMMENT ON TABLE ranking_writes IS
    'One row: rankings_version changes with every change of rankings, which first takes every ranking''s lock.';
COMMENT ON FUNCTION note_rankings_change() IS
    'Trigger: before a change of rankings, takes every ranking''s lock and records that rankings change '
    '(ranking_writes.rankings_version), so cached rankings are re-read.';
COMMENT ON FUNCTION forget_deleted_rankings() IS
    'Trigger: removes the standings and the lock rows of deleted rankings.';
