#!/usr/bin/env bash
# Hostile objects in public (issue 31, hole 1): a database owner who is not a superuser may create
# in public, the extensions' schema, on PostgreSQL 15. It creates there an operator for every
# pair of types that pg_catalog has no exact operator for, and a twin of every built-in function
# and aggregate that pg_rating's SQL calls, each recording who ran it. Then a superuser with the
# default search_path runs every trigger path and function of both extensions that runs SQL
# (hostile/workload.sql; prevent_service_game_deletion and refuse_truncate always raise, and a call
# that raises is not counted, so they are run but not counted), and the test asserts that (1) none of the hostile objects ran, (2) every
# trigger function and every SECURITY DEFINER function of both extensions was called, and (3) no
# function of either extension searches a schema other than pg_catalog and pg_temp.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
db=$PGDATABASE
# (the test's own statements search pg_catalog alone: public holds the hostile objects)
q() { PGOPTIONS="-c search_path=pg_catalog" psql -X -q -v ON_ERROR_STOP=1 -At -d "$db" "$@"; }
fail() { echo "FAIL: $*"; exit 1; }

q -c "DROP ROLE IF EXISTS hostile_owner" -c "CREATE ROLE hostile_owner" -c "ALTER DATABASE $db OWNER TO hostile_owner"

# The names of the built-ins pg_rating's SQL calls: every identifier before '(' in its SQL and Rust.
names=$(cat "$here"/../../sql/*.sql "$here"/../../sql/glue/*.sql "$here"/../../sql/random_chess/*.sql \
            "$here"/../../sql/random_chess/glue/*.sql \
            $(find "$here"/../../src -name '*.rs') \
        | grep -oE '\b[a-z_][a-z0-9_]*\s*\(' | tr -d ' (' | sort -u)
q -c "SET ROLE hostile_owner" -f "$here/hostile/objects.sql" 2>&1 | grep -v '^$' || true
printf '%s\n' $names | q -c "SET ROLE hostile_owner" -c "COPY public.hostile_names FROM STDIN"
q -c "SET ROLE hostile_owner" -f "$here/hostile/functions.sql" 2>&1 | grep -v '^$' || true
# The extensions created anew while the hostile objects exist, as a superuser with the default
# search_path: the expressions their scripts store (views, CHECK constraints, trigger conditions,
# policies) must bind no operator or function of public either.
psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "DROP EXTENSION pg_rating_random_chess, pg_rating CASCADE" \
    -c "CREATE EXTENSION pg_rating_random_chess CASCADE" 2>&1 | grep -v '^NOTICE:  installing required' || true
bound=$(q -c "SELECT string_agg(pg_describe_object(d.classid, d.objid, d.objsubid) || ' uses '
                                || pg_describe_object(d.refclassid, d.refobjid, 0), '; ' ORDER BY 1)
              FROM pg_depend d
              WHERE (d.refclassid = 'pg_operator'::regclass
                     AND d.refobjid IN (SELECT oid FROM pg_operator WHERE oprowner = 'hostile_owner'::regrole))
                 OR (d.refclassid = 'pg_proc'::regclass
                     AND d.refobjid IN (SELECT oid FROM pg_proc WHERE proowner = 'hostile_owner'::regrole)
                     AND d.classid NOT IN ('pg_proc'::regclass, 'pg_operator'::regclass))")
[[ -z "$bound" ]] || fail "objects of the extensions bound to hostile objects when created: $bound"
echo "the extensions created with the hostile objects in place bind none of them"
echo "hostile objects in public: $(q -c "SELECT count(*) FROM pg_operator WHERE oprnamespace OPERATOR(pg_catalog.=) 'public'::regnamespace") operators, $(q -c "SELECT count(*) FROM pg_proc WHERE pronamespace OPERATOR(pg_catalog.=) 'public'::regnamespace AND proname !~ '^hijack_'") functions and aggregates"

# (3) every function of both extensions: a search_path of pg_catalog and pg_temp only, or none
bad=$(q -c "SELECT string_agg(p.oid::regprocedure::text || ' ' || c, ', ')
            FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
            JOIN pg_extension x ON x.oid = d.refobjid AND x.extname IN ('pg_rating', 'pg_rating_random_chess')
            CROSS JOIN LATERAL unnest(p.proconfig) c
            WHERE c LIKE 'search_path=%' AND c <> 'search_path=pg_catalog, pg_temp'")
[[ -z "$bad" ]] || fail "functions that search other schemas: $bad"
# (a PL/pgSQL function is never inlined: it has no reason to search the caller's path)
bad=$(q -c "SELECT string_agg(p.oid::regprocedure::text, ', ')
            FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
            JOIN pg_extension x ON x.oid = d.refobjid AND x.extname IN ('pg_rating', 'pg_rating_random_chess')
            WHERE p.prolang = (SELECT oid FROM pg_language WHERE lanname = 'plpgsql') AND p.proconfig IS NULL")
[[ -z "$bad" ]] || fail "PL/pgSQL functions that search the caller's path: $bad"
echo "every function with a search_path pins pg_catalog, pg_temp"

# (1) and (2): the workload in one session, as the superuser with the default search_path, on
# the extensions created with the hostile objects in place
psql -X -q -v ON_ERROR_STOP=1 -At -d "$db" -f "$here/hostile/workload.sql" >/dev/null
q -c "SELECT pg_stat_force_next_flush()" >/dev/null
hijacks=$(q -c "SELECT count(*) FROM public.hijacked")
if [[ "$hijacks" != 0 ]]; then
    q -c "SELECT who, what, count(*) FROM public.hijacked GROUP BY 1, 2 ORDER BY 3 DESC"
    fail "$hijacks calls of hostile objects in public"
fi
echo "no hostile operator or function ran"
sleep 1
missed=$(q -c "SELECT string_agg(p.oid::regprocedure::text, ', ' ORDER BY 1)
               FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
               JOIN pg_extension x ON x.oid = d.refobjid AND x.extname IN ('pg_rating', 'pg_rating_random_chess')
               LEFT JOIN pg_stat_user_functions s ON s.funcid = p.oid
               WHERE (p.prosecdef OR p.prorettype = 'trigger'::regtype) AND coalesce(s.calls, 0) = 0
                 AND p.proname NOT IN ('prevent_service_game_deletion', 'refuse_truncate')")
[[ -z "$missed" ]] || fail "trigger or SECURITY DEFINER functions the workload did not run: $missed"
echo "every trigger function and SECURITY DEFINER function of both extensions ran"

# (4) a function made in public before CREATE EXTENSION under the name of one of pg_rating's stops
# the install (42723), and the install's own check calls pg_rating's function, not it (an untyped
# NULL argument would have preferred this one's text arguments)
psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "SET client_min_messages = warning" \
    -c "DROP EXTENSION pg_rating_random_chess, pg_rating CASCADE"
q -c "SET ROLE hostile_owner" \
  -c "CREATE FUNCTION public.extension_namesakes(a text, b text) RETURNS text LANGUAGE plpgsql AS
      \$\$ BEGIN PERFORM public.hijack_note('extension_namesakes(text, text)'); RETURN NULL; END \$\$"
if out=$(psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION pg_rating_random_chess CASCADE" 2>&1); then
    fail "the extensions were installed beside a function named like one of theirs"
fi
grep -q 'public.extension_namesakes(text,text)' <<<"$out" || fail "the install did not name the namesake: $out"
hijacks=$(q -c "SELECT count(*) FROM public.hijacked")
[[ "$hijacks" == 0 ]] || fail "the install ran the namesake in public"
q -c "DROP FUNCTION public.extension_namesakes(text, text)"
psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION pg_rating_random_chess CASCADE" 2>&1 \
    | grep -v '^NOTICE:  installing required' || true
echo "a function named like one of pg_rating's, made before the install, stops it and never runs"
