-- game_result and clock_settings: the literals, field names and valid values of the
-- Random Chess schema, and the error every invalid value gets.

-- every valid pair
SELECT t, r, (format('(%s,%s)', t, r)::game_result).game_end_reason = r AS accepted
FROM (VALUES ('1-0'), ('0-1')) AS e(t),
     (VALUES ('UNKNOWN'), ('TIMEOUT'), ('CHECKMATE'), ('RESIGNATION'), ('ABANDONMENT'), ('DEATH')) AS d(r)
ORDER BY t, r;
SELECT r, (format('(1/2-1/2,%s)', r)::game_result).game_end_type AS end_type
FROM (VALUES ('UNKNOWN'), ('TIMEOUT_VS_INSUFFICIENT_MATERIAL'), ('INSUFFICIENT_MATERIAL'),
             ('THREEFOLD_REPETITION'), ('FIFTY_MOVE_RULE'), ('STALEMATE')) AS d(r)
ORDER BY r;

-- literals and field access as apps write them
SELECT '(1-0,TIMEOUT)'::game_result AS result,
       ('(1-0,TIMEOUT)'::game_result).game_end_type AS end_type,
       ('(1/2-1/2,FIFTY_MOVE_RULE)'::game_result).game_end_reason AS reason;
SELECT ROW('0-1', 'CHECKMATE')::game_result AS from_row;

-- invalid results: SQLSTATE 23514 naming the domain
\set VERBOSITY sqlstate
SELECT '(1/2-1/2,CHECKMATE)'::game_result;
\set VERBOSITY default
SELECT '(1/2-1/2,CHECKMATE)'::game_result;
SELECT '(1-0,STALEMATE)'::game_result;
SELECT '(2-0,TIMEOUT)'::game_result;
SELECT '(1-0,timeout)'::game_result;
SELECT '(1-0, TIMEOUT)'::game_result;
SELECT '(1-0,)'::game_result;
SELECT '(,TIMEOUT)'::game_result;
SELECT '(,)'::game_result;
SELECT '(1-0,TIMEOUT,extra)'::game_result;

-- NULL is allowed by the type (columns add NOT NULL themselves)
SELECT NULL::game_result IS NULL AS null_result;
CREATE TEMP TABLE results (r game_result NOT NULL);
INSERT INTO results VALUES ('(0-1,ABANDONMENT)');
INSERT INTO results VALUES (NULL);
INSERT INTO results VALUES ('(0-1,FIFTY_MOVE_RULE)');
UPDATE results SET r.game_end_reason = 'STALEMATE';
SELECT (r).game_end_type, (r).game_end_reason FROM results;

-- clock_settings
SELECT '(3 minutes, 2 seconds)'::clock_settings AS blitz,
       ('(3 minutes, 2 seconds)'::clock_settings).starting_time AS starting_time,
       ('(3 minutes, 2 seconds)'::clock_settings).move_increase AS move_increase;
SELECT '(0,0)'::clock_settings AS zero, '(,)'::clock_settings AS no_clock,
       ('(,)'::clock_settings).starting_time IS NULL AS unset;
SELECT ROW(interval '1 hour', interval '30 seconds')::clock_settings AS from_row;
\set VERBOSITY sqlstate
SELECT '(-1 minutes, 2 seconds)'::clock_settings;
\set VERBOSITY default
SELECT '(-1 minutes, 2 seconds)'::clock_settings;
SELECT '(3 minutes, -2 seconds)'::clock_settings;
SELECT '(3 minutes,)'::clock_settings;
SELECT '(, 2 seconds)'::clock_settings;
SELECT '(1 month -31 days, 0)'::clock_settings;
SELECT '(three minutes, 2 seconds)'::clock_settings;
SELECT NULL::clock_settings IS NULL AS null_clock;

-- game_score
SELECT r, game_score(r::game_result) AS white, game_score(r::game_result, false) AS black
FROM (VALUES ('(1-0,CHECKMATE)'), ('(0-1,TIMEOUT)'), ('(1/2-1/2,STALEMATE)')) AS g(r)
ORDER BY r;
SELECT game_score(NULL) IS NULL AS null_score, game_score('(1-0,DEATH)', NULL) IS NULL AS null_side;

-- clock_base_time
SELECT clock_base_time('(3 minutes, 2 seconds)', 60) AS blitz_base,
       clock_base_time('(10 minutes, 0)', 60) AS rapid_base,
       clock_base_time('(1 day, 1 hour)', 2) AS mixed_units,
       clock_base_time('(,)', 60) AS unset_clock,
       clock_base_time(NULL, 60) AS null_clock,
       clock_base_time('(3 minutes, 2 seconds)', NULL) AS null_multiplier;
\set VERBOSITY sqlstate
SELECT clock_base_time('(1 day, 100000000 days)', 1000);
\set VERBOSITY default
SELECT clock_base_time('(1 day, 100000000 days)', 1000);

-- the functions' declared properties
SELECT p.proname, p.provolatile, p.proisstrict, p.proparallel,
       obj_description(p.oid, 'pg_proc') IS NOT NULL AS commented
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'pg_rating'
WHERE p.proname IN ('game_result_is_valid', 'game_score', 'clock_base_time')
ORDER BY p.proname;
