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
-- (or pg_rating_random_chess's). Calls name pg_rating's functions with its schema, from its own
-- bodies (inlined into the caller's query) and from applications; PostgreSQL resolves such a call
-- among every function of that name in the schema, and one with argument types nearer the call's
-- wins (a `ledger_typed(text, text)` beside pg_rating's `ledger_typed(text, anyelement)`), or makes
-- the call ambiguous. On PostgreSQL 15 a database's owner owns public and may create there: its
-- namesake would run with the rights of every caller, a superuser's included.
CREATE FUNCTION refuse_function_namesakes() RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    namesakes text;
BEGIN
    WITH member AS (
        SELECT p.oid, p.proname, p.pronamespace
        FROM pg_catalog.pg_proc p
        JOIN pg_catalog.pg_depend d
          ON d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
         AND d.objid OPERATOR(pg_catalog.=) p.oid AND d.deptype OPERATOR(pg_catalog.=) 'e'
        JOIN pg_catalog.pg_extension x ON x.oid OPERATOR(pg_catalog.=) d.refobjid
        WHERE x.extname OPERATOR(pg_catalog.=) ANY ('{pg_rating,pg_rating_random_chess}'::pg_catalog.name[])
    )
    SELECT pg_catalog.string_agg(p.oid::pg_catalog.regprocedure::pg_catalog.text, ', '
                                 ORDER BY p.oid::pg_catalog.regprocedure::pg_catalog.text)
    INTO namesakes
    FROM pg_catalog.pg_proc p
    WHERE EXISTS (SELECT FROM member m
                  WHERE m.proname OPERATOR(pg_catalog.=) p.proname
                    AND m.pronamespace OPERATOR(pg_catalog.=) p.pronamespace)
      AND NOT EXISTS (SELECT FROM member m WHERE m.oid OPERATOR(pg_catalog.=) p.oid);
    IF namesakes IS NOT NULL THEN
        RAISE EXCEPTION 'schema @extschema@ holds pg_rating: a function of its own there cannot have the name of one of pg_rating''s'
            USING ERRCODE = '42723',
                  DETAIL = 'Named like pg_rating''s: ' OPERATOR(pg_catalog.||) namesakes OPERATOR(pg_catalog.||)
                           '. Calls of pg_rating''s functions (its own bodies'' among them) would reach it, with '
                           'the rights of each caller.',
                  HINT = 'Give it another name, or create it in another schema.';
    END IF;
END
$$;
COMMENT ON FUNCTION refuse_function_namesakes() IS
    'Refuses (42723) while the schema that holds pg_rating has a function, procedure or aggregate that is '
    'not of pg_rating or pg_rating_random_chess with the name of one of theirs; run after every command '
    'that creates or changes one (event trigger pg_rating_keep_function_names) and at the end of the '
    'install and update scripts.';

CREATE FUNCTION refuse_function_namesakes_after_ddl() RETURNS event_trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM @extschema@.refuse_function_namesakes();
END
$$;
REVOKE ALL ON FUNCTION refuse_function_namesakes_after_ddl() FROM PUBLIC;

COMMENT ON FUNCTION refuse_function_namesakes_after_ddl() IS
    'Event trigger function of pg_rating_keep_function_names: calls refuse_function_namesakes().';

CREATE EVENT TRIGGER pg_rating_keep_function_names ON ddl_command_end
    WHEN TAG IN ('CREATE FUNCTION', 'ALTER FUNCTION', 'CREATE PROCEDURE', 'ALTER PROCEDURE',
                 'ALTER ROUTINE', 'CREATE AGGREGATE', 'ALTER AGGREGATE', 'CREATE EXTENSION',
                 'ALTER EXTENSION')
    EXECUTE FUNCTION refuse_function_namesakes_after_ddl();

COMMENT ON EVENT TRIGGER pg_rating_keep_function_names IS
    'Refuses a function, procedure or aggregate in the schema that holds pg_rating with the name of one of '
    'pg_rating''s (refuse_function_namesakes).';
