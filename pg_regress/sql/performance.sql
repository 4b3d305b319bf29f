-- Performance rating on the logistic curve, solved exactly.
SELECT performance_rating('{1800}', 0.5) AS half, round(performance_rating('{1500}', 10.0/11)::numeric, 9) AS ten_to_one,
       round(performance_rating('{1500,1500,1500,1500}', 3)::numeric, 6) AS three_of_four;
-- the defining property: summed expectation equals the score
SELECT s, round((SELECT sum(elo_expected(performance_rating('{1200,2700,1950,2300,1500,2100}', s), o))
                 FROM unnest('{1200,2700,1950,2300,1500,2100}'::float8[]) AS o)::numeric, 9) AS expected_sum
FROM unnest(ARRAY[0.5, 2, 3.5, 5.5]::float8[]) AS s ORDER BY s;
-- zero and full scores: 800 beyond the extreme opponents
SELECT performance_rating('{1500,1700}', 0) AS zero, performance_rating('{1500,1700}', 2) AS full;
SELECT obj_description('performance_rating(float8[],float8)'::regprocedure) IS NOT NULL AS commented;
-- errors: SQLSTATE and message
CREATE FUNCTION pg_temp.err(q text) RETURNS text LANGUAGE plpgsql AS $f$
BEGIN
    EXECUTE q;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END $f$;
SELECT pg_temp.err($$SELECT performance_rating('{}', 0)$$);
SELECT pg_temp.err($$SELECT performance_rating('{1500}', 1.5)$$);
SELECT pg_temp.err($$SELECT performance_rating('{1500}', -0.5)$$);
SELECT pg_temp.err($$SELECT performance_rating('{NaN}', 0.5)$$);
SELECT pg_temp.err($$SELECT performance_rating('{1500}', 'Infinity')$$);
SELECT pg_temp.err($$SELECT performance_rating('{1500,NULL}', 1)$$);
