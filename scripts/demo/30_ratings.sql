-- The rating engine: Elo, FIDE, Skèmino, Glicko-2 and performance ratings
SELECT round(elo_expected(1613, 1609)::numeric, 4) AS elo_expected,
       round(elo_update(1613, 1609, 1, 32)::numeric, 2) AS elo_after_win;
SELECT fide_expected(2100, 1900) AS fide_expected, fide_k_factor(1850, 45) AS fide_k,
       fide_rating_change(1500, 40, '{1900,1600,1450}', '{1,0.5,0}') AS fide_change;
-- Skèmino (seed 004, example 1): 1613 beats 1609
SELECT round(skemino_k(1613, 1609)::numeric, 2) AS k, round((u).a::numeric) AS winner, round((u).b::numeric) AS loser,
       skemino_level(1621) AS level
FROM skemino_update(1613, 1609, 1) AS u;
-- Glickman's example period: 1500/200/0.06 against three opponents
SELECT round((r).rating::numeric, 2) AS rating, round((r).rd::numeric, 2) AS rd, round((r).volatility::numeric, 6) AS volatility
FROM glicko2_update('(1500,200,0.06)', ARRAY['(1400,30,0.06)', '(1550,100,0.06)', '(1700,300,0.06)']::glicko2_rating[],
                    '{1,0,0}') AS r;
-- one game rated on its own, a year of inactivity, a four-player free-for-all
SELECT round(((g).white).rating::numeric, 1) AS white, round(((g).black).rating::numeric, 1) AS black
FROM glicko2_game('(1500,350,0.06)', '(1700,80,0.06)', 1) AS g;
SELECT round((glicko2_decay('(1500,60,0.06)', 52)).rd::numeric, 1) AS rd_after_a_year_of_weeks;
SELECT m.player, round(m.rating::numeric, 1) AS rating, round(m.rd::numeric, 1) AS rd
FROM unnest(glicko2_multiplayer(ARRAY['(1500,350,0.06)', '(1600,200,0.06)', '(1400,100,0.06)', '(1500,50,0.06)']::glicko2_rating[],
                                '{1,2,2,4}')) WITH ORDINALITY AS m(rating, rd, volatility, player);
-- performance ratings, including the edge cases of zero and full scores
SELECT round(performance_rating('{1500,1600,1700}', 2)::numeric, 1) AS performance,
       fide_tpr('{2200,2100,2000}', 2.5) AS fide_tpr, fide_tpr('{2200,2100,2000}', 3) AS tpr_full_score,
       fide_ptp('{2200,2100,2000}', 2.5) AS fide_ptp;
-- guarded: NaN and impossible values are errors, never NaN results
\set ON_ERROR_STOP off
SELECT elo_update(1500, 'NaN', 1, 32);
SELECT glicko2_update('(1500,-1,0.06)', '{}', '{}');
SELECT skemino_k(3700, 3700);
\set ON_ERROR_STOP on
