-- Set-up of the SQL side of bench/rating.sh: 100,000 players and 1,000,000 games (schema rb).
-- The timed statements are in period_queries.sql (run several times, best kept) and
-- period_update.sql (the whole weekly job, run once at the end).
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
-- the function alone, on arrays built beforehand (stored uncompressed)
CREATE TABLE arrs (ids bigint[], rs glicko2_rating[], w bigint[], b bigint[], s float8[]);
ALTER TABLE arrs ALTER COLUMN ids SET STORAGE EXTERNAL, ALTER COLUMN rs SET STORAGE EXTERNAL,
    ALTER COLUMN w SET STORAGE EXTERNAL, ALTER COLUMN b SET STORAGE EXTERNAL, ALTER COLUMN s SET STORAGE EXTERNAL;
INSERT INTO arrs SELECT p.ids, p.rs, g.w, g.b, g.s FROM
    (SELECT array_agg(id) AS ids, array_agg(r) AS rs FROM players) AS p,
    (SELECT array_agg(white) AS w, array_agg(black) AS b, array_agg(score) AS s FROM games) AS g;
