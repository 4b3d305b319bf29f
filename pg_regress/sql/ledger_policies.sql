-- Rating policies of seed 000 section 8.2: a change above max_change clamped or refused
-- (max_change_policy), and a cap on a player's total change within a period (max_period_change
-- per change_period), clamped or refused; settings checked when written.
CREATE TABLE matches (id int PRIMARY KEY, played_at timestamptz NOT NULL, white int NOT NULL,
                      black int NOT NULL, score float8 NOT NULL);
CREATE TABLE strict_matches (LIKE matches INCLUDING ALL);
INSERT INTO ledgers (name, k_factor, max_change) VALUES ('clamp', 300, 100);
INSERT INTO ledgers (name, k_factor, max_change, max_change_policy) VALUES ('reject', 300, 100, 'reject');
INSERT INTO ledgers (name, k_factor, max_change, max_period_change, change_period)
VALUES ('capped', 160, 100, 200, '1 day');
SELECT name, max_change, max_change_policy, max_period_change, change_period FROM ledgers ORDER BY id;
SELECT ledger_attach('clamp', 'matches', 'id', 'played_at', 'white', 'black', 'score');
SELECT ledger_attach('capped', 'matches', 'id', 'played_at', 'white', 'black', 'score');
SELECT ledger_attach('reject', 'strict_matches', 'id', 'played_at', 'white', 'black', 'score');

-- K 300 between equals: +150, clamped to 100
INSERT INTO matches VALUES (1, '2025-03-01 08:00+00', 1, 2, 1);
SELECT ledger, player, rating, change FROM ledger_history WHERE ledger = 'clamp' ORDER BY player;

-- ... refused under 'reject' (23514): the statement fails, nothing is written
\set ON_ERROR_STOP 0
\set VERBOSITY sqlstate
INSERT INTO strict_matches VALUES (1, '2025-03-01 08:00+00', 1, 2, 1);
\set VERBOSITY default
INSERT INTO strict_matches VALUES (1, '2025-03-01 08:00+00', 1, 2, 1);
\set ON_ERROR_STOP 1
SELECT (SELECT count(*) FROM strict_matches) AS games,
       (SELECT count(*) FROM ledger_history WHERE ledger = 'reject') AS entries;
-- K 200: +100 is at the bound, allowed
UPDATE ledgers SET k_factor = 200 WHERE name = 'reject';
INSERT INTO strict_matches VALUES (1, '2025-03-01 08:00+00', 1, 2, 1);
SELECT player, rating, change FROM ledger_history WHERE ledger = 'reject' ORDER BY player;

-- The cap per day (200, K 160): player 1's day against fresh opponents. +80, then a loss of 98.1,
-- then a win that may add only what is left (21.9), then nothing; the next UTC day, in full.
INSERT INTO matches VALUES (2, '2025-03-01 09:00+00', 1, 3, 0);
INSERT INTO matches VALUES (3, '2025-03-01 10:00+00', 1, 4, 1);
INSERT INTO matches VALUES (4, '2025-03-01 23:59+00', 1, 5, 1);
INSERT INTO matches VALUES (5, '2025-03-02 00:00+00', 1, 6, 1);
SELECT game, round(rating_before::numeric, 4) AS before, round(change::numeric, 4) AS change,
       round(sum(abs(change)) OVER (PARTITION BY (game_date AT TIME ZONE 'UTC')::date ORDER BY game_date)::numeric, 4) AS day_total
FROM ledger_history WHERE ledger = 'capped' AND player = '1' ORDER BY sort_key;

-- A backdated game of the same day takes its share first: the later games get less. The history
-- equals a rebuild's to the last bit.
INSERT INTO matches VALUES (6, '2025-03-01 07:00+00', 7, 1, 0);
SELECT game, round(change::numeric, 4) AS change
FROM ledger_history WHERE ledger = 'capped' AND player = '1' ORDER BY sort_key;
INSERT INTO matches VALUES (7, '2025-03-02 12:00+00', 1, 8, 0);
CREATE TEMP TABLE kept AS SELECT ledger, player, game, rating FROM ledger_history;
SELECT ledger_rebuild('capped');
SELECT count(*) AS differ FROM ledger_history h JOIN kept k USING (ledger, player, game)
WHERE h.rating IS DISTINCT FROM k.rating;
SELECT count(*) AS entries FROM ledger_history WHERE ledger = 'capped';

-- 'reject' on a ledger whose history has a change above a bound (the clamp made it): the rebuild
-- fails at that game, and the settings stay as they were (never a silent other history)
\set ON_ERROR_STOP 0
UPDATE ledgers SET max_change_policy = 'reject' WHERE name = 'capped';
\set ON_ERROR_STOP 1
SELECT max_change_policy FROM ledgers WHERE name = 'capped';
-- with a cap the history keeps to, it is taken
UPDATE ledgers SET max_change_policy = 'reject', max_change = 150, max_period_change = 400
WHERE name = 'capped';
SELECT game, round(change::numeric, 4) AS change
FROM ledger_history WHERE ledger = 'capped' AND player = '1' ORDER BY sort_key;
-- and a game that would pass it is refused
\set ON_ERROR_STOP 0
INSERT INTO matches VALUES (8, '2025-03-02 13:00+00', 1, 9, 0), (9, '2025-03-02 14:00+00', 1, 10, 0),
                           (10, '2025-03-02 15:00+00', 1, 11, 0);
\set ON_ERROR_STOP 1
SELECT count(*) AS games FROM matches;

-- settings checked (23514)
\set ON_ERROR_STOP 0
INSERT INTO ledgers (name, max_change_policy) VALUES ('x', 'refuse');
INSERT INTO ledgers (name, max_period_change) VALUES ('x', 200);
INSERT INTO ledgers (name, change_period) VALUES ('x', '1 day');
INSERT INTO ledgers (name, max_period_change, change_period) VALUES ('x', -5, '1 day');
INSERT INTO ledgers (name, max_period_change, change_period) VALUES ('x', 200, '1 month');
INSERT INTO ledgers (name, max_period_change, change_period) VALUES ('x', 200, '-1 day');
\set ON_ERROR_STOP 1
-- the copy the writers read has the settings
SELECT name, max_change_policy, max_period_change, change_period FROM ledgers_in_force ORDER BY id;

-- Upset rate by seed 004's categories: K 0 keeps each player at the seeded rating, so every line's
-- category is known. Principiante 1100, Categoria D 1300, Candidato Maestro 2000, Gran Maestro 2600.
CREATE TABLE upsets (id int PRIMARY KEY, played_at timestamptz NOT NULL, white int NOT NULL,
                     black int NOT NULL, score float8 NOT NULL);
INSERT INTO ledgers (name, k_factor) VALUES ('fixed', 0);
INSERT INTO ledger_seeds (ledger_id, player, rating)
SELECT id, p, r FROM ledgers, (VALUES ('1', 1100), ('2', 1300), ('3', 2000), ('4', 2600)) v(p, r)
WHERE name = 'fixed';
SELECT ledger_attach('fixed', 'upsets', 'id', 'played_at', 'white', 'black', 'score');
INSERT INTO upsets VALUES (1, '2025-03-01', 1, 2, 1),    -- 1100 beats 1300: an upset
                          (2, '2025-03-02', 2, 1, 1),    -- 1300 beats 1100
                          (3, '2025-03-03', 3, 4, 1),    -- 2000 beats 2600: an upset
                          (4, '2025-03-04', 4, 3, 1),    -- 2600 beats 2000
                          (5, '2025-03-05', 4, 1, 0.5);  -- a draw: no win
SELECT * FROM ledger_upset_rate('fixed');
SELECT category, lower_bound, upper_bound, games, wins, underdog_wins, upset_rate
FROM ledger_upset_rate('fixed', ledger_skemino_categories(pools => true));
SELECT category, games, upset_rate
FROM ledger_upset_rate('fixed', '[{"name": "all", "lower_bound": 0, "upper_bound": null}]', '');
\set ON_ERROR_STOP 0
\set VERBOSITY terse
SELECT * FROM ledger_upset_rate('nope');
SELECT * FROM ledger_upset_rate('fixed', scope => 'north');
SELECT * FROM ledger_upset_rate('fixed', '{"name": "all"}');
SELECT * FROM ledger_upset_rate('fixed', '[{"name": "x", "lower_bound": 1500, "upper_bound": 1000}]');
SELECT * FROM ledger_upset_rate('fixed', '[{"name": "x", "lower_bound": "1000", "upper_bound": null}]');
SELECT * FROM ledger_upset_rate('fixed', '[]');
\set VERBOSITY default
\set ON_ERROR_STOP 1
SELECT p.provolatile, p.proparallel, p.prosecdef, p.proconfig FROM pg_proc p
WHERE p.proname IN ('ledger_upset_rate', 'ledger_skemino_categories') ORDER BY p.proname;

-- provisional again after inactivity (provisional_after, seed 004's "Time Decay"): as of now, a
-- player whose last game is older than the setting is provisional in every reader; the ratings stay
INSERT INTO ledgers (name, rating_system, k_factor) VALUES ('inactive', 'elo', 20);
CREATE TABLE inactive_games (id int PRIMARY KEY, at timestamptz NOT NULL, a text NOT NULL, b text NOT NULL,
                             s float8 NOT NULL);
SELECT ledger_attach('inactive', 'inactive_games', 'id', 'at', 'a', 'b', 's');
INSERT INTO inactive_games VALUES (1, now() - interval '40 days', 'old', 'recent', 1),
                                  (2, now() - interval '1 day', 'recent', 'other', 0.5);
CREATE TEMP TABLE before_inactive AS SELECT player, rating FROM ledger_standings_now WHERE ledger = 'inactive';
UPDATE ledgers SET provisional_after = '30 days' WHERE name = 'inactive';
SELECT player, provisional FROM ledger_standings_now WHERE ledger = 'inactive' ORDER BY player;
SELECT player, provisional FROM ledger_leaderboard('inactive') ORDER BY player;
SELECT count(*) AS shown_without_provisional FROM ledger_leaderboard('inactive', include_provisional => false);
SELECT ledger_player_rank('inactive', 'old', include_provisional => false) AS old_rank,
       ledger_player_rank('inactive', 'recent', include_provisional => false) AS recent_rank;
SELECT provisional FROM ledger_player_standing('inactive', 'old'::text);
SELECT count(*) AS ratings_moved FROM ledger_standings_now s JOIN before_inactive b USING (player)
WHERE s.ledger = 'inactive' AND s.rating <> b.rating;
\set ON_ERROR_STOP 0
UPDATE ledgers SET provisional_after = '-1 day' WHERE name = 'inactive';
\set ON_ERROR_STOP 1
