-- For every name in public.hostile_names that pg_catalog has as a function or aggregate of one to
-- three arguments: a twin in public whose argument types are the concrete types pg_rating passes
-- (varchar, name, text, int4, int8, float8, numeric, timestamptz, arrays) where pg_catalog's are
-- polymorphic, "any", or text (reached from varchar by a cast).
DO $$
DECLARE
    p record; sig text[]; combos text[][]; args text; n int := 0; i int;
    concrete text[] := ARRAY['varchar', 'text', 'name', 'int4', 'int8', 'float8', 'numeric', 'timestamptz',
                             'varchar[]', 'text[]', 'int4[]', 'float8[]', 'jsonb', 'oid', 'regclass'];
    c text;
BEGIN
    FOR p IN
        SELECT DISTINCT pr.proname, pr.prokind, pr.pronargs,
               array(SELECT format_type(t, NULL) FROM unnest(pr.proargtypes) t) AS argtypes
        FROM pg_catalog.pg_proc pr JOIN public.hostile_names h ON h.name = pr.proname
        WHERE pr.pronamespace = 'pg_catalog'::regnamespace AND pr.pronargs BETWEEN 1 AND 3
          AND pr.prokind IN ('f', 'a') AND NOT pr.proretset
    LOOP
        -- one twin per concrete type at each replaceable position (others kept)
        FOR i IN 1 .. p.pronargs LOOP
            CONTINUE WHEN p.argtypes[i] NOT IN ('anyelement', 'anyarray', 'anynonarray', 'anycompatible',
                                                 'anycompatiblearray', 'anycompatiblenonarray', '"any"', 'text');
            FOREACH c IN ARRAY concrete LOOP
                CONTINUE WHEN c = p.argtypes[i];
                sig := p.argtypes;
                sig[i] := c;
                -- other polymorphic positions follow the concrete type's element or array
                FOR j IN 1 .. p.pronargs LOOP
                    IF j <> i AND sig[j] IN ('anyelement', 'anynonarray', 'anycompatible', 'anycompatiblenonarray', '"any"') THEN
                        sig[j] := CASE WHEN c LIKE '%[]' THEN rtrim(c, '[]') ELSE c END;
                    ELSIF j <> i AND sig[j] IN ('anyarray', 'anycompatiblearray') THEN
                        sig[j] := CASE WHEN c LIKE '%[]' THEN c ELSE c || '[]' END;
                    END IF;
                END LOOP;
                args := array_to_string(sig, ', ');
                CONTINUE WHEN to_regprocedure(format('pg_catalog.%I(%s)', p.proname, args)) IS NOT NULL
                           OR to_regprocedure(format('public.%I(%s)', p.proname, args)) IS NOT NULL;
                BEGIN
                    IF p.prokind = 'a' THEN
                        EXECUTE format('CREATE FUNCTION public.hijack_agg_%s(s int8, %s) RETURNS int8 LANGUAGE plpgsql AS
                                        $f$ BEGIN PERFORM public.hijack_note(%L); RETURN s; END $f$',
                                       n, args, format('aggregate %s(%s)', p.proname, args));
                        EXECUTE format('CREATE AGGREGATE public.%I(%s) (SFUNC = public.hijack_agg_%s, STYPE = int8, INITCOND = 0)',
                                       p.proname, args, n);
                    ELSE
                        EXECUTE format('CREATE FUNCTION public.%I(%s) RETURNS text LANGUAGE plpgsql AS
                                        $f$ BEGIN PERFORM public.hijack_note(%L); RETURN NULL; END $f$',
                                       p.proname, args, format('function %s(%s)', p.proname, args));
                    END IF;
                    n := n + 1;
                EXCEPTION WHEN OTHERS THEN
                    NULL;  -- a signature PostgreSQL does not accept for a plain function
                END;
                IF n % 200 = 0 THEN
                    COMMIT;  -- (thousands of objects hold more locks than one transaction may)
                END IF;
            END LOOP;
        END LOOP;
    END LOOP;
    RAISE NOTICE 'hostile functions: %', n;
END
$$;
