-- The settings, seeds and seasons in force (sql/ledger_copies.sql): pg_rating's copies of ledgers,
-- ledger_seeds and ledger_seasons, which its writers read. They have their tables' columns in the
-- same order, follow every change, refuse every write but pg_rating's, and TRUNCATE of seeds or
-- seasons (which would replay nothing) is refused.
SELECT c.relname, string_agg(format('%s %s', a.attname, format_type(a.atttypid, a.atttypmod)), ', '
                             ORDER BY a.attnum) IS NOT DISTINCT FROM
       (SELECT string_agg(format('%s %s', s.attname, format_type(s.atttypid, s.atttypmod)), ', ' ORDER BY s.attnum)
        FROM pg_attribute s WHERE s.attrelid = replace(c.relname, '_in_force', '')::regclass
          AND s.attnum > 0 AND NOT s.attisdropped) AS same_columns
FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
WHERE c.relname IN ('ledgers_in_force', 'ledger_seeds_in_force', 'ledger_seasons_in_force')
GROUP BY c.relname ORDER BY 1;

-- Every row of the copies equals its table's, after each kind of change.
CREATE FUNCTION copies_equal() RETURNS TABLE (copy text, equal boolean) LANGUAGE sql AS $$
SELECT 'ledgers', (SELECT array_agg(x ORDER BY x.id) FROM ledgers x) IS NOT DISTINCT FROM
                  (SELECT array_agg(ROW(x.*)::ledgers ORDER BY x.id) FROM ledgers_in_force x)
UNION ALL
SELECT 'ledger_seeds', (SELECT array_agg(x ORDER BY x.ledger_id, x.scope, x.player) FROM ledger_seeds x)
                       IS NOT DISTINCT FROM
                       (SELECT array_agg(ROW(x.*)::ledger_seeds ORDER BY x.ledger_id, x.scope, x.player)
                        FROM ledger_seeds_in_force x)
UNION ALL
SELECT 'ledger_seasons', (SELECT array_agg(x ORDER BY x.ledger_id, x.scope, x.name) FROM ledger_seasons x)
                         IS NOT DISTINCT FROM
                         (SELECT array_agg(ROW(x.*)::ledger_seasons ORDER BY x.ledger_id, x.scope, x.name)
                          FROM ledger_seasons_in_force x)
$$;

CREATE TABLE matches (id int PRIMARY KEY, played_at timestamptz NOT NULL, white text NOT NULL, black text NOT NULL,
                      score float8 NOT NULL, league text NOT NULL);
INSERT INTO ledgers (name, rating_system, k_factor) VALUES ('league', 'elo', 32), ('other', 'glicko2', 20);
SELECT ledger_attach('league', 'matches', 'id', 'played_at', 'white', 'black', 'score', scope_column => 'league');
INSERT INTO matches SELECT i, timestamptz '2025-01-01' + i * interval '1 day', 'p' || i % 4, 'p' || (i + 1) % 4,
                           (i % 3) / 2.0, CASE WHEN i % 2 = 0 THEN 'east' ELSE 'west' END
FROM generate_series(1, 20) i;
SELECT * FROM copies_equal();

-- a change of K: the copy changes first, then the ledger is rebuilt by it
UPDATE ledgers SET k_factor = 16 WHERE name = 'league';
SELECT k_factor FROM ledgers_in_force WHERE name = 'league';
SELECT round(rating::numeric, 6) AS rating FROM ledger_standings_now WHERE ledger = 'league' AND scope = 'east'
ORDER BY player LIMIT 1;
SELECT round(rating::numeric, 6) AS rebuilt FROM (SELECT ledger_rebuild('league')) r,
       LATERAL (SELECT rating FROM ledger_standings_now WHERE ledger = 'league' AND scope = 'east'
                ORDER BY player LIMIT 1) s;

-- seeds and seasons: inserted, changed (also to another scope), deleted
INSERT INTO ledger_seeds (ledger_id, scope, player, rating)
SELECT id, s, 'p' || i, 1400 + 50 * i FROM ledgers, unnest('{east,west}'::text[]) s, generate_series(0, 3) i
WHERE name = 'league';
INSERT INTO ledger_seasons (ledger_id, scope, name, ends_at, rating_pull)
SELECT id, 'east', 'first', '2025-01-10', 0.5 FROM ledgers WHERE name = 'league';
SELECT * FROM copies_equal();
UPDATE ledger_seeds SET rating = rating + 10 WHERE player = 'p1';
UPDATE ledger_seeds SET scope = 'north' WHERE player = 'p2' AND scope = 'west';
UPDATE ledger_seasons SET scope = 'west', ends_at = '2025-01-12';
SELECT * FROM copies_equal();
DELETE FROM ledger_seeds WHERE player = 'p3';
DELETE FROM ledger_seasons;
SELECT * FROM copies_equal();
-- the history written by the copies equals a rebuild
CREATE TABLE before AS SELECT scope, game_key, player, rating FROM ledger_entries;
SELECT ledger_rebuild('league') > 0 AS rebuilt;
SELECT count(*) AS differing FROM (
    (TABLE before EXCEPT SELECT scope, game_key, player, rating FROM ledger_entries)
    UNION ALL
    (SELECT scope, game_key, player, rating FROM ledger_entries EXCEPT TABLE before)) d;

-- a deleted ledger leaves no copy
INSERT INTO ledger_seeds (ledger_id, player, rating) SELECT id, 'x', 1600 FROM ledgers WHERE name = 'other';
DELETE FROM ledgers WHERE name = 'other';
SELECT * FROM copies_equal();
SELECT count(*) FROM ledger_seeds_in_force WHERE player = 'x';

-- nobody writes the copies but pg_rating (a superuser neither)
\set VERBOSITY terse
UPDATE ledgers_in_force SET k_factor = 1000;
DELETE FROM ledger_seeds_in_force;
INSERT INTO ledger_seasons_in_force SELECT * FROM ledger_seasons;
TRUNCATE ledgers_in_force;
-- TRUNCATE of seeds or seasons would replay nothing: refused
TRUNCATE ledger_seeds;
TRUNCATE ledger_seasons;
\set VERBOSITY default
SELECT * FROM copies_equal();
