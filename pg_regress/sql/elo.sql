-- Elo: logistic expectation and fixed-K update.
SELECT elo_expected(1500, 1500) AS even,
       round(elo_expected(1900, 1500)::numeric, 6) AS ten_to_one,
       round(elo_expected(1500, 1900)::numeric, 6) AS one_to_ten,
       round(elo_expected(1613, 1609)::numeric, 4) AS wikipedia;
-- huge gaps saturate instead of overflowing
SELECT elo_expected(0, 1e300) AS zero, elo_expected(1e300, 0) AS one;
-- K = 32 between equals; K = 22 for a 10:1 favourite
SELECT elo_update(1500, 1500, 1, 32) AS win, elo_update(1500, 1500, 0, 32) AS loss,
       elo_update(1500, 1500, 0.5, 32) AS draw, round(elo_update(1900, 1500, 1, 22)::numeric, 9) AS favourite;
-- Wikipedia's five-game example: 1613 scores 2.5 against 1609, 1477, 1388, 1586, 1720 with K = 32 → 1601
SELECT round(1613 + sum(elo_update(1613, o, s, 32) - 1613)) AS new_rating
FROM (VALUES (1609, 0), (1477, 0.5), (1388, 1), (1586, 1), (1720, 0)) AS g(o, s);
-- strict: NULL in, NULL out
SELECT elo_expected(NULL, 1500) IS NULL AS null_in_null_out;
-- properties
SELECT provolatile, proparallel, proisstrict FROM pg_proc WHERE proname IN ('elo_expected', 'elo_update') ORDER BY proname;
SELECT obj_description('elo_update(float8,float8,float8,float8)'::regprocedure) IS NOT NULL AS commented;
-- errors: SQLSTATE and message
CREATE FUNCTION pg_temp.err(q text) RETURNS text LANGUAGE plpgsql AS $f$
BEGIN
    EXECUTE q;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END $f$;
SELECT pg_temp.err($$SELECT elo_expected('NaN', 1500)$$);
SELECT pg_temp.err($$SELECT elo_expected(1500, 'Infinity')$$);
SELECT pg_temp.err($$SELECT elo_update(1500, 1500, 1.5, 32)$$);
SELECT pg_temp.err($$SELECT elo_update(1500, 1500, -0.1, 32)$$);
SELECT pg_temp.err($$SELECT elo_update(1500, 1500, 1, -1)$$);
SELECT pg_temp.err($$SELECT elo_update(1500, 1500, 1, 'NaN')$$);
SELECT pg_temp.err($$SELECT elo_update(1.5e308, 1.5e308, 1, 1e308)$$);
