-- The Random Chess schema: a client of the pg_rating engine, installed by
-- CREATE EXTENSION pg_rating_random_chess (CASCADE creates pg_rating first).
-- It goes into the schema of pg_rating (public unless pg_rating was created elsewhere): its
-- tables use the engine's types, its functions and views call the engine's functions, and its
-- pinned search_paths name that one schema.
DO $$
DECLARE
    engine text := (SELECT n.nspname FROM pg_catalog.pg_extension e
                    JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
                    WHERE e.extname = 'pg_rating');
BEGIN
    IF engine IS DISTINCT FROM '@extschema@' THEN
        RAISE EXCEPTION 'pg_rating_random_chess must be created in schema %, where pg_rating is', engine
            USING ERRCODE = 'invalid_schema_name',
                  HINT = format('CREATE EXTENSION pg_rating_random_chess SCHEMA %I', engine);
    END IF;
END
$$;
