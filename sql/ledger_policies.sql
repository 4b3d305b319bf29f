-- Isolation between the applications that share the engine (docs/operations.md, "Several
-- applications in one database"). A role sees a ledger, and its attachment, entries, standings,
-- lock rows, seeds and seasons, when it is a member of the ledger's owner or may read the games
-- table the ledger is attached to; it changes a ledger, its seeds and its seasons only as a
-- member of its owner. Rows a role cannot see it cannot lock either (SELECT ... FOR UPDATE), so
-- no application stalls another's writers through them. pg_rating's writers run as the
-- extension's owner, to whom no policy applies. The views over these tables run with the
-- privileges and policies of the role that reads them (security_invoker).

ALTER TABLE ledgers ENABLE ROW LEVEL SECURITY;
ALTER TABLE ledger_attachments ENABLE ROW LEVEL SECURITY;
ALTER TABLE ledger_entries ENABLE ROW LEVEL SECURITY;
ALTER TABLE ledger_standings ENABLE ROW LEVEL SECURITY;
ALTER TABLE ledger_scopes ENABLE ROW LEVEL SECURITY;
ALTER TABLE ledger_seeds ENABLE ROW LEVEL SECURITY;
ALTER TABLE ledger_seasons ENABLE ROW LEVEL SECURITY;

-- Whether a role may read the games table of a ledger: what makes a ledger visible to a reader
-- who is not a member of its owner. (SECURITY DEFINER, so that the policy of ledgers needs no
-- privilege on ledger_attachments: it reveals only what has_table_privilege does.)
CREATE FUNCTION ledger_games_readable(ledger_id int, reader name) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
SELECT coalesce(pg_catalog.has_table_privilege(reader, a.games::pg_catalog.oid, 'SELECT'), false)
FROM @extschema@.ledger_attachments a
WHERE a.ledger_id OPERATOR(pg_catalog.=) ledger_games_readable.ledger_id
$$;
COMMENT ON FUNCTION ledger_games_readable(int, name) IS
    'Whether the role reader may read the games table ledger ledger_id is attached to (NULL when it is not '
    'attached): the row-level security of ledgers shows a ledger to the members of its owner and to such readers.';

-- An attachment: seen by the roles that may read its games table (a dropped table: by none).
CREATE POLICY games_readable ON ledger_attachments FOR SELECT
    USING (coalesce(pg_catalog.has_table_privilege(games::pg_catalog.oid, 'SELECT'), false));

-- A ledger: seen by the members of its owner and by the roles that see its attachment; changed
-- by the members of its owner (check_ledger says so with 42501 before this hides the row).
CREATE POLICY owner_or_games_readable ON ledgers FOR SELECT
    USING (pg_catalog.pg_has_role(owner, 'USAGE') OR @extschema@.ledger_games_readable(id, CURRENT_USER));
CREATE POLICY owner_inserts ON ledgers FOR INSERT WITH CHECK (pg_catalog.pg_has_role(owner, 'USAGE'));
CREATE POLICY owner_updates ON ledgers FOR UPDATE USING (pg_catalog.pg_has_role(owner, 'USAGE'));
CREATE POLICY owner_deletes ON ledgers FOR DELETE USING (pg_catalog.pg_has_role(owner, 'USAGE'));

-- The derived rows of the ledgers a role sees (they are written by pg_rating only).
CREATE POLICY ledger_visible ON ledger_entries FOR SELECT
    USING (ledger_id IN (SELECT l.id FROM @extschema@.ledgers l));
CREATE POLICY ledger_visible ON ledger_standings FOR SELECT
    USING (ledger_id IN (SELECT l.id FROM @extschema@.ledgers l));
CREATE POLICY ledger_visible ON ledger_scopes FOR SELECT
    USING (ledger_id IN (SELECT l.id FROM @extschema@.ledgers l));

-- Seeds and seasons: seen with their ledger, written by the members of its owner.
CREATE POLICY ledger_visible ON ledger_seeds FOR SELECT
    USING (ledger_id IN (SELECT l.id FROM @extschema@.ledgers l));
CREATE POLICY owner_writes ON ledger_seeds FOR ALL
    USING (ledger_id IN (SELECT l.id FROM @extschema@.ledgers l WHERE pg_catalog.pg_has_role(l.owner, 'USAGE')));
CREATE POLICY ledger_visible ON ledger_seasons FOR SELECT
    USING (ledger_id IN (SELECT l.id FROM @extschema@.ledgers l));
CREATE POLICY owner_writes ON ledger_seasons FOR ALL
    USING (ledger_id IN (SELECT l.id FROM @extschema@.ledgers l WHERE pg_catalog.pg_has_role(l.owner, 'USAGE')));

ALTER VIEW ledger_history SET (security_invoker = true);
ALTER VIEW ledger_standings_now SET (security_invoker = true);
ALTER VIEW ledger_season_standings SET (security_invoker = true);
