-- Each Random Chess ranking is a ledger of the engine: a ledgers row that pg_rating makes, keeps at
-- the ranking's settings and deletes with it, whose history is kept in elo_history and whose lock
-- is its ledger_scopes row. Nobody else writes it, and the ledgers' functions refuse it rather
-- than read it as a ledger without games.
INSERT INTO users (email, password_hash) SELECT format('p%s@example.com', i), 'h' FROM generate_series(1, 3) i;
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Global', '0', NULL, 0, 800, true, 40);
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor,
                      rating_system, starting_rd, starting_volatility, glicko2_tau, rating_period,
                      provisional_games, provisional_rd)
VALUES ('Glicko', '0', NULL, 0, 1500, true, 0, 'glicko2', 300, 0.05, 0.4, '7 days', 5, 120);

-- 1. the ledgers, with the rankings' settings
SELECT l.name, l.owner = (SELECT extowner FROM pg_extension WHERE extname = 'pg_rating_random_chess')::regrole
           AS owned_by_the_extensions_owner,
       l.rating_system, l.starting_rating, l.k_factor, l.starting_rd, l.starting_volatility, l.tau,
       l.rating_period, l.provisional_games, l.provisional_rd, l.kept_in
FROM ledgers l ORDER BY l.id;
UPDATE rankings SET k_factor = 32, starting_elo = 1000 WHERE name = 'Global';
SELECT name, starting_rating, k_factor FROM ledgers ORDER BY id;

-- 2. a game takes the lock rows of its rankings' ledgers
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{e2e4}', '2024-05-01', '(1-0,RESIGNATION)', '(3 minutes, 2 seconds)', 1, '1', '2', true);
SELECT l.name, s.scope, s.writes > 0 AS written
FROM ledger_scopes s JOIN ledgers l ON l.id = s.ledger_id ORDER BY l.id;
SELECT r.name, p.user_id_in_service, round(p.rating, 2) AS rating
FROM ranking_players p JOIN rankings r ON r.id = p.ranking_id ORDER BY 1, 2;

-- 3. no one changes a ranking's ledger but pg_rating, not even a superuser (42501)
UPDATE ledgers SET k_factor = 10 WHERE name = 'random_chess ranking 1';
UPDATE ledgers SET kept_in = NULL WHERE name = 'random_chess ranking 1';
DELETE FROM ledgers WHERE name = 'random_chess ranking 2';
INSERT INTO ledgers (name, kept_in) VALUES ('forged', 'elo_history');
-- nor an application role with every privilege on every table
CREATE ROLE regress_ledger_app LOGIN;
GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON ALL TABLES IN SCHEMA public TO regress_ledger_app;
SET ROLE regress_ledger_app;
UPDATE ledgers SET k_factor = 10 WHERE name = 'random_chess ranking 1';
DELETE FROM ledger_scopes;
RESET ROLE;

-- 4. the ledgers' functions refuse it (0A000): its history is in elo_history
SELECT * FROM ledger_leaderboard('random_chess ranking 1');
SELECT * FROM ledger_rating_at('random_chess ranking 1', '1', now());
SELECT ledger_player_rank('random_chess ranking 1', '1');
SELECT * FROM ledger_history_of('random_chess ranking 1', NULL::text);
SELECT * FROM ledger_standings_of('random_chess ranking 1', NULL::text);
SELECT * FROM ledger_prediction_quality('random_chess ranking 1');
SELECT * FROM ledger_what_if('random_chess ranking 1', ARRAY[20.0]);
SELECT ledger_rating_svg('random_chess ranking 1', ARRAY['1'], '', 400, 300) IS NOT NULL AS chart;
SELECT ledger_attach('random_chess ranking 1', 'service_games', 'id', 'creation_date', 'white_player',
                     'black_player', 'is_ranked');
SELECT ledger_rebuild('random_chess ranking 1');
SELECT ledger_detach('random_chess ranking 1');
INSERT INTO ledger_seeds (ledger_id, player, rating) SELECT id, '1', 2000 FROM ledgers WHERE name = 'random_chess ranking 1';
INSERT INTO ledger_seasons (ledger_id, name, ends_at) SELECT id, 's1', '2024-06-01' FROM ledgers WHERE name = 'random_chess ranking 1';
-- the views of the ledgers' own tables show none of it
SELECT count(*) AS rows_in_ledger_views FROM ledger_history WHERE ledger LIKE 'random_chess ranking %';

-- 5. the rankings' ledger names are reserved: an application may not take the name of the next
-- ranking's ledger (42939, also as a role that may create ledgers), and the new ranking gets it
INSERT INTO ledgers (name) VALUES ('random_chess ranking 3');
GRANT USAGE ON SEQUENCE ledgers_id_seq TO regress_ledger_app;
SET ROLE regress_ledger_app;
INSERT INTO ledgers (name) VALUES ('random_chess ranking 3');
RESET ROLE;
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Third', '0', NULL, 0, 800, true, 40);
SELECT name FROM ledgers WHERE name = 'random_chess ranking 3';

-- 6. a deleted ranking takes its ledger and the ledger's lock rows with it
DELETE FROM rankings WHERE name = 'Glicko';
SELECT l.name, count(s.*) AS lock_rows
FROM ledgers l LEFT JOIN ledger_scopes s ON s.ledger_id = l.id GROUP BY l.id, l.name ORDER BY l.id;
SELECT count(*) AS lock_rows_of_deleted_ledgers
FROM ledger_scopes s WHERE NOT EXISTS (SELECT FROM ledgers l WHERE l.id = s.ledger_id);

-- 7. dropping the Random Chess schema leaves its ledgers behind, kept in a table that is gone:
-- their owner may delete them, and a new schema takes over those of its rankings
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Extra', '0', NULL, 0, 800, true, 40);
DROP EXTENSION pg_rating_random_chess;
SELECT id, name, kept_in IS NOT NULL AS kept_elsewhere FROM ledgers ORDER BY id;
DELETE FROM ledgers WHERE name = 'random_chess ranking 4';
CREATE EXTENSION pg_rating_random_chess;
SELECT random_chess_day_one();
SELECT id, name, kept_in FROM ledgers ORDER BY id LIMIT 3;
SELECT count(*) AS rankings_without_ledger
FROM rankings r WHERE NOT EXISTS (SELECT FROM ledgers l WHERE l.name = 'random_chess ranking ' || r.id
                                                         AND l.kept_in = 'elo_history'::regclass);

-- 8. the SQLSTATEs: 42501 for a write, 0A000 for a ledgers' function (SQL and Rust), 23505 for a
-- taken name
\set VERBOSITY sqlstate
UPDATE ledgers SET k_factor = 10 WHERE name = 'random_chess ranking 1';
SELECT * FROM ledger_rating_at('random_chess ranking 1', '1', now());
SELECT ledger_rebuild('random_chess ranking 1');
INSERT INTO ledgers (name) VALUES ('random_chess ranking 10');
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Tenth', '0', NULL, 0, 800, true, 40);
\set VERBOSITY default

DROP OWNED BY regress_ledger_app;
DROP ROLE regress_ledger_app;
