-- Timed statements of bench/rating.sh; lines "BENCH <label>" name the next timing.
\set ON_ERROR_STOP on
SET work_mem = '1GB';
SET jit = off;
SET search_path = rb, public;
\timing on

\echo BENCH rate_period
SELECT count(*), round(sum((r.rating).rating)) FROM
    (SELECT array_agg(id) AS ids, array_agg(r) AS rs FROM players) AS p,
    (SELECT array_agg(white) AS w, array_agg(black) AS b, array_agg(score) AS s FROM games) AS g,
    glicko2_rate_period(p.ids, p.rs, g.w, g.b, g.s) AS r;
\echo BENCH rate_period
SELECT count(*), round(sum((r.rating).rating)) FROM
    (SELECT array_agg(id) AS ids, array_agg(r) AS rs FROM players) AS p,
    (SELECT array_agg(white) AS w, array_agg(black) AS b, array_agg(score) AS s FROM games) AS g,
    glicko2_rate_period(p.ids, p.rs, g.w, g.b, g.s) AS r;

\echo BENCH rate_period_plumbing
SELECT cardinality(p.ids) + cardinality(p.rs) + cardinality(g.w) + cardinality(g.b) + cardinality(g.s) FROM
    (SELECT array_agg(id) AS ids, array_agg(r) AS rs FROM players) AS p,
    (SELECT array_agg(white) AS w, array_agg(black) AS b, array_agg(score) AS s FROM games) AS g;
\echo BENCH rate_period_plumbing
SELECT cardinality(p.ids) + cardinality(p.rs) + cardinality(g.w) + cardinality(g.b) + cardinality(g.s) FROM
    (SELECT array_agg(id) AS ids, array_agg(r) AS rs FROM players) AS p,
    (SELECT array_agg(white) AS w, array_agg(black) AS b, array_agg(score) AS s FROM games) AS g;

\echo BENCH rate_period_function_only
SELECT count(*), round(sum((r.rating).rating)) FROM arrs, glicko2_rate_period(arrs.ids, arrs.rs, arrs.w, arrs.b, arrs.s) AS r;
\echo BENCH rate_period_function_only
SELECT count(*), round(sum((r.rating).rating)) FROM arrs, glicko2_rate_period(arrs.ids, arrs.rs, arrs.w, arrs.b, arrs.s) AS r;
\echo BENCH detoast_only
SELECT cardinality(ids) + cardinality(rs) + cardinality(w) + cardinality(b) + cardinality(s) FROM arrs;
\echo BENCH detoast_only
SELECT cardinality(ids) + cardinality(rs) + cardinality(w) + cardinality(b) + cardinality(s) FROM arrs;

\echo BENCH aggregate
WITH sides AS (SELECT white AS player, black AS opponent, score FROM games
               UNION ALL SELECT black, white, 1 - score FROM games)
SELECT count(*), round(sum((x.r).rating)) FROM
    (SELECT p.id, glicko2_period(p.r, o.r, s.score) AS r
     FROM sides s JOIN players p ON p.id = s.player JOIN players o ON o.id = s.opponent GROUP BY p.id) AS x;
\echo BENCH aggregate
WITH sides AS (SELECT white AS player, black AS opponent, score FROM games
               UNION ALL SELECT black, white, 1 - score FROM games)
SELECT count(*), round(sum((x.r).rating)) FROM
    (SELECT p.id, glicko2_period(p.r, o.r, s.score) AS r
     FROM sides s JOIN players p ON p.id = s.player JOIN players o ON o.id = s.opponent GROUP BY p.id) AS x;

\echo BENCH aggregate_plumbing
WITH sides AS (SELECT white AS player, black AS opponent, score FROM games
               UNION ALL SELECT black, white, 1 - score FROM games)
SELECT count(*), round(sum(x.n)) FROM
    (SELECT p.id, count(o.r) + sum(s.score) AS n
     FROM sides s JOIN players p ON p.id = s.player JOIN players o ON o.id = s.opponent GROUP BY p.id) AS x;
\echo BENCH aggregate_plumbing
WITH sides AS (SELECT white AS player, black AS opponent, score FROM games
               UNION ALL SELECT black, white, 1 - score FROM games)
SELECT count(*), round(sum(x.n)) FROM
    (SELECT p.id, count(o.r) + sum(s.score) AS n
     FROM sides s JOIN players p ON p.id = s.player JOIN players o ON o.id = s.opponent GROUP BY p.id) AS x;

\echo BENCH array_agg_update
WITH sides AS (SELECT white AS player, black AS opponent, score FROM games
               UNION ALL SELECT black, white, 1 - score FROM games)
SELECT count(*), round(sum((x.r).rating)) FROM
    (SELECT p.id, glicko2_update(p.r, array_agg(o.r), array_agg(s.score)) AS r
     FROM sides s JOIN players p ON p.id = s.player JOIN players o ON o.id = s.opponent GROUP BY p.id) AS x;
\echo BENCH array_agg_update
WITH sides AS (SELECT white AS player, black AS opponent, score FROM games
               UNION ALL SELECT black, white, 1 - score FROM games)
SELECT count(*), round(sum((x.r).rating)) FROM
    (SELECT p.id, glicko2_update(p.r, array_agg(o.r), array_agg(s.score)) AS r
     FROM sides s JOIN players p ON p.id = s.player JOIN players o ON o.id = s.opponent GROUP BY p.id) AS x;

-- per-call cost of single-game functions: 1,000,000 calls
\echo BENCH elo_update_1m
SELECT round(sum(elo_update(1000 + (i % 1500), 2500 - (i % 1300), (i % 3) / 2.0, 20))) FROM generate_series(1, 1000000) AS i;
\echo BENCH elo_update_1m
SELECT round(sum(elo_update(1000 + (i % 1500), 2500 - (i % 1300), (i % 3) / 2.0, 20))) FROM generate_series(1, 1000000) AS i;
\echo BENCH plain_sql_1m
SELECT round(sum((1000 + (i % 1500)) + 20 * ((i % 3) / 2.0 - 0.5))) FROM generate_series(1, 1000000) AS i;
\echo BENCH plain_sql_1m
SELECT round(sum((1000 + (i % 1500)) + 20 * ((i % 3) / 2.0 - 0.5))) FROM generate_series(1, 1000000) AS i;
\echo BENCH glicko2_game_1m
SELECT round(sum(((glicko2_game(a.r, b.r, (a.id % 3) / 2.0)).white).rating))
FROM players a JOIN players b ON b.id = a.id % 100000 + 1, generate_series(1, 10);
\echo BENCH glicko2_game_1m
SELECT round(sum(((glicko2_game(a.r, b.r, (a.id % 3) / 2.0)).white).rating))
FROM players a JOIN players b ON b.id = a.id % 100000 + 1, generate_series(1, 10);
