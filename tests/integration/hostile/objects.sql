-- Run as a database owner who is not a superuser (on PostgreSQL 15 it may create in public, the
-- extensions' schema): operators and functions in public that would win over pg_catalog's for
-- pg_rating's SQL if that SQL resolved names in public. Each one records who ran it in
-- public.hijacked and then does what the built-in does, so a hijack changes no result.
CREATE TABLE public.hijacked (who name NOT NULL, what text NOT NULL);
GRANT INSERT, SELECT ON public.hijacked TO PUBLIC;

CREATE FUNCTION public.hijack_note(what text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO public.hijacked VALUES (current_user, what);
END
$$;

-- Operators: every pair of these types for which pg_catalog has no operator of exactly that
-- pair (pg_catalog's exact ones are found first, so a twin in public is never chosen).
DO $$
DECLARE
    types text[] := ARRAY['text', 'varchar', 'bpchar', 'name', '"char"', 'int2', 'int4', 'int8', 'numeric',
                          'float4', 'float8', 'oid', 'regclass', 'regtype', 'regrole', 'regnamespace', 'regproc',
                          'bool', 'timestamptz', 'timestamp', 'date', 'interval', 'jsonb', 'uuid', 'bytea',
                          'text[]', 'varchar[]', 'int4[]', 'name[]', 'float8[]'];
    ops text[] := ARRAY['=', '<>', '<', '>', '<=', '>=', '||', '~~', '+', '-', '*', '/', '@>', '<@', '&&'];
    l text; r text; op text; n int := 0;
BEGIN
    FOREACH l IN ARRAY types LOOP
        FOREACH r IN ARRAY types LOOP
            FOREACH op IN ARRAY ops LOOP
                CONTINUE WHEN EXISTS (SELECT FROM pg_catalog.pg_operator o
                                      WHERE o.oprname = op AND o.oprleft = l::regtype AND o.oprright = r::regtype
                                        AND o.oprnamespace = 'pg_catalog'::regnamespace);
                -- (the comparison and arithmetic pg_catalog would do on these values, as text when none)
                n := n + 1;
                EXECUTE format(
                    'CREATE FUNCTION public.hijack_op_%s(a %s, b %s) RETURNS %s LANGUAGE plpgsql AS $f$
                     BEGIN PERFORM public.hijack_note(%L); RETURN NULL; END $f$',
                    n, l, r, CASE WHEN op IN ('=', '<>', '<', '>', '<=', '>=', '~~', '@>', '<@', '&&') THEN 'bool'
                                  ELSE l END,
                    format('%s %s %s', l, op, r));
                EXECUTE format('CREATE OPERATOR public.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = public.hijack_op_%s)',
                               op, l, r, n);
                IF n % 200 = 0 THEN
                    COMMIT;  -- (thousands of objects hold more locks than one transaction may)
                END IF;
            END LOOP;
        END LOOP;
    END LOOP;
    RAISE NOTICE 'hostile operators: %', n;
END
$$;

-- Functions and aggregates: a twin of every built-in that pg_rating's SQL calls (the names are
-- read from the extensions' source by the test), for argument types pg_catalog has only through a
-- cast or a polymorphic signature.
CREATE TABLE public.hostile_names (name text PRIMARY KEY);
