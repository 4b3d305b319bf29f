-- Glicko-2: periods, games, decay, multiplayer, helpers, the period aggregate.
CREATE TEMP TABLE ex AS
SELECT '(1500,200,0.06)'::glicko2_rating AS player,
       ARRAY['(1400,30,0.06)', '(1550,100,0.06)', '(1700,300,0.06)']::glicko2_rating[] AS opponents,
       ARRAY[1, 0, 0]::float8[] AS scores;
-- Glickman's example: 1464.0507, 151.5165, 0.0599960
SELECT round((r).rating::numeric, 4) AS rating, round((r).rd::numeric, 4) AS rd, round((r).volatility::numeric, 7) AS volatility
FROM (SELECT glicko2_update(player, opponents, scores) AS r FROM ex) s;
-- no games: only the RD grows (200.2714); a newcomer stays at the default cap of 350
SELECT round((r).rd::numeric, 4) AS rd, (r).rating, (r).volatility
FROM (SELECT glicko2_update(player, '{}', '{}') AS r FROM ex) s;
SELECT (glicko2_update('(1500,350,0.06)', '{}', '{}')).rd AS newcomer_rd,
       round((glicko2_update('(1500,350,0.06)', '{}', '{}', rd_max => 'Infinity')).rd::numeric, 4) AS uncapped;
-- the same period through the aggregate, one row per game: identical bits
SELECT glicko2_period(ex.player, ex.opponents[i], ex.scores[i]) = glicko2_update(ex.player, ex.opponents, ex.scores) AS same
FROM ex, generate_subscripts(ex.opponents, 1) AS i GROUP BY ex.player, ex.opponents, ex.scores;
SELECT glicko2_period(p, o, s, 0.5) IS NULL AS empty_group FROM (SELECT NULL::glicko2_rating, NULL::glicko2_rating, NULL::float8) AS t(p, o, s) WHERE false;
-- bounds
SELECT round((r).rating::numeric, 4) AS rating, (r).rd, (r).volatility
FROM (SELECT glicko2_update(player, opponents, scores, rd_min => 160, volatility_max => 0.05, max_change => 10) AS r FROM ex) s;
-- a period for many players in one statement: array_agg grouped by player
CREATE TEMP TABLE players (id int PRIMARY KEY, r glicko2_rating);
INSERT INTO players VALUES (1, '(1500,200,0.06)'), (2, '(1400,30,0.06)'), (3, '(1550,100,0.06)'), (4, '(1700,300,0.06)'), (5, '(1600,80,0.06)');
CREATE TEMP TABLE games (white int, black int, score float8);
INSERT INTO games VALUES (1, 2, 1), (3, 1, 1), (4, 1, 1), (2, 3, 0.5);
WITH sides AS (
    SELECT white AS player, black AS opponent, score FROM games
    UNION ALL
    SELECT black, white, 1 - score FROM games
)
SELECT p.id, round((glicko2_update(p.r, array_agg(o.r), array_agg(s.score)) ).rating::numeric, 4) AS rating,
       round((glicko2_update(p.r, array_agg(o.r), array_agg(s.score))).rd::numeric, 4) AS rd,
       round((glicko2_period(p.r, o.r, s.score)).rating::numeric, 4) AS via_aggregate
FROM sides s JOIN players p ON p.id = s.player JOIN players o ON o.id = s.opponent
GROUP BY p.id ORDER BY p.id;
-- the same period in one call: every player, idle ones included (player 5 only gets the RD growth)
SELECT r.player_id, round((r.rating).rating::numeric, 4) AS rating, round((r.rating).rd::numeric, 4) AS rd,
       round((r.rating).volatility::numeric, 7) AS volatility
FROM (SELECT array_agg(id) AS ids, array_agg(r) AS rs FROM players) p,
     (SELECT array_agg(white) AS w, array_agg(black) AS b, array_agg(score) AS s FROM games) g,
     glicko2_rate_period(p.ids, p.rs, g.w, g.b, g.s) AS r
ORDER BY r.player_id;
SELECT count(*) AS rows FROM glicko2_rate_period('{}', '{}', '{}', '{}', '{}');
-- lichess per-game vectors (scalachess GlickoCalculatorTest, tau 0.75)
SELECT round(((g).white).rating::numeric, 2) AS w, round(((g).black).rating::numeric, 2) AS b,
       round(((g).white).rd::numeric, 4) AS w_rd, round(((g).white).volatility::numeric, 7) AS w_vol
FROM (SELECT glicko2_game('(1500,350,0.06)', '(1500,350,0.06)', s, 0.75) AS g FROM unnest(ARRAY[1, 0.5, 0]::float8[]) AS s) x;
SELECT round(((g).white).rating::numeric, 2) AS w, round(((g).black).rating::numeric, 2) AS b,
       round(((g).white).rd::numeric, 4) AS w_rd, round(((g).black).rd::numeric, 4) AS b_rd
FROM (SELECT glicko2_game('(1200,60,0.053)', '(1850,200,0.062)', s, 0.75) AS g FROM unnest(ARRAY[1, 0.5, 0]::float8[]) AS s) x;
-- decay: fractional periods, capped at 350 by default
SELECT round((glicko2_decay('(1700,60,0.06)', 0.5)).rd::numeric, 6) AS half_period,
       glicko2_decay('(1700,60,0.06)', 0) = '(1700,60,0.06)'::glicko2_rating AS zero_periods,
       (glicko2_decay('(1700,60,0.06)', 1e6)).rd AS capped,
       round((glicko2_decay('(1700,60,0.06)', 1e6, rd_max => 500)).rd::numeric, 4) AS capped_500;
-- expectation with both RDs; symmetric; Glicko paper example 0.376
SELECT round(glicko2_expected('(1400,80,0.06)', '(1500,150,0.06)')::numeric, 3) AS glicko_example,
       glicko2_expected('(1700,80,0.06)', '(1500,200,0.06)') + glicko2_expected('(1500,200,0.06)', '(1700,80,0.06)') AS sum;
-- multiplayer: 1st, two tied 2nd, 4th
SELECT i, round((m[i]).rating::numeric, 4) AS rating, round((m[i]).rd::numeric, 4) AS rd
FROM (SELECT glicko2_multiplayer(array_fill('(1500,350,0.06)'::glicko2_rating, ARRAY[4]), '{1,2,2,4}') AS m) x,
     generate_subscripts(m, 1) AS i
ORDER BY i;
-- an 8-player game shrinks a newcomer's RD like 7 two-player games in one period
SELECT round(((glicko2_multiplayer(array_fill('(1500,350,0.06)'::glicko2_rating, ARRAY[8]), '{1,2,3,4,5,6,7,8}'))[4]).rd::numeric, 2) AS rd_after_one_8p_game;
SELECT glicko2_multiplayer('{}', '{}') AS empty;
-- helpers
SELECT glicko2_conservative('(1500,350,0.06)') AS conservative, glicko2_conservative('(1800,50,0.06)', 3) AS k3,
       glicko2_provisional('(1500,350,0.06)') AS new_player, glicko2_provisional('(1500,110,0.06)') AS at_110,
       glicko2_provisional('(1500,120,0.06)', 150) AS seed_003;
SELECT count(*) AS uncommented FROM pg_proc WHERE proname LIKE 'glicko2\_%' AND obj_description(oid, 'pg_proc') IS NULL;
SELECT DISTINCT provolatile, proparallel FROM pg_proc WHERE proname LIKE 'glicko2\_%';
-- errors: SQLSTATE and message
CREATE FUNCTION pg_temp.err(q text) RETURNS text LANGUAGE plpgsql AS $f$
BEGIN
    EXECUTE q;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END $f$;
SELECT pg_temp.err($$SELECT glicko2_update('(NaN,200,0.06)', '{}', '{}')$$);
SELECT pg_temp.err($$SELECT glicko2_update('(1500,200,0.06)', '{"(1400,Infinity,0.06)"}', '{1}')$$);
SELECT pg_temp.err($$SELECT glicko2_update('(1500,-1,0.06)', '{}', '{}')$$);
SELECT pg_temp.err($$SELECT glicko2_update('(1500,200,-0.06)', '{}', '{}')$$);
SELECT pg_temp.err($$SELECT glicko2_update('(1500,200,0.06)', '{"(1400,30,0.06)"}', '{1.2}')$$);
SELECT pg_temp.err($$SELECT glicko2_update('(1500,200,0.06)', '{"(1400,30,0.06)"}', '{1,0}')$$);
SELECT pg_temp.err($$SELECT glicko2_update('(1500,200,0.06)', '{"(1400,30,0.06)"}', '{1}', 0)$$);
SELECT pg_temp.err($$SELECT glicko2_update('(1500,200,0.06)', '{"(1400,30,0.06)"}', '{1}', 'NaN')$$);
SELECT pg_temp.err($$SELECT glicko2_update('(1500,200,0.06)', '{"(1e9,30,0.06)"}', '{0}')$$);
SELECT pg_temp.err($$SELECT glicko2_update('(1500,200,0.06)', '{}', '{}', rd_min => 400)$$);
SELECT pg_temp.err($$SELECT glicko2_update('(1500,200,0.06)', '{}', '{}', max_change => 0)$$);
SELECT pg_temp.err($$SELECT glicko2_update('(1500,,0.06)', '{}', '{}')$$);
SELECT pg_temp.err($$SELECT glicko2_update('(1500,200,0.06)', '{NULL}', '{1}')$$);
SELECT pg_temp.err($$SELECT glicko2_update('(1500,200,0.06)', '{"(1400,30,0.06)"}', '{NULL}')$$);
SELECT pg_temp.err($$SELECT glicko2_game('(1500,350,0.06)', '(1500,350,0.06)', 2)$$);
SELECT pg_temp.err($$SELECT glicko2_game('(1500,350,0)', '(1500,350,0.06)', 1)$$);
SELECT pg_temp.err($$SELECT glicko2_decay('(1500,350,0.06)', -1)$$);
SELECT pg_temp.err($$SELECT glicko2_decay('(1500,350,0.06)', 'NaN')$$);
SELECT pg_temp.err($$SELECT glicko2_expected('(1500,0,0.06)', '(1500,350,0.06)')$$);
SELECT pg_temp.err($$SELECT glicko2_multiplayer('{"(1500,350,0.06)","(1500,350,0.06)"}', '{1}')$$);
SELECT pg_temp.err($$SELECT glicko2_multiplayer('{"(1500,350,0.06)","(1500,350,0.06)"}', '{1,NaN}')$$);
SELECT pg_temp.err($$SELECT glicko2_conservative('(1500,350,0.06)', 'NaN')$$);
SELECT pg_temp.err($$SELECT glicko2_period(p, o, 1) FROM (VALUES ('(1500,200,0.06)'::glicko2_rating, '(1400,30,0.06)'::glicko2_rating),
                                             ('(1501,200,0.06)', '(1400,30,0.06)')) AS t(p, o)$$);
SELECT pg_temp.err($$SELECT glicko2_period('(1500,200,0.06)', '(1400,30,0.06)', 3)$$);
SELECT pg_temp.err($$SELECT * FROM glicko2_rate_period('{1,2}', '{"(1500,350,0.06)"}', '{}', '{}', '{}')$$);
SELECT pg_temp.err($$SELECT * FROM glicko2_rate_period('{1,2}', '{"(1500,350,0.06)","(1500,350,0.06)"}', '{1}', '{2}', '{}')$$);
SELECT pg_temp.err($$SELECT * FROM glicko2_rate_period('{1,1}', '{"(1500,350,0.06)","(1500,350,0.06)"}', '{}', '{}', '{}')$$);
SELECT pg_temp.err($$SELECT * FROM glicko2_rate_period('{1,2}', '{"(1500,350,0.06)","(1500,350,0.06)"}', '{1}', '{3}', '{1}')$$);
SELECT pg_temp.err($$SELECT * FROM glicko2_rate_period('{1,2}', '{"(1500,350,0.06)","(1500,350,0.06)"}', '{2}', '{2}', '{1}')$$);
SELECT pg_temp.err($$SELECT * FROM glicko2_rate_period('{1,2}', '{"(1500,350,0.06)","(1500,350,0.06)"}', '{1}', '{2}', '{1.5}')$$);
SELECT pg_temp.err($$SELECT * FROM glicko2_rate_period('{1,2}', '{"(1500,350,0.06)",NULL}', '{1}', '{2}', '{1}')$$);
SELECT pg_temp.err($$SELECT glicko2_update('(1500,200,0.06)', '{"(1400,,0.06)"}', '{1}')$$);
-- arrays built from rows and from a table read the same values
SELECT glicko2_update('(1500,200,0.06)', ARRAY[ROW(1400, 30, 0.06)::glicko2_rating, ROW(1550, 100, 0.06)::glicko2_rating], '{1,0}')
     = glicko2_update('(1500,200,0.06)', (SELECT array_agg(r ORDER BY id) FROM players WHERE id IN (2, 3)), '{1,0}') AS same;
SELECT pg_temp.err($$SELECT glicko2_provisional('(1500,350,0.06)', 'NaN')$$);
SELECT pg_temp.err($$SELECT glicko2_expected('(1500,350,0.06)', '(Infinity,350,0.06)')$$);
SELECT pg_temp.err($$SELECT glicko2_period('(1500,200,0.06)', o, 1, t) FROM (VALUES ('(1400,30,0.06)'::glicko2_rating, 0.5::float8), ('(1550,100,0.06)', 0.6)) AS v(o, t)$$);
SELECT pg_temp.err($$SELECT glicko2_period('(1500,200,0.06)', '(1400,30,0.06)', 1, 0)$$);
-- rows with a NULL argument are skipped, like any aggregate
SELECT round((glicko2_period('(1500,200,0.06)', o, s)).rating::numeric, 4) AS one_game
FROM (VALUES ('(1400,30,0.06)'::glicko2_rating, 1::float8), (NULL, 0), ('(1550,100,0.06)', NULL)) AS v(o, s);
SELECT round((glicko2_update('(1500,200,0.06)', '{"(1400,30,0.06)"}', '{1}')).rating::numeric, 4) AS same_game;
-- a huge tau is an error, never a volatility of 0
SELECT pg_temp.err($$SELECT glicko2_update('(1500,200,0.06)', '{"(1400,30,0.06)"}', '{1}', tau => 1e150)$$);
