-- A replay writes only what it changes (issue 33): a backdated or corrected game replays its scope
-- from there on, but the entries and standings that come out as they were are left as they are
-- (same row version: no dead row, no WAL), and the history still equals a rebuild.
CREATE TABLE matches (id int PRIMARY KEY, played_at timestamptz NOT NULL, white text NOT NULL, black text NOT NULL,
                      score float8 NOT NULL);
INSERT INTO ledgers (name, rating_system, k_factor) VALUES ('club', 'elo', 24);
SELECT ledger_attach('club', 'matches', 'id', 'played_at', 'white', 'black', 'score');
-- two groups that never meet: a1..a4 and b1..b4, alternating games over 40 days
INSERT INTO matches
SELECT i, timestamptz '2025-01-01' + i * interval '1 day',
       CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END || (1 + i % 4),
       CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END || (1 + (i + 1) % 4), (i % 3) / 2.0
FROM generate_series(1, 40) i;
CREATE TABLE versions AS
SELECT 'entry' AS kind, player, game_key, xmin::text AS version FROM ledger_entries
UNION ALL
SELECT 'standing', player, '', xmin::text FROM ledger_standings;

-- a backdated game of group a on day 5: group a's entries after it change, group b's do not
INSERT INTO matches VALUES (100, '2025-01-05 12:00', 'a1', 'a2', 1);
SELECT v.kind, left(v.player, 1) AS grp,
       count(*) FILTER (WHERE now.version = v.version) AS kept,
       count(*) FILTER (WHERE now.version IS DISTINCT FROM v.version) AS rewritten
FROM versions v
LEFT JOIN (SELECT 'entry' AS kind, player, game_key, xmin::text AS version FROM ledger_entries
           UNION ALL SELECT 'standing', player, '', xmin::text FROM ledger_standings) now
       USING (kind, player, game_key)
GROUP BY 1, 2 ORDER BY 1, 2;

-- a corrected result of group b's last game: only its two entries and standings change
TRUNCATE versions;
INSERT INTO versions
SELECT 'entry', player, game_key, xmin::text FROM ledger_entries
UNION ALL SELECT 'standing', player, '', xmin::text FROM ledger_standings;
UPDATE matches SET score = 1 - score WHERE id = 39;
SELECT v.kind, count(*) FILTER (WHERE now.version = v.version) AS kept,
       count(*) FILTER (WHERE now.version IS DISTINCT FROM v.version) AS rewritten
FROM versions v
LEFT JOIN (SELECT 'entry' AS kind, player, game_key, xmin::text AS version FROM ledger_entries
           UNION ALL SELECT 'standing', player, '', xmin::text FROM ledger_standings) now
       USING (kind, player, game_key)
GROUP BY 1 ORDER BY 1;

-- and the history is what a rebuild makes
CREATE TABLE before AS SELECT player, game_key, rating, rating_before, games, peak FROM ledger_entries;
SELECT ledger_rebuild('club') > 0 AS rebuilt;
SELECT count(*) AS differing FROM (
    (TABLE before EXCEPT SELECT player, game_key, rating, rating_before, games, peak FROM ledger_entries)
    UNION ALL
    (SELECT player, game_key, rating, rating_before, games, peak FROM ledger_entries EXCEPT TABLE before)) d;
