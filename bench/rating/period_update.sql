-- The whole weekly job of bench/rating.sh, run once: rate the period and write it back.
\set ON_ERROR_STOP on
SET work_mem = '1GB';
SET jit = off;
SET search_path = rb, public;
\timing on
-- the whole weekly job, written back: rate the period and update every player
\echo BENCH rate_period_update
UPDATE players SET r = x.rating FROM
    (SELECT r.* FROM (SELECT array_agg(id) AS ids, array_agg(r) AS rs FROM players) AS p,
                     (SELECT array_agg(white) AS w, array_agg(black) AS b, array_agg(score) AS s FROM games) AS g,
                     glicko2_rate_period(p.ids, p.rs, g.w, g.b, g.s) AS r) AS x
WHERE players.id = x.player_id;

