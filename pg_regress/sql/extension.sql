-- The extensions as a DBA sees them: the engine, pg_rating, and the Random Chess schema that
-- requires it; what they are, and that DROP removes all of them.
CREATE EXTENSION pg_rating_random_chess CASCADE;
SELECT extname, extversion, extrelocatable, n.nspname AS schema, extrequires
FROM (SELECT e.*, (SELECT array_agg(r.extname) FROM pg_depend d JOIN pg_extension r ON r.oid = d.refobjid
                   WHERE d.classid = 'pg_extension'::regclass AND d.objid = e.oid
                     AND d.refclassid = 'pg_extension'::regclass) AS extrequires
      FROM pg_extension e) e
JOIN pg_namespace n ON n.oid = e.extnamespace
WHERE extname LIKE 'pg_rating%' ORDER BY 1;
-- the versions an installed database can be updated from, and how
SELECT source, target, path FROM pg_extension_update_paths('pg_rating') WHERE path IS NOT NULL ORDER BY 1, 2;
SELECT source, target, path FROM pg_extension_update_paths('pg_rating_random_chess') WHERE path IS NOT NULL
ORDER BY 1, 2;

-- every function of both has a comment and a declared volatility
SELECT e.extname, count(*) FILTER (WHERE obj_description(p.oid, 'pg_proc') IS NULL) AS functions_without_comment
FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname LIKE 'pg_rating%'
GROUP BY 1 ORDER BY 1;

-- the engine stays while its client does, and a user object built on its types blocks a plain DROP
DROP EXTENSION pg_rating;
DROP EXTENSION pg_rating_random_chess;
CREATE TABLE my_games (result game_result NOT NULL, clock clock_settings);
DROP EXTENSION pg_rating;
DROP TABLE my_games;

-- DROP EXTENSION leaves nothing behind
CREATE TEMP TABLE owned AS
SELECT classid::regclass AS catalog, pg_describe_object(classid, objid, objsubid) AS object
FROM pg_depend
WHERE refclassid = 'pg_extension'::regclass
  AND refobjid = (SELECT oid FROM pg_extension WHERE extname = 'pg_rating');
SELECT count(*) > 0 AS owns_objects FROM owned;
DROP EXTENSION pg_rating;
SELECT count(*) AS extensions_left FROM pg_extension WHERE extname LIKE 'pg_rating%';
SELECT count(*) AS types_left FROM pg_type
WHERE typname IN ('game_result', 'game_result_type', 'clock_settings', 'clock_settings_type');
SELECT count(*) AS functions_left FROM pg_proc WHERE probin LIKE '%pg_rating%';
SELECT count(*) AS tables_left FROM pg_class WHERE relname IN ('users', 'service_games', 'ledgers');

-- and they can be created again, here and in a second database of the same cluster
CREATE EXTENSION pg_rating_random_chess CASCADE;
SELECT game_score('(0-1,TIMEOUT)', false) AS works_again, count(*) AS rankings FROM rankings;
CREATE DATABASE regress_extension_second;
\c regress_extension_second
CREATE EXTENSION pg_rating;
SELECT game_score('(1/2-1/2,STALEMATE)') AS works_in_second_database;
\c regress_extension
DROP DATABASE regress_extension_second;

-- a schema of the DBA's choice; the Random Chess schema goes where the engine is
DROP EXTENSION pg_rating CASCADE;
CREATE SCHEMA rating;
CREATE EXTENSION pg_rating SCHEMA rating;
SELECT rating.game_score('(1-0,TIMEOUT)'::rating.game_result) AS in_own_schema;
SELECT '(1/2-1/2,CHECKMATE)'::rating.game_result;
CREATE EXTENSION pg_rating_random_chess;
CREATE EXTENSION pg_rating_random_chess SCHEMA rating;
SELECT count(*) AS users_in_rating FROM rating.users;
DROP EXTENSION pg_rating_random_chess;
ALTER EXTENSION pg_rating SET SCHEMA public;
DROP EXTENSION pg_rating;
DROP SCHEMA rating;
CREATE EXTENSION pg_rating;
