-- Rankings with other rating systems: Glicko-2 (with RD growth over a rating period) and
-- Skèmino, next to the default Elo; the provisional flag and leaderboard filters.
INSERT INTO users (email, password_hash)
SELECT format('p%s@example.com', i), 'h' FROM generate_series(1, 3) i;
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor,
                      rating_system, glicko2_tau, starting_rd, starting_volatility, rating_period, provisional_rd)
VALUES ('Glicko weekly', '0', NULL, 0, 1500, true, 0, 'glicko2', 0.5, 350, 0.06, '7 days', 110),
       ('Glicko no decay', '0', NULL, 0, 1500, true, 0, 'glicko2', 0.5, 350, 0.06, NULL, 110);
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor,
                      rating_system, provisional_games)
VALUES ('Skemino', '0', NULL, 0, 1000, true, 0, 'skemino', 2);
SELECT id, name, rating_system, rating_period FROM rankings ORDER BY id;

INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{}', '2024-01-01', '(1-0,CHECKMATE)', '(5 minutes, 0)', 1, '1', '2', true),
       ('{}', '2024-01-02', '(1/2-1/2,STALEMATE)', '(5 minutes, 0)', 1, '2', '3', true),
       ('{}', '2024-06-01', '(0-1,RESIGNATION)', '(5 minutes, 0)', 1, '1', '3', true);

-- Glicko-2 per game: rating, RD and volatility in the history
SELECT ranking_id, game_id, user_id_in_service, round(elo, 2) AS rating, round(rd, 2) AS rd,
       round(volatility, 6) AS volatility
FROM elo_history WHERE ranking_id IN (1, 2) ORDER BY ranking_id, game_date, game_id, user_id_in_service;
-- the first game equals glicko2_game of two newcomers
SELECT round((w).rating::numeric, 2) AS white, round((w).rd::numeric, 2) AS white_rd,
       round((b).rating::numeric, 2) AS black
FROM glicko2_game((1500, 350, 0.06)::glicko2_rating, (1500, 350, 0.06)::glicko2_rating, 1) AS g(w, b);
-- player 1 did not play for five months before game 3: with weekly rating periods its RD grew
-- first, so the RD after the game stays larger than in the ranking without periods
SELECT ranking_id, round(rd_before, 2) AS rd_before, round(rd_after, 2) AS rd_after
FROM rating_changes WHERE game_id = 3 AND user_id_in_service = '1' ORDER BY ranking_id;

-- Skèmino: K from the mean rating
SELECT game_id, user_id_in_service, round(elo, 4) AS rating
FROM elo_history WHERE ranking_id = 3 ORDER BY game_date, game_id, user_id_in_service;
SELECT round((skemino_update(1000, 1000, 1)).a::numeric, 4) AS expected_first_winner;

-- the leaderboard: provisional by RD (Glicko-2) or by games (Skèmino), and the filters
SELECT ranking_id, rank, user_id_in_service, round(rating, 1) AS rating, round(rd, 1) AS rd, games, provisional
FROM leaderboard ORDER BY ranking_id, rank, user_id_in_service;
SELECT rank, user_id_in_service FROM ranking_leaderboard(1, max_rd => 250);
SELECT rank, user_id_in_service FROM ranking_leaderboard(3, include_provisional => false);

-- switching a ranking to another system recalculates it
UPDATE rankings SET rating_system = 'elo', k_factor = 32 WHERE id = 3;
SELECT game_id, user_id_in_service, round(elo, 2) AS rating, rd
FROM elo_history WHERE ranking_id = 3 ORDER BY game_date, game_id, user_id_in_service;

-- settings under which no game could be rated are refused when written (23514): a Skèmino start
-- beyond the formula's range, a tau that drives the volatility below what is stored, a
-- starting volatility that rounds to 0
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor,
                      rating_system)
VALUES ('Skemino too high', '0', NULL, 0, 4000, true, 0, 'skemino');
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor,
                      rating_system, glicko2_tau)
VALUES ('Tau too large', '0', NULL, 0, 1500, true, 0, 'glicko2', 1e50);
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor,
                      rating_system, starting_volatility)
VALUES ('Volatility too small', '0', NULL, 0, 1500, true, 0, 'glicko2', 1e-12);
-- the same rule, with the same values, as a ledger's settings (K at most 1000), and its SQLSTATE
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('K too large', '0', NULL, 0, 1500, true, 5000);
INSERT INTO ledgers (name, k_factor) VALUES ('K too large', 5000);
DO $$
BEGIN
    INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
    VALUES ('K too large', '0', NULL, 0, 1500, true, 'NaN');
EXCEPTION WHEN check_violation THEN
    RAISE NOTICE 'check_violation: %', SQLERRM;
END
$$;
UPDATE rankings SET glicko2_tau = 1e50 WHERE rating_system = 'glicko2';
SELECT count(*) AS rankings FROM rankings;

-- rankings are kept in memory per session: the next game is rated with the changed K, and in a
-- ranking created after the session last rated a game
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Created late', '0', NULL, 0, 1200, true, 10);
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{}', '2024-07-01', '(1-0,CHECKMATE)', '(5 minutes, 0)', 1, '2', '3', true);
SELECT r.name, round(c.change, 4) AS change,
       round((elo_update(c.rating_before::float8, c.opponent_rating_before::float8, 1, r.k_factor::float8)
              - c.rating_before::float8)::numeric, 4) AS elo_update_with_its_k
FROM rating_changes c JOIN rankings r ON r.id = c.ranking_id
WHERE c.game_id = 4 AND c.user_id_in_service = '2' AND r.rating_system = 'elo'
ORDER BY r.id;
-- deleting a ranking deletes its history and its standings
SELECT count(*) AS standings_before, (SELECT count(*) FROM elo_history e JOIN rankings r ON r.id = e.ranking_id
                                      WHERE r.name = 'Created late') AS entries_before
FROM ranking_players p JOIN rankings r ON r.id = p.ranking_id WHERE r.name = 'Created late';
CREATE TEMP TABLE deleted AS SELECT id FROM rankings WHERE name = 'Created late';
DELETE FROM rankings WHERE name = 'Created late';
SELECT (SELECT count(*) FROM elo_history WHERE ranking_id IN (SELECT id FROM deleted)) AS entries_after,
       (SELECT count(*) FROM ranking_players WHERE ranking_id IN (SELECT id FROM deleted)) AS standings_after;

-- FIDE's rules in a ranking (any system the core knows): K 40 before 30 games and the expected
-- score from FIDE's table (fide_expected), the rating kept unrounded from game to game
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor,
                      rating_system)
VALUES ('FIDE', '0', NULL, 0, 1800, true, 0, 'fide');
SELECT c.game_id, c.user_id_in_service, round(c.rating_before, 2) AS before, round(c.rating_after, 2) AS after,
       round(c.rating_before::numeric + 40 * (c.score - fide_expected(round(c.rating_before)::int,
                                                                     round(c.opponent_rating_before)::int))::numeric, 2)
           AS by_fide_expected
FROM rating_changes c JOIN rankings r ON r.id = c.ranking_id
WHERE r.name = 'FIDE' ORDER BY c.game_id, c.user_id_in_service;
-- an unknown rating system, and a FIDE start beyond FIDE's table, are refused (23514)
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor,
                      rating_system)
VALUES ('TrueSkill', '0', NULL, 0, 1500, true, 0, 'trueskill');
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor,
                      rating_system)
VALUES ('FIDE too high', '0', NULL, 0, 4001, true, 0, 'fide');
SELECT rating_system_known('fide') AS fide, rating_system_known('trueskill') AS trueskill;
