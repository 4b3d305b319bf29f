-- Privileges that nobody but a table's owner holds on the tables of pg_rating and
-- pg_rating_random_chess, whatever a GRANT (GRANT ALL ON ALL TABLES IN SCHEMA public, say) gave:
--   TRIGGER on every table: a trigger fires inside pg_rating's writers, which run as the extension's
--     owner, so whoever may create one would run code with the owner's rights;
--   REFERENCES on every table: a foreign key of a role's own table with a referential action
--     (ON DELETE CASCADE, say) makes the writers' deletes and updates change that table's rows, and
--     the triggers of that table then fire at the end of the writer's statement, as the extension's
--     owner (and a foreign key holds the referenced rows with locks of its own);
--   UPDATE, DELETE and TRUNCATE on the derived tables (those with refuse_foreign_write): their
--     writes are refused anyway, and these privileges only let a role LOCK TABLE them (every
--     application's writers then wait);
--   TRUNCATE on the engine's other tables (ledgers, ledger_seeds, ledger_seasons): it passes over
--     row-level security and the triggers that replay a ledger.
--   UPDATE, DELETE and TRUNCATE on the views (and TRIGGER and REFERENCES): no view of theirs is written
--     through, and a LOCK TABLE of a view locks the tables behind it with the view owner's rights,
--     derived tables included (Random Chess's leaderboard: elo_history and ranking_players).
--   The same privileges granted on columns (GRANT UPDATE (col), REFERENCES (col)): UPDATE of one
--     column is enough for SELECT ... FOR UPDATE, which holds the writers' rows, and REFERENCES of
--     one column for a foreign key.
--   UPDATE (setval) on the sequences that pg_rating's writers use (the engine's, those of derived
--     tables, and Random Chess's ranking_versions, which keys each backend's cache of the rankings):
--     a sequence set back makes ids collide (every write then fails) or a cache look current.
--     USAGE stays (nextval: an application inserting a ledger).
-- The event trigger below takes them back after every GRANT; the install and update scripts of
-- both extensions call restrict_table_privileges() once at their end (for default privileges).

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
            WITH own AS (
                SELECT c.oid, c.relowner, c.relacl, c.relkind, e.extname,
                       EXISTS (SELECT FROM pg_trigger tg
                               WHERE tg.tgrelid = c.oid AND tg.tgname = 'refuse_foreign_write') AS derived,
                       -- (a sequence that no application's table owns: not the ids of Random Chess's
                       -- users or games, say)
                       c.relkind = 'S' AND (e.extname = 'pg_rating' OR NOT EXISTS (
                           SELECT FROM pg_depend o
                           WHERE o.classid = 'pg_class'::regclass AND o.objid = c.oid
                             AND o.refclassid = 'pg_class'::regclass AND o.deptype IN ('a', 'i')
                             AND NOT EXISTS (SELECT FROM pg_trigger tg
                                             WHERE tg.tgrelid = o.refobjid AND tg.tgname = 'refuse_foreign_write')))
                           AS writers_sequence
                FROM pg_depend d
                JOIN pg_extension e ON e.oid = d.refobjid
                JOIN pg_class c ON c.oid = d.objid
                WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_extension'::regclass
                  AND d.deptype = 'e' AND c.relkind IN ('r', 'v', 'S')
                  AND e.extname IN ('pg_rating', 'pg_rating_random_chess')
            )
            -- privileges on tables, views and sequences
            SELECT t.oid::regclass AS table_name,
                   CASE WHEN t.relkind = 'S' THEN 'SEQUENCE' ELSE 'TABLE' END AS kind,
                   CASE WHEN acl.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(acl.grantee)) END
                       AS grantee,
                   string_agg(acl.privilege_type, ', ' ORDER BY acl.privilege_type) AS privileges
            FROM own t
            CROSS JOIN LATERAL aclexplode(t.relacl) acl
            WHERE acl.grantee <> t.relowner
              AND CASE WHEN t.relkind = 'S' THEN t.writers_sequence AND acl.privilege_type = 'UPDATE'
                  ELSE acl.privilege_type IN ('TRIGGER', 'REFERENCES')
                       OR ((t.derived OR t.relkind = 'v')
                           AND acl.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE'))
                       OR (t.extname = 'pg_rating' AND acl.privilege_type = 'TRUNCATE') END
            GROUP BY t.oid, t.relkind, acl.grantee
            UNION ALL
            -- privileges on their columns
            SELECT t.oid::regclass, 'TABLE',
                   CASE WHEN acl.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(acl.grantee)) END,
                   string_agg(acl.privilege_type || ' (' || quote_ident(a.attname) || ')', ', '
                              ORDER BY acl.privilege_type, a.attnum)
            FROM own t
            JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum > 0 AND a.attacl IS NOT NULL
            CROSS JOIN LATERAL aclexplode(a.attacl) acl
            WHERE acl.grantee <> t.relowner AND t.relkind IN ('r', 'v')
              AND (acl.privilege_type = 'REFERENCES'
                   OR ((t.derived OR t.relkind = 'v') AND acl.privilege_type = 'UPDATE'))
            GROUP BY t.oid, acl.grantee
            ORDER BY 1, 3, 4
        LOOP
            EXECUTE format('REVOKE %s ON %s %s FROM %s CASCADE', held.privileges, held.kind, held.table_name, held.grantee);
            revoked := revoked || format('%s on %s from %s', held.privileges, held.table_name, held.grantee);
        END LOOP;
    END LOOP;
    IF cardinality(revoked) > 0 THEN
        RAISE WARNING 'pg_rating keeps some privileges on its tables to their owner'
            USING DETAIL = 'Revoked ' || array_to_string(revoked, '; ') || '.',
                  HINT = 'TRIGGER, or REFERENCES through a foreign key''s cascade, would run code as the extension''s owner; '
                         'UPDATE, DELETE and TRUNCATE of a derived table or a view would only let a role lock it; '
                         'UPDATE of a sequence of pg_rating''s writers would let a role set it back. '
                         'See "Roles for ledgers" in docs/operations.md.';
    END IF;
END
$$;
REVOKE ALL ON FUNCTION restrict_table_privileges() FROM PUBLIC;

COMMENT ON FUNCTION restrict_table_privileges() IS
    'Revokes from every role but the owner TRIGGER and REFERENCES on the tables of pg_rating and '
    'pg_rating_random_chess, UPDATE, DELETE and TRUNCATE on their derived tables and views, TRUNCATE on the '
    'engine''s other tables, the same privileges granted on columns, and UPDATE on the sequences pg_rating''s '
    'writers use (a WARNING lists what it took back). Run after every GRANT by the event trigger '
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

-- (first, once every function exists: no function made in the schema before pg_rating was
-- installed has the name of one of its functions, which the calls below would reach; see
-- sql/schema_guard.sql)
SELECT @extschema@.refuse_function_namesakes();

SELECT @extschema@.restrict_table_privileges();
