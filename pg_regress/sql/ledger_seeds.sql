-- Seeds (imported ratings, issue 32 item 4): written by the ledger's name (ledger_seed,
-- ledger_unseed, one statement and one replay per scope for many), seen by ledger_rating_at before
-- a player's first game, and seeded players without games in the standings, the leaderboard, the
-- rank and the player's standing (0 games, provisional), through rebuilds and season ends.
CREATE TABLE games (id int PRIMARY KEY, played timestamptz NOT NULL, w text NOT NULL, b text NOT NULL,
                    s float8, pool text NOT NULL DEFAULT 'main');
-- nobody is provisional by the ledger's own rule: a seed without games is provisional anyway
INSERT INTO ledgers (name, rating_system) VALUES ('club', 'glicko2');
INSERT INTO ledgers (name, rating_system) VALUES ('pools', 'elo');
SELECT ledger_attach('club', 'games', 'id', 'played', 'w', 'b', 's');
SELECT ledger_attach('pools', 'games', 'id', 'played', 'w', 'b', 's', scope_column => 'pool');
INSERT INTO games VALUES (1, '2025-01-10', 'ann', 'bob', 1), (2, '2025-01-11', 'bob', 'cat', 0.5),
                         (3, '2025-01-12', 'ann', 'cat', 0);

-- 1. seeds by the ledger's name: FIDE as is, chess.com - 200, lichess - 300, with their RDs
SELECT ledger_seed('club', ARRAY['ann', 'dan', 'eve'], ARRAY[2100, 1850 - 200, 2000 - 300]::float8[],
                   ARRAY[60, 120, NULL]::float8[]) AS written;
SELECT ledger_seed('club', 'fay', 1600) AS fay_new, ledger_seed('club', 'fay', 1600) AS fay_unchanged,
       ledger_seed('club', 'fay', 1650, rd => 200) AS fay_changed;
SELECT l.name, d.scope, d.player, d.rating, d.rd, d.volatility
FROM ledger_seeds d JOIN ledgers l ON l.id = d.ledger_id ORDER BY 1, 2, 3;
-- the copy the writers read is the same
SELECT (SELECT count(*) FROM (SELECT * FROM ledger_seeds EXCEPT SELECT * FROM ledger_seeds_in_force) x) AS not_copied,
       (SELECT count(*) FROM (SELECT * FROM ledger_seeds_in_force EXCEPT SELECT * FROM ledger_seeds) x) AS stale;
-- ann's first game started from her seed (replayed once the seed came)
SELECT player, game, round(rating_before::numeric, 2) AS before, round(rd_before::numeric, 2) AS rd_before, games
FROM ledger_history WHERE ledger = 'club' ORDER BY game_date, player;

-- 2. ledger_rating_at: the seed before the first game (and for a seeded player without games),
-- the start for a player without a seed
SELECT p, round(r.rating::numeric, 2) AS rating, round(r.rd::numeric, 2) AS rd, r.games
FROM unnest(ARRAY['ann', 'bob', 'dan', 'eve', 'nobody']) p,
     ledger_rating_at('club', p, '2025-01-01') r ORDER BY p;
SELECT round(rating::numeric, 2) AS ann_after_two, games FROM ledger_rating_at('club', 'ann', '2025-02-01');

-- 3. the standings: seeded players without games, 0 games, provisional, no last game
SELECT player, round(rating::numeric, 2) AS rating, round(rd::numeric, 2) AS rd, round(volatility::numeric, 3) AS vol,
       games, wins, peak, streak, best_streak, provisional, last_played, opponents_average, performance
FROM ledger_standings_now WHERE ledger = 'club' ORDER BY rating DESC, player;
-- the leaderboard shows them by default (min_games 0, provisional included)
SELECT rank, player, round(rating::numeric, 2) AS rating, round(rd::numeric, 2) AS rd, games, provisional,
       last_played
FROM ledger_leaderboard('club');
-- pages: the seeds and the standings merged in order
SELECT page, array_agg(player ORDER BY rating DESC, player) AS players
FROM generate_series(1, 4) page, ledger_leaderboard('club', page_size => 2, page => page) GROUP BY page ORDER BY page;
-- min_games 1 or include_provisional false leave them out; max_rd filters by their RD
SELECT array_agg(player ORDER BY rank, player) AS min_games_1 FROM ledger_leaderboard('club', min_games => 1);
SELECT array_agg(player ORDER BY rank, player) AS established FROM ledger_leaderboard('club', include_provisional => false);
SELECT array_agg(player ORDER BY rank, player) AS rd_at_most_150 FROM ledger_leaderboard('club', max_rd => 150);
-- the rank agrees with the leaderboard for every player and every filter
SELECT f.name, bool_and(coalesce(b.rank, 0) = coalesce(ledger_player_rank('club', p, '', f.min_games, f.max_rd, f.prov), 0))
       AS ranks_agree, count(b.rank) AS shown
FROM (VALUES ('default', 0, NULL::float8, true), ('min_games', 1, NULL, true), ('max_rd', 0, 150, true),
             ('established', 0, NULL, false)) f(name, min_games, max_rd, prov)
CROSS JOIN unnest(ARRAY['ann', 'bob', 'cat', 'dan', 'eve', 'fay', 'nobody']) p
LEFT JOIN ledger_leaderboard('club', '', f.min_games, f.max_rd, f.prov, 100) b ON b.player = p
GROUP BY f.name ORDER BY f.name;
-- one player's standing: the seed for a seeded player without games, the view's row
SELECT p, s.games, round(s.rating::numeric, 2) AS rating, round(s.rd::numeric, 2) AS rd, s.provisional
FROM unnest(ARRAY['ann', 'dan', 'nobody']) p LEFT JOIN LATERAL ledger_player_standing('club', p) s ON true ORDER BY p;
SELECT bool_and(row(v.rating, v.rd, v.games, v.wins, v.draws, v.losses, v.peak, v.streak, v.provisional,
                    v.last_played)::text
                = row(p.rating, p.rd, p.games, p.wins, p.draws, p.losses, p.peak, p.streak, p.provisional,
                      p.last_played)::text) AS standing_equal, count(*)
FROM ledger_standings_now v CROSS JOIN LATERAL ledger_player_standing('club', v.player) p WHERE v.ledger = 'club';
-- an Elo ledger: no RD; a scope that has seeds only is a scope of the readers
SELECT ledger_seed('pools', ARRAY['gus', 'hal'], ARRAY[1700, 1400]::float8[], scope => 'blitz') AS written;
SELECT rank, player, rating, rd, games, provisional FROM ledger_leaderboard('pools', 'blitz');
SELECT * FROM ledger_rating_at('pools', 'gus', now(), 'blitz');
SELECT ledger_player_rank('pools', 'hal', 'blitz') AS hal_rank;

-- 4. a season that has ended: the leaderboard reads the view, seeds as before (a seed has no date)
INSERT INTO ledger_seasons (ledger_id, name, ends_at, rating_pull)
SELECT id, 'winter', '2025-01-20', 0.5 FROM ledgers WHERE name = 'club';
SELECT rank, player, round(rating::numeric, 2) AS rating, games, provisional FROM ledger_leaderboard('club');
SELECT ledger_player_rank('club', 'dan') AS dan_rank, ledger_player_rank('club', 'dan', min_games => 1) AS dan_min_1;
DELETE FROM ledger_seasons;

-- 5. a rebuild keeps them; a game makes a seeded player an established one
SELECT ledger_rebuild('club') > 0 AS rebuilt;
SELECT count(*) FILTER (WHERE games = 0) AS seeded_without_games, count(*) AS players
FROM ledger_standings_now WHERE ledger = 'club';
INSERT INTO games VALUES (4, '2025-01-13', 'dan', 'eve', 1);
SELECT player, round(rating_before::numeric, 2) AS before, round(rd_before::numeric, 2) AS rd_before
FROM ledger_history WHERE ledger = 'club' AND game = '4' ORDER BY player;
SELECT player, games, provisional FROM ledger_standings_now WHERE ledger = 'club' ORDER BY player;

-- 6. a change of a seed replays its player's games; removing it too (the ledger's start)
SELECT ledger_seed('club', 'ann', 1900, 60) AS changed;
SELECT round(rating_before::numeric, 2) AS ann_first_before FROM ledger_history
WHERE ledger = 'club' AND player = 'ann' ORDER BY game_date LIMIT 1;
SELECT ledger_unseed('club', ARRAY['ann', 'nobody']) AS removed, ledger_unseed('club', 'fay') AS fay,
       ledger_unseed('club', 'fay') AS fay_again;
SELECT round(rating_before::numeric, 2) AS ann_first_before FROM ledger_history
WHERE ledger = 'club' AND player = 'ann' ORDER BY game_date LIMIT 1;
SELECT array_agg(player ORDER BY player) AS seeded FROM ledger_seeds;
SELECT player FROM ledger_standings_now WHERE ledger = 'club' AND games = 0;

-- 7. an import of many seeds: one statement, equal to a rebuild from scratch
INSERT INTO games SELECT 100 + i, '2025-03-01'::timestamptz + i * interval '1 minute', 'p' || (i % 40), 'p' || ((i * 7 + 1) % 40),
                         (i % 3) / 2.0
FROM generate_series(1, 300) i WHERE i % 40 <> (i * 7 + 1) % 40;
SELECT ledger_seed('club', array_agg('p' || i), array_agg(1200 + 10 * i)::float8[], array_agg(80 + i % 200)::float8[])
       AS imported
FROM generate_series(0, 1999) i;
SELECT (SELECT count(*) FROM (SELECT * FROM ledger_seeds EXCEPT SELECT * FROM ledger_seeds_in_force) x) AS not_copied,
       (SELECT count(*) FROM (SELECT * FROM ledger_seeds_in_force EXCEPT SELECT * FROM ledger_seeds) x) AS stale;
CREATE TABLE before_rebuild AS SELECT * FROM ledger_standings_now WHERE ledger = 'club';
SELECT ledger_rebuild('club') > 0 AS rebuilt;
SELECT count(*) AS players, count(*) FILTER (WHERE games = 0) AS without_games,
       (SELECT count(*) FROM (SELECT * FROM before_rebuild EXCEPT SELECT * FROM ledger_standings_now
                              WHERE ledger = 'club') x) AS differing
FROM ledger_standings_now WHERE ledger = 'club';
SELECT rank, player, round(rating::numeric, 2) AS rating, games FROM ledger_leaderboard('club', page_size => 3);
SELECT ledger_player_rank('club', 'p1999') AS top_seed_rank, ledger_player_rank('club', 'p0') AS p0_rank,
       (SELECT rank FROM ledger_leaderboard('club', page_size => 3000) WHERE player = 'p0') AS p0_on_board;

-- 8. errors
\set VERBOSITY sqlstate
SELECT ledger_seed('nope', 'ann', 1500);
SELECT ledger_seed(NULL, 'ann', 1500);
SELECT ledger_seed('club', 'ann', 1500, scope => NULL);
SELECT ledger_seed('club', ARRAY['a', 'b'], ARRAY[1500]::float8[]);
SELECT ledger_seed('club', ARRAY['a'], ARRAY[1500]::float8[], ARRAY[50, 60]::float8[]);
SELECT ledger_seed('club', ARRAY['a', NULL], ARRAY[1500, 1600]::float8[]);
SELECT ledger_seed('club', ARRAY['a', 'a'], ARRAY[1500, 1600]::float8[]);
SELECT ledger_seed('club', 'a', 'Infinity'::float8);
SELECT ledger_seed('club', 'a', 1500, rd => 0);
SELECT ledger_unseed('nope', 'ann');
\set VERBOSITY default
SELECT ledger_seed('nope', 'ann', 1500);
SELECT ledger_seed('club', ARRAY['a', 'b'], ARRAY[1500]::float8[]);
SELECT ledger_seed('club', ARRAY['a', 'a'], ARRAY[1500, 1600]::float8[]);
SELECT ledger_seed('club', 'a', 1500, rd => 0);
-- nothing was written by them
SELECT count(*) AS seeds_named_a FROM ledger_seeds WHERE player = 'a';

-- 9. other roles: a reader of the games table sees the seeds but may not write them (42501); a
-- role that sees no ledger is told it does not exist
CREATE ROLE regress_seeds_reader;
CREATE ROLE regress_seeds_other;
GRANT SELECT, INSERT, UPDATE, DELETE ON ledgers, ledger_seeds TO regress_seeds_reader, regress_seeds_other;
GRANT SELECT ON ledger_standings, ledger_entries, ledger_seasons, ledger_standings_now TO regress_seeds_reader,
    regress_seeds_other;
GRANT SELECT ON games TO regress_seeds_reader;
SET ROLE regress_seeds_reader;
SELECT player, rating, games FROM ledger_leaderboard('pools', 'blitz');
SELECT * FROM ledger_rating_at('pools', 'gus', now(), 'blitz');
SELECT ledger_seed('pools', 'ivy', 1500, scope => 'blitz');
SELECT ledger_unseed('pools', 'gus', 'blitz');
UPDATE ledger_seeds SET rating = 0;
RESET ROLE;
SET ROLE regress_seeds_other;
SELECT count(*) AS seen FROM ledger_standings_now;
SELECT ledger_seed('pools', 'ivy', 1500, scope => 'blitz');
SELECT * FROM ledger_leaderboard('pools', 'blitz');
RESET ROLE;
SELECT player, rating FROM ledger_seeds d JOIN ledgers l ON l.id = d.ledger_id WHERE l.name = 'pools' ORDER BY 1;
-- a member of a ledger's owner seeds it (a ledger not attached yet: its seeds wait for its games)
INSERT INTO ledgers (name, owner) VALUES ('theirs', 'regress_seeds_other');
SET ROLE regress_seeds_other;
SELECT ledger_seed('theirs', ARRAY['x', 'y'], ARRAY[1510, 1490]::float8[]) AS written;
SELECT rank, player, rating, games, provisional FROM ledger_leaderboard('theirs');
SELECT ledger_unseed('theirs', 'y') AS removed;
RESET ROLE;
SELECT player FROM ledger_standings_now WHERE ledger = 'theirs';
DELETE FROM ledgers WHERE name = 'theirs';
REVOKE ALL ON ledgers, ledger_seeds, ledger_standings, ledger_entries, ledger_seasons, ledger_standings_now, games
    FROM regress_seeds_reader, regress_seeds_other;
DROP ROLE regress_seeds_reader;
DROP ROLE regress_seeds_other;
