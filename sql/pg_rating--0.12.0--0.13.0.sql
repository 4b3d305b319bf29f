-- pg_rating 0.12.0 -> 0.13.0: several applications in one database (security between apps).

-- Every function runs with search_path = pg_catalog, pg_temp: no schema a non-superuser can
-- create in (the extension's schema is usually public, where a database owner may create) is
-- searched while pg_rating's code runs; its SQL names pg_rating's objects with their schema.
DO $$
DECLARE
    f regprocedure;
BEGIN
    FOR f IN
        SELECT p.oid
        FROM pg_catalog.pg_proc p
        JOIN pg_catalog.pg_depend d ON d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
                                   AND d.objid OPERATOR(pg_catalog.=) p.oid AND d.deptype OPERATOR(pg_catalog.=) 'e'
        JOIN pg_catalog.pg_extension x ON x.oid OPERATOR(pg_catalog.=) d.refobjid
        WHERE x.extname OPERATOR(pg_catalog.=) 'pg_rating'
          AND EXISTS (SELECT FROM pg_catalog.unnest(p.proconfig) c WHERE c OPERATOR(pg_catalog.~~) 'search_path=%')
    LOOP
        EXECUTE pg_catalog.format('ALTER FUNCTION %s SET search_path = pg_catalog, pg_temp', f);
    END LOOP;
END
$$;

-- The functions that check who acts run as the role that acts (the library takes the owner's
-- rights for their writes after the check).
ALTER FUNCTION check_ledger() SECURITY INVOKER;
ALTER FUNCTION reseed_ledger() SECURITY INVOKER;
ALTER FUNCTION reseason_ledger() SECURITY INVOKER;
ALTER FUNCTION ledger_attach(text, regclass, text, text, text, text, text, jsonb, text, text) SECURITY INVOKER;
ALTER FUNCTION ledger_attach_multiplayer(text, regclass, text, text, text, text, text, boolean, text, text)
    SECURITY INVOKER;
ALTER FUNCTION ledger_detach(text) SECURITY INVOKER;
ALTER FUNCTION ledger_rebuild(text) SECURITY INVOKER;
ALTER FUNCTION ledger_what_if(text, float8[], float8[]) SECURITY INVOKER;

-- Derived rows of a cascade: deleted only once their parent row is gone.
CREATE FUNCTION check_cascaded_delete() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'check_cascaded_delete_wrapper';
REVOKE ALL ON FUNCTION check_cascaded_delete() FROM PUBLIC;
ALTER FUNCTION check_cascaded_delete() SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION check_cascaded_delete() IS
    'Row trigger (BEFORE DELETE) of the derived tables that a foreign key''s cascade empties with their parent '
    '(ledger_attachments, elo_history, swiss_tournament_progress, swiss_tournament_entrants, '
    'swiss_tournament_standings): outside pg_rating''s own code a row is deleted only once its parent row is gone '
    '(42501 otherwise).';
CREATE TRIGGER check_cascaded_delete BEFORE DELETE ON ledger_attachments
    FOR EACH ROW EXECUTE FUNCTION check_cascaded_delete();

-- Isolation between applications: row-level security on the ledgers' tables, the views read with
-- the reader's privileges (sql/ledger_policies.sql).
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

-- Privileges only a table's owner keeps: TRIGGER, and the writes and locks of derived tables (issue 31)
CREATE FUNCTION restrict_table_privileges() RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    held record;
    revoked text[] := '{}';
BEGIN
    -- Two passes: a privilege that a grantee passed on WITH GRANT OPTION goes with the grantee's
    -- own (CASCADE), which the first pass may meet after the one passed on.
    FOR pass IN 1..2 LOOP
        FOR held IN
            SELECT t.oid::regclass AS table_name,
                   CASE WHEN acl.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(acl.grantee)) END
                       AS grantee,
                   string_agg(acl.privilege_type, ', ' ORDER BY acl.privilege_type) AS privileges
            FROM (SELECT c.oid, c.relowner, c.relacl, e.extname,
                         EXISTS (SELECT FROM pg_trigger tg
                                 WHERE tg.tgrelid = c.oid AND tg.tgname = 'refuse_foreign_write') AS derived
                  FROM pg_depend d
                  JOIN pg_extension e ON e.oid = d.refobjid
                  JOIN pg_class c ON c.oid = d.objid
                  WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_extension'::regclass
                    AND d.deptype = 'e' AND c.relkind = 'r'
                    AND e.extname IN ('pg_rating', 'pg_rating_random_chess')) t
            CROSS JOIN LATERAL aclexplode(t.relacl) acl
            WHERE acl.grantee <> t.relowner
              AND (acl.privilege_type = 'TRIGGER'
                   OR (t.derived AND acl.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE', 'REFERENCES'))
                   OR (t.extname = 'pg_rating' AND acl.privilege_type IN ('TRUNCATE', 'REFERENCES')))
            GROUP BY t.oid, acl.grantee
            ORDER BY t.oid, 2
        LOOP
            EXECUTE format('REVOKE %s ON TABLE %s FROM %s CASCADE', held.privileges, held.table_name, held.grantee);
            revoked := revoked || format('%s on %s from %s', held.privileges, held.table_name, held.grantee);
        END LOOP;
    END LOOP;
    IF cardinality(revoked) > 0 THEN
        RAISE WARNING 'pg_rating keeps some privileges on its tables to their owner'
            USING DETAIL = 'Revoked ' || array_to_string(revoked, '; ') || '.',
                  HINT = 'TRIGGER would run code as the extension''s owner; UPDATE, DELETE and TRUNCATE of a '
                         'derived table would only let a role lock it. See "Roles for ledgers" in docs/operations.md.';
    END IF;
END
$$;
REVOKE ALL ON FUNCTION restrict_table_privileges() FROM PUBLIC;

COMMENT ON FUNCTION restrict_table_privileges() IS
    'Revokes from every role but the owner TRIGGER on the tables of pg_rating and pg_rating_random_chess, '
    'UPDATE, DELETE, TRUNCATE and REFERENCES on their derived tables, and TRUNCATE and REFERENCES on the '
    'engine''s other tables (a WARNING lists what it took back). Run after every GRANT by the event trigger '
    'pg_rating_restrict_table_privileges.';

CREATE FUNCTION restrict_table_privileges_after_grant() RETURNS event_trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM @extschema@.restrict_table_privileges();
END
$$;
REVOKE ALL ON FUNCTION restrict_table_privileges_after_grant() FROM PUBLIC;

COMMENT ON FUNCTION restrict_table_privileges_after_grant() IS
    'Event trigger function of pg_rating_restrict_table_privileges: calls restrict_table_privileges() '
    'after every GRANT.';

CREATE EVENT TRIGGER pg_rating_restrict_table_privileges ON ddl_command_end
    WHEN TAG IN ('GRANT')
    EXECUTE FUNCTION restrict_table_privileges_after_grant();

COMMENT ON EVENT TRIGGER pg_rating_restrict_table_privileges IS
    'After every GRANT, takes back the privileges that only the owner of a pg_rating table may hold '
    '(restrict_table_privileges).';

SELECT @extschema@.restrict_table_privileges();

-- The one PL/pgSQL function that searched the caller's path (issue 31, hole 1)
ALTER FUNCTION ledger_leaderboard(text, text, int, float8, boolean, int, int) SET search_path = pg_catalog, pg_temp;

-- Seeds: one replay per scope and statement (issue 32)
COMMENT ON FUNCTION reseed_ledger() IS 'Row trigger of ledger_seeds: checks a seed (its ledger''s owner, its bounds) and notes its player for reseed_ledger_scopes.';
CREATE FUNCTION reseed_ledger_scopes() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'reseed_ledger_scopes_wrapper';
REVOKE ALL ON FUNCTION reseed_ledger_scopes() FROM PUBLIC;
CREATE TRIGGER reseed_ledger_scopes AFTER INSERT OR UPDATE OR DELETE ON ledger_seeds
    FOR EACH STATEMENT EXECUTE FUNCTION reseed_ledger_scopes();
ALTER FUNCTION reseed_ledger_scopes() SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION reseed_ledger_scopes() IS 'Statement trigger of ledger_seeds: replays each scope whose seeds the statement changed, once, from the earliest first game of its reseeded players.';

-- the extension's comment, as pg_rating.control now has it: the engine, not the Random Chess schema (issue 35)
COMMENT ON EXTENSION pg_rating IS 'Rating engine: Elo, FIDE, Skemino and Glicko-2 ratings, ledgers kept by triggers on any games table, chess positions and openings, Swiss pairing';
