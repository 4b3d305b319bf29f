-- What the readers derive from a stored standing, each the library's rule called per row (issue
-- 33, "rules once"): provisional status, the resets of the seasons ended since a player's last
-- game, the linear performance; and ledger_what_if replaying from the ledger's seeds.
CREATE TABLE games (id int PRIMARY KEY, played timestamptz NOT NULL, w text NOT NULL, b text NOT NULL, s float8);

-- 1. provisional: fewer games, an RD above the bound (not at it), no game for provisional_after
SELECT g, rd, last, ledger_is_provisional(g, rd, last, 3, 100, interval '30 days', timestamptz '2025-03-01') AS provisional
FROM (VALUES (2, 50::float8, timestamptz '2025-02-28'), (3, 50, '2025-02-28'), (3, 100, '2025-02-28'),
             (3, 100.5, '2025-02-28'), (3, 50, '2025-01-30'), (3, 50, '2025-01-29'), (3, NULL, NULL)) v(g, rd, last);
-- without an RD bound or provisional_after, only the games count; unknown only when nothing settles it
SELECT ledger_is_provisional(5, 900, '2020-01-01', 3, NULL, NULL, now()) AS never_by_rd_or_time,
       ledger_is_provisional(NULL, 50, NULL, 3, 100, NULL, now()) AS unknown,
       ledger_is_provisional(NULL, 150, NULL, 3, 100, NULL, now()) AS by_rd,
       ledger_is_provisional(5, NULL, '2020-01-01', NULL, NULL, '1 day', now()) AS by_time;
-- provisional_after is subtracted in the session's time zone, as now() - interval is: a month back
-- from 31 March 05:00 PDT is 28 February 05:00 PST, 13:00 UTC
SHOW timezone;
SELECT ledger_is_provisional(9, NULL, '2025-02-28 13:00+00', 0, NULL, '1 month', '2025-03-31 12:00+00') AS at_the_cut,
       ledger_is_provisional(9, NULL, '2025-02-28 12:59+00', 0, NULL, '1 month', '2025-03-31 12:00+00') AS before_it;

-- 2. the seasons' resets: those that ended after the last game and not after now, in order of end
SELECT ledger_season_rating(1900, '2025-01-01', 1500, ARRAY['2025-03-01', '2025-02-01']::timestamptz[],
                            ARRAY[0.5, 0.5], '2025-04-01') AS two_halves,
       ledger_season_rating(1900, '2025-01-01', 1500, ARRAY['2025-03-01', '2025-02-01']::timestamptz[],
                            ARRAY[0.5, 0.5], '2025-02-01') AS one_at_its_end,
       ledger_season_rating(1900, '2025-02-01', 1500, ARRAY['2025-02-01']::timestamptz[], ARRAY[1], '2025-04-01')
           AS ended_at_the_last_game,
       ledger_season_rating(1900, NULL, 1500, ARRAY['2025-02-01']::timestamptz[], ARRAY[1], '2025-04-01') AS seed,
       ledger_season_rating(1900, '2025-01-01', 1500, NULL, NULL, '2025-04-01') AS no_season,
       ledger_season_rating(1900, '2025-01-01', 1500, ARRAY['2025-02-01']::timestamptz[], ARRAY[0.3], '2025-04-01')
           AS pull_three_tenths;
SELECT ledger_season_rd(60, '2025-01-01', ARRAY['2025-02-01', '2025-03-01']::timestamptz[], ARRAY[150, NULL],
                        '2025-04-01') AS floored,
       ledger_season_rd(200, '2025-01-01', ARRAY['2025-02-01']::timestamptz[], ARRAY[150], '2025-04-01') AS above,
       ledger_season_rd(NULL, '2025-01-01', ARRAY['2025-02-01']::timestamptz[], ARRAY[150], '2025-04-01') AS no_rd;
-- where a season starts: the previous end of its scope (the seasons in any order)
SELECT ledger_season_start(ARRAY['2025-03-01', '2025-01-01', '2025-02-01']::timestamptz[], '2025-03-01') AS third,
       ledger_season_start(ARRAY['2025-01-01', '2025-02-01']::timestamptz[], '2025-01-01') AS first,
       ledger_season_start(ARRAY['2025-01-01']::timestamptz[], '2025-06-01') AS after_the_last,
       ledger_season_start(NULL, '2025-01-01') AS no_seasons;
SELECT ledger_season_start(ARRAY[NULL]::timestamptz[], '2025-01-01');
SELECT ledger_season_rating(1900, '2025-01-01', 1500, ARRAY['2025-02-01']::timestamptz[], ARRAY[0.5, 0.5], now());
SELECT ledger_season_rating(1900, '2025-01-01', 1500, ARRAY[NULL]::timestamptz[], ARRAY[0.5], now());

-- 3. the linear performance
SELECT ledger_performance(8000, 2, 2, 5) AS even, ledger_performance(3000, 2, 0, 2) AS all_won,
       ledger_performance(4500, 1, 0, 3) AS one_in_three, ledger_performance(0, 0, 0, 0) AS no_games;

-- 4. in the readers: a Glicko-2 ledger with seeds, seasons with uneven pulls
INSERT INTO ledgers (name, rating_system, provisional_games, provisional_rd) VALUES ('club', 'glicko2', 3, 150);
SELECT ledger_attach('club', 'games', 'id', 'played', 'w', 'b', 's');
SELECT ledger_seed('club', ARRAY['ann', 'bob'], ARRAY[2100, 1300]::float8[]) AS seeded;
INSERT INTO games
SELECT i, timestamptz '2025-01-01' + i * interval '1 day', (ARRAY['ann', 'bob', 'cat', 'dan'])[1 + i % 4],
       (ARRAY['ann', 'bob', 'cat', 'dan'])[1 + (i + 1 + (i / 4) % 3) % 4], (ARRAY[1, 0.5, 0])[1 + i % 3]
FROM generate_series(1, 22) i;
INSERT INTO ledger_seasons (ledger_id, name, ends_at, rating_pull, rd_floor)
SELECT id, 'one', '2025-02-15', 0.3, 180 FROM ledgers WHERE name = 'club';
INSERT INTO ledger_seasons (ledger_id, name, ends_at, rating_pull)
SELECT id, 'two', '2025-03-01', 0.15 FROM ledgers WHERE name = 'club';
-- the view's columns are the library's rules, row by row
SELECT count(*) AS players,
       bool_and(v.provisional IS NOT DISTINCT FROM ledger_is_provisional(s.games, s.rd, s.last_game_date, 3, 150,
                                                                         NULL, now())) AS provisional_agrees,
       bool_and(v.performance = ledger_performance(s.opponents_sum, s.wins, s.losses, s.games)) AS performance_agrees,
       bool_and(v.rating <> s.rating) AS all_reset
FROM ledger_standings_now v JOIN ledger_standings s ON s.player = v.player
WHERE v.ledger = 'club';
-- the standing shown as of now is the one each player's next game starts from (rating and RD)
CREATE TEMP TABLE shown AS SELECT player, rating, rd FROM ledger_standings_now WHERE ledger = 'club';
INSERT INTO games VALUES (101, '2025-03-02', 'ann', 'bob', 1), (102, '2025-03-02 00:00:01', 'cat', 'dan', 0);
SELECT h.player, h.rating_before = w.rating AS rating_as_shown, h.rd_before = w.rd AS rd_as_shown
FROM ledger_history h JOIN shown w USING (player)
WHERE h.ledger = 'club' AND h.game IN ('101', '102') ORDER BY h.player;
-- 5. ledger_what_if replays from the seeds, as the ledger did: its own settings give the ledger's
-- own prediction quality (to the last digits the order of the sums leaves)
SELECT w.entries = q.entries AS same_entries, round(w.brier::numeric, 12) = round(q.brier::numeric, 12) AS same_brier,
       round(w.log_loss::numeric, 12) = round(q.log_loss::numeric, 12) AS same_log_loss,
       round(w.accuracy::numeric, 12) = round(q.accuracy::numeric, 12) AS same_accuracy
FROM ledger_what_if('club') w, ledger_prediction_quality('club') q;

-- 6. the leaderboard and the rank filter on the library's provisional status, with the seasons
-- ended (read from ledger_standings_now) and without (read down the rating index)
INSERT INTO games VALUES (103, '2025-03-03', 'ann', 'cat', 0.5);
UPDATE ledgers SET provisional_games = 13, provisional_rd = NULL WHERE name = 'club';
SELECT player, games, provisional FROM ledger_standings_now WHERE ledger = 'club' ORDER BY player;
SELECT player, rank FROM ledger_leaderboard('club', include_provisional => false) ORDER BY rank, player;
SELECT p, ledger_player_rank('club', p, include_provisional => false) AS rank
FROM unnest(ARRAY['ann', 'bob', 'cat', 'dan']) p ORDER BY p;
DELETE FROM ledger_seasons;
SELECT player, rank FROM ledger_leaderboard('club', include_provisional => false) ORDER BY rank, player;
SELECT p, ledger_player_rank('club', p, include_provisional => false) AS rank
FROM unnest(ARRAY['ann', 'bob', 'cat', 'dan']) p ORDER BY p;
SELECT w.entries, round(w.brier::numeric, 6) AS brier, round(q.brier::numeric, 6) AS ledgers_own_brier
FROM ledger_what_if('club') w, ledger_prediction_quality('club') q;
