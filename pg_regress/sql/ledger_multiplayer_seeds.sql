-- Seeds on multiplayer ledgers (issue 33's sans-IO writer): a seed written after a scope's games
-- replays that scope as multiplayer games, from its first game, in that scope and ledger only;
-- entries equal a rebuild's after each change.
CREATE FUNCTION pg_temp.history(l text) RETURNS text LANGUAGE sql AS $$
  SELECT string_agg(format('%s %s %s %s %s', scope, player, game, round(rating::numeric, 6), games), ',' ORDER BY scope, player, game_date, game)
  FROM ledger_history WHERE ledger = l $$;
CREATE FUNCTION pg_temp.same_as_rebuild(l text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE before text; after text;
BEGIN
  before := pg_temp.history(l);
  PERFORM ledger_rebuild(l);
  after := pg_temp.history(l);
  RETURN before IS NOT DISTINCT FROM after;
END $$;
CREATE TABLE plays (play_id int NOT NULL, at timestamptz NOT NULL, player text NOT NULL, place int,
                    pool text NOT NULL DEFAULT 'a');
INSERT INTO ledgers (name, rating_system) VALUES ('mp', 'glicko2');
INSERT INTO ledgers (name, rating_system, k_factor) VALUES ('mp elo', 'elo', 32);
SELECT ledger_attach_multiplayer('mp', 'plays', 'play_id', 'at', 'player', 'place', scope_column => 'pool');
SELECT ledger_attach_multiplayer('mp elo', 'plays', 'play_id', 'at', 'player', 'place', scope_column => 'pool');
INSERT INTO plays VALUES (1, '2025-05-01', 'ann', 1, 'a'), (1, '2025-05-01', 'bob', 2, 'a'), (1, '2025-05-01', 'cid', 3, 'a'),
                         (2, '2025-05-02', 'ann', 2, 'a'), (2, '2025-05-02', 'bob', 1, 'a'),
                         (3, '2025-05-01', 'ann', 1, 'b'), (3, '2025-05-01', 'dan', 2, 'b');
SELECT pg_temp.history('mp elo') AS elo_before_seeds;
-- 1. a seed for a player with games: scope a of 'mp' is replayed from its first game, as multiplayer
SELECT ledger_seed('mp', 'ann', 1900, rd => 80, scope => 'a') AS written;
SELECT scope, player, game, round(rating_before::numeric, 2) AS before, round(rating::numeric, 2) AS after, games
FROM ledger_history WHERE ledger = 'mp' ORDER BY scope, game_date, game, player;
-- scope b and the other ledger are as they were
SELECT pg_temp.history('mp elo') AS elo_unchanged;
SELECT pg_temp.same_as_rebuild('mp') AS same_after_seed;
-- 2. a changed seed, a removed one, several players at once
SELECT ledger_seed('mp', 'ann', 1700, scope => 'a') AS changed;
SELECT pg_temp.same_as_rebuild('mp') AS same_after_change;
SELECT ledger_seed('mp', ARRAY['bob', 'dan'], ARRAY[1600, 1400]::float8[], scope => 'b') AS written_b;
SELECT scope, player, round(rating_before::numeric, 2) AS before, games
FROM ledger_history WHERE ledger = 'mp' AND scope = 'b' ORDER BY game_date, player;
SELECT pg_temp.same_as_rebuild('mp') AS same_after_b;
SELECT ledger_unseed('mp', 'ann', scope => 'a') AS unseeded;
SELECT pg_temp.same_as_rebuild('mp') AS same_after_unseed;
-- 3. an Elo multiplayer ledger seeded through the table
INSERT INTO ledger_seeds (ledger_id, scope, player, rating) SELECT id, 'a', 'cid', 1800 FROM ledgers WHERE name = 'mp elo';
SELECT player, round(rating_before::numeric, 2) AS before, round(rating::numeric, 2) AS after
FROM ledger_history WHERE ledger = 'mp elo' AND scope = 'a' AND player = 'cid' ORDER BY game_date;
SELECT pg_temp.same_as_rebuild('mp elo') AS elo_same_after_seed;
-- a later game appended after the seeds
INSERT INTO plays VALUES (4, '2025-05-03', 'cid', 1, 'a'), (4, '2025-05-03', 'ann', 2, 'a');
SELECT pg_temp.same_as_rebuild('mp') AND pg_temp.same_as_rebuild('mp elo') AS same_after_game;
