-- The SQL side of bench/rating.sh: one Glicko-2 rating period of 1,000,000 games among
-- 100,000 players, rated in one statement, in several shapes. Each timed query runs twice;
-- the runner keeps the faster run. Lines starting with "BENCH " label the next timing.
\set ON_ERROR_STOP on
SET work_mem = '1GB';
SET jit = off;
-- private schema: the extension has tables of its own (games, ...)
CREATE SCHEMA rb;
SET search_path = rb, public;
SELECT setseed(0.42);
CREATE TABLE players AS
SELECT id::bigint AS id,
       ROW(800 + 1800 * random(), 45 + 300 * random(), 0.04 + 0.04 * random())::glicko2_rating AS r
FROM generate_series(1, 100000) AS id;
ALTER TABLE players ADD PRIMARY KEY (id);
CREATE TABLE games AS
SELECT w AS white, CASE WHEN b >= w THEN b + 1 ELSE b END AS black, floor(random() * 3) / 2 AS score
FROM (SELECT 1 + floor(random() * 100000)::bigint AS w, 1 + floor(random() * 99999)::bigint AS b, random() AS u
      FROM generate_series(1, 1000000)) AS x;
VACUUM ANALYZE players;
VACUUM ANALYZE games;
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

-- the function alone, on arrays built beforehand (stored uncompressed)
CREATE TABLE arrs (ids bigint[], rs glicko2_rating[], w bigint[], b bigint[], s float8[]);
ALTER TABLE arrs ALTER COLUMN ids SET STORAGE EXTERNAL, ALTER COLUMN rs SET STORAGE EXTERNAL,
    ALTER COLUMN w SET STORAGE EXTERNAL, ALTER COLUMN b SET STORAGE EXTERNAL, ALTER COLUMN s SET STORAGE EXTERNAL;
INSERT INTO arrs SELECT p.ids, p.rs, g.w, g.b, g.s FROM
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

-- the whole weekly job, written back: rate the period and update every player
\echo BENCH rate_period_update
UPDATE players SET r = x.rating FROM
    (SELECT r.* FROM (SELECT array_agg(id) AS ids, array_agg(r) AS rs FROM players) AS p,
                     (SELECT array_agg(white) AS w, array_agg(black) AS b, array_agg(score) AS s FROM games) AS g,
                     glicko2_rate_period(p.ids, p.rs, g.w, g.b, g.s) AS r) AS x
WHERE players.id = x.player_id;

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
