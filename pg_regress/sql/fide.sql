-- FIDE Rating Regulations (1 March 2024, amended 1 October 2025) and performance tie-breaks.
SELECT fide_expected(1500, 1500) AS even, fide_expected(2000, 1900) AS d100, fide_expected(1900, 2000) AS minus100,
       fide_expected(2000, 1000) AS capped, fide_expected(1000, 2000) AS capped_low,
       fide_expected(2649, 1800) AS below_2650, fide_expected(2650, 1800) AS from_2650;
-- band edges of table 8.1.2
SELECT d, fide_expected(2000 + d, 2000) AS pd FROM unnest(ARRAY[0, 3, 4, 10, 11, 98, 99, 391, 392, 400]) AS d ORDER BY d;
-- K factor
SELECT fide_k_factor(1500, 0) AS new_player, fide_k_factor(2100, 100, 17) AS junior,
       fide_k_factor(2100, 100, 18) AS year_of_18th, fide_k_factor(2100, 100, 19) AS adult,
       fide_k_factor(2300, 100, 16) AS junior_2300, fide_k_factor(2400, 100) AS k10,
       fide_k_factor(2350, 100, 40, true) AS once_2400, fide_k_factor(NULL, 100) AS null_rating,
       fide_k_factor(2100, 100, NULL, NULL) AS null_extras;
-- rating change: scalachess EloTest vectors (K = 40, one game)
SELECT r, o, s, fide_rating_change(r, 40, ARRAY[o], ARRAY[s]) AS change
FROM (VALUES (1500, 1500, 1.0), (1500, 1900, 1.0), (1500, 1900, 0.0), (1500, 1900, 0.5),
             (1500, 2900, 0.5), (1500, 1600, 1.0), (2000, 1600, 0.5), (2000, 1000, 0.0), (2000, 1900, 0.5)) AS v(r, o, s)
ORDER BY r, o, s;
-- K*n <= 700: twenty wins between equals at K = 40 count with K = 35
SELECT fide_rating_change(2000, 40, array_fill(2000, ARRAY[20]), array_fill(1.0::float8, ARRAY[20])) AS twenty_wins;
-- halves away from zero; 2650+ uses the real difference
SELECT fide_rating_change(2036, 10, '{2000}', '{1}') AS plus_half, fide_rating_change(1964, 10, '{2000}', '{0}') AS minus_half,
       fide_rating_change(2750, 10, '{1800}', '{1}') AS top_win, fide_rating_change(2750, 10, '{1800}', '{0.5}') AS top_draw,
       fide_rating_change(2000, 20, '{}', '{}') AS no_games;
-- TPR: scalachess EloTest performance vectors and the echecsjs example (2373)
SELECT fide_tpr('{1500}', 1) AS win, fide_tpr('{1500}', 0) AS loss, fide_tpr('{1500,1700}', 1) AS split,
       fide_tpr('{1500,1500}', 1.5) AS win_draw, fide_tpr('{1500,1500,1500}', 2) AS two_of_three,
       fide_tpr('{2200,2100,2000}', 2.5) AS echecs;
-- PTP
SELECT fide_ptp('{2100,2200}', 0) AS zero, fide_ptp('{2000}', 0.5) AS draw, fide_ptp('{2000}', 1) AS win,
       fide_ptp('{2400,2210,2050,1980,1875}', 3) AS mixed;
SELECT count(*) AS commented FROM pg_proc WHERE proname LIKE 'fide\_%' AND obj_description(oid, 'pg_proc') IS NOT NULL;
-- errors: SQLSTATE and message
CREATE FUNCTION pg_temp.err(q text) RETURNS text LANGUAGE plpgsql AS $f$
BEGIN
    EXECUTE q;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END $f$;
SELECT pg_temp.err($$SELECT fide_k_factor(1500, -1)$$);
SELECT pg_temp.err($$SELECT fide_k_factor(1500, 40, -3)$$);
SELECT pg_temp.err($$SELECT fide_rating_change(2000, 20, '{1900,1800}', '{1}')$$);
SELECT pg_temp.err($$SELECT fide_rating_change(2000, 20, '{1900}', '{0.7}')$$);
SELECT pg_temp.err($$SELECT fide_rating_change(2000, 0, '{1900}', '{1}')$$);
SELECT pg_temp.err($$SELECT fide_rating_change(2000, 20, '{1900}', '{NaN}')$$);
SELECT pg_temp.err($$SELECT fide_rating_change(2000, 20, '{NULL}', '{1}')$$);
SELECT pg_temp.err($$SELECT fide_tpr('{}', 0)$$);
SELECT pg_temp.err($$SELECT fide_tpr('{1500}', 1.5)$$);
SELECT pg_temp.err($$SELECT fide_tpr('{1500,1600}', 0.3)$$);
SELECT pg_temp.err($$SELECT fide_tpr('{1500}', 'NaN')$$);
SELECT pg_temp.err($$SELECT fide_ptp('{}', 0)$$);
SELECT pg_temp.err($$SELECT fide_ptp('{1500,NULL}', 1)$$);
