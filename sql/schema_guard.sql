-- The schema that holds pg_rating (and pg_rating_random_chess, created in it) keeps its name. The
-- SQL and PL/pgSQL bodies of both extensions name it as text (@extschema@), looked up again at
-- every call: were it renamed, a schema then made under the old name by a role that may create
-- one (on PostgreSQL 15 the database's owner owns public) would receive those calls, SECURITY
-- DEFINER functions' included, and its objects would run with the rights of their callers,
-- the extension's owner among them. Its owner may still change (ALTER SCHEMA ... OWNER TO).
CREATE FUNCTION refuse_extension_schema_rename() RETURNS event_trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    renamed record;
BEGIN
    FOR renamed IN
        SELECT c.object_identity
        FROM pg_catalog.pg_event_trigger_ddl_commands() c
        JOIN pg_catalog.pg_extension x ON x.extnamespace OPERATOR(pg_catalog.=) c.objid
        WHERE c.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_namespace'::pg_catalog.regclass::pg_catalog.oid
          AND x.extname OPERATOR(pg_catalog.=) 'pg_rating'
          AND c.object_identity OPERATOR(pg_catalog.<>) '@extschema@'
    LOOP
        RAISE EXCEPTION 'schema @extschema@ holds pg_rating and cannot be renamed'
            USING ERRCODE = '0A000',
                  DETAIL = 'Its functions name the schema @extschema@; renamed to ' OPERATOR(pg_catalog.||)
                           renamed.object_identity OPERATOR(pg_catalog.||)
                           ', another schema of that name would receive their calls.';
    END LOOP;
END
$$;
REVOKE ALL ON FUNCTION refuse_extension_schema_rename() FROM PUBLIC;

COMMENT ON FUNCTION refuse_extension_schema_rename() IS
    'Event trigger function of pg_rating_keep_schema_name: refuses (0A000) to rename the schema that holds '
    'pg_rating, whose functions name it.';

CREATE EVENT TRIGGER pg_rating_keep_schema_name ON ddl_command_end
    WHEN TAG IN ('ALTER SCHEMA')
    EXECUTE FUNCTION refuse_extension_schema_rename();

COMMENT ON EVENT TRIGGER pg_rating_keep_schema_name IS
    'Refuses to rename the schema that holds pg_rating (refuse_extension_schema_rename).';

-- Nobody makes a function, procedure or aggregate in that schema with the name of one of pg_rating's
-- (or pg_rating_random_chess's), nor an operator there on one of their types. Calls name
-- pg_rating's functions with its schema, from its own bodies (inlined into the caller's query) and
-- from applications; PostgreSQL resolves such a call among every function of that name in the
-- schema, and one with argument types nearer the call's wins (a `ledger_typed(text, text)` beside
-- pg_rating's `ledger_typed(text, anyelement)`; the constructor of a range type of that name), or
-- makes the call ambiguous. Likewise no built-in operator takes pg_rating's types exactly (only
-- `record = record`), so an operator on them in the schema would receive every comparison of them.
-- On PostgreSQL 15 a database's owner owns public and may create there: its namesake would run with
-- the rights of every caller, a superuser's included.
CREATE FUNCTION extension_namesakes(procs oid[], operators oid[]) RETURNS text
    LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
AS $$
-- (each object looked up by its indexes: the event trigger below runs this for every function
-- and operator any command of the database makes)
WITH ours AS (SELECT array_agg(x.oid) AS extensions, min(x.extnamespace) FILTER (WHERE x.extname = 'pg_rating') AS schema
              FROM pg_extension x WHERE x.extname IN ('pg_rating', 'pg_rating_random_chess'))
SELECT string_agg(found, ', ' ORDER BY found)
FROM (SELECT p.oid::regprocedure::text AS found
      FROM ours, pg_proc p
      WHERE (procs IS NULL OR p.oid = ANY (procs)) AND p.pronamespace = ours.schema
        AND NOT EXISTS (SELECT FROM pg_depend d
                        WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.objsubid = 0
                          AND d.deptype = 'e' AND d.refobjid = ANY (ours.extensions))
        AND EXISTS (SELECT FROM pg_proc m JOIN pg_depend d
                           ON d.classid = 'pg_proc'::regclass AND d.objid = m.oid AND d.objsubid = 0
                          AND d.deptype = 'e' AND d.refobjid = ANY (ours.extensions)
                    WHERE m.proname = p.proname AND m.pronamespace = p.pronamespace)
      UNION ALL
      SELECT 'operator ' || o.oid::regoperator::text
      FROM ours, pg_operator o
      WHERE (operators IS NULL OR o.oid = ANY (operators)) AND o.oprnamespace = ours.schema
        AND NOT EXISTS (SELECT FROM pg_depend d
                        WHERE d.classid = 'pg_operator'::regclass AND d.objid = o.oid AND d.objsubid = 0
                          AND d.deptype = 'e' AND d.refobjid = ANY (ours.extensions))
        AND EXISTS (SELECT FROM pg_type t
                    WHERE t.oid IN (o.oprleft, o.oprright)
                      AND (EXISTS (SELECT FROM pg_depend d
                                   WHERE d.classid = 'pg_type'::regclass AND d.objid = t.oid AND d.objsubid = 0
                                     AND d.deptype = 'e' AND d.refobjid = ANY (ours.extensions))
                           -- (the row type of one of their tables)
                           OR EXISTS (SELECT FROM pg_depend d
                                      WHERE d.classid = 'pg_class'::regclass AND d.objid = t.typrelid
                                        AND d.objsubid = 0 AND d.deptype = 'e'
                                        AND d.refobjid = ANY (ours.extensions))))) f
$$;

COMMENT ON FUNCTION extension_namesakes(oid[], oid[]) IS
    'Those of the given functions and operators (NULL: every one) that are not of pg_rating or '
    'pg_rating_random_chess but, in the schema that holds them, have the name of one of their functions or '
    'take one of their types; NULL when none.';

CREATE FUNCTION refuse_function_namesakes() RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    -- (typed: an untyped NULL would prefer a function of text arguments of that name, made before
    -- pg_rating by anyone who may create in the schema, and run it with the installer's rights)
    PERFORM @extschema@.refuse_namesakes_found(
        @extschema@.extension_namesakes(NULL::pg_catalog.oid[], NULL::pg_catalog.oid[]));
END
$$;

COMMENT ON FUNCTION refuse_function_namesakes() IS
    'Refuses (42723) while the schema that holds pg_rating has a function, procedure or aggregate that is '
    'not of pg_rating or pg_rating_random_chess with the name of one of theirs, or an operator on one of '
    'their types; run at the end of the install and update scripts.';

CREATE FUNCTION refuse_namesakes_found(namesakes text) RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF namesakes IS NOT NULL THEN
        RAISE EXCEPTION 'schema @extschema@ holds pg_rating: no function of another there may have the name of one of pg_rating''s, nor an operator take one of its types'
            USING ERRCODE = '42723',
                  DETAIL = 'Found: ' || namesakes || '. Calls of pg_rating''s functions (its own bodies'' among '
                           'them) and comparisons of its types would reach it, with the rights of each caller.',
                  HINT = 'Give it another name, or create it in another schema.';
    END IF;
END
$$;

COMMENT ON FUNCTION refuse_namesakes_found(text) IS
    'Raises 42723 naming the functions and operators found by extension_namesakes, if any.';

-- (the objects of the command only: one made before, however, locks no other command out)
CREATE FUNCTION refuse_function_namesakes_after_ddl() RETURNS event_trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    made record;
    procs oid[] := '{}';
    operators oid[] := '{}';
BEGIN
    FOR made IN SELECT c.classid, c.objid FROM pg_event_trigger_ddl_commands() c LOOP
        IF made.classid = 'pg_proc'::regclass THEN
            procs := procs || made.objid;
        ELSIF made.classid = 'pg_operator'::regclass THEN
            operators := operators || made.objid;
        ELSIF made.classid = 'pg_type'::regclass THEN
            -- a type's own functions (a range type's constructors, and its multirange type's),
            -- which depend on it
            procs := procs || ARRAY(
                SELECT d.objid FROM pg_depend d
                WHERE d.refclassid = 'pg_type'::regclass AND d.classid = 'pg_proc'::regclass
                  AND (d.refobjid = made.objid
                       OR d.refobjid IN (SELECT t.objid FROM pg_depend t
                                         WHERE t.refclassid = 'pg_type'::regclass AND t.refobjid = made.objid
                                           AND t.classid = 'pg_type'::regclass)));
        ELSIF made.classid = 'pg_extension'::regclass THEN
            procs := procs || ARRAY(SELECT d.objid FROM pg_depend d
                                    WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = made.objid
                                      AND d.classid = 'pg_proc'::regclass AND d.deptype = 'e');
            operators := operators || ARRAY(SELECT d.objid FROM pg_depend d
                                            WHERE d.refclassid = 'pg_extension'::regclass
                                              AND d.refobjid = made.objid
                                              AND d.classid = 'pg_operator'::regclass AND d.deptype = 'e');
        END IF;
    END LOOP;
    IF cardinality(procs) > 0 OR cardinality(operators) > 0 THEN
        PERFORM @extschema@.refuse_namesakes_found(@extschema@.extension_namesakes(procs, operators));
    END IF;
END
$$;
REVOKE ALL ON FUNCTION refuse_function_namesakes_after_ddl() FROM PUBLIC;

COMMENT ON FUNCTION refuse_function_namesakes_after_ddl() IS
    'Event trigger function of pg_rating_keep_function_names: refuses (42723) the functions and operators a '
    'command made or changed that extension_namesakes finds.';

CREATE EVENT TRIGGER pg_rating_keep_function_names ON ddl_command_end
    WHEN TAG IN ('CREATE FUNCTION', 'ALTER FUNCTION', 'CREATE PROCEDURE', 'ALTER PROCEDURE',
                 'ALTER ROUTINE', 'CREATE AGGREGATE', 'ALTER AGGREGATE', 'CREATE TYPE', 'ALTER TYPE',
                 'CREATE OPERATOR', 'ALTER OPERATOR', 'CREATE EXTENSION', 'ALTER EXTENSION')
    EXECUTE FUNCTION refuse_function_namesakes_after_ddl();

COMMENT ON EVENT TRIGGER pg_rating_keep_function_names IS
    'Refuses a function, procedure or aggregate in the schema that holds pg_rating with the name of one of '
    'pg_rating''s, and an operator there on one of its types (refuse_function_namesakes_after_ddl).';
