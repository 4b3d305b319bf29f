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
