-- A rebuild matches the stored rows to its own in the order of the tables' primary keys, which is
-- its rows' order (texts by their bytes) when the database's collation orders texts so (issue 33).
-- Under a collation that orders them otherwise ('B' after 'a'), and with stored rows the rebuild
-- does not make, every row is still matched by its key: an unchanged ledger keeps every row, a
-- forged row and a row of no game are replaced, and the history equals the replay.
CREATE DATABASE regress_ledger_rebuild_icu LOCALE_PROVIDER icu ICU_LOCALE 'en' LOCALE 'C' TEMPLATE template0;
\c regress_ledger_rebuild_icu
CREATE EXTENSION pg_rating;
SELECT 'B' < 'a' COLLATE "C" AS in_byte_order, 'a' < 'B' AS in_the_collations_order;
CREATE TABLE games (id int PRIMARY KEY, played_at timestamptz NOT NULL, white text NOT NULL, black text NOT NULL,
                    score float8 NOT NULL, league text NOT NULL);
INSERT INTO ledgers (name, rating_system, k_factor) VALUES ('mixed', 'elo', 20);
SELECT ledger_attach('mixed', 'games', 'id', 'played_at', 'white', 'black', 'score', scope_column => 'league');
-- nine players, each game two of them (an offset of 1 to 4 places apart), in two leagues
INSERT INTO games
SELECT n, timestamptz '2025-01-01' + n * interval '1 hour', p[1 + n % 9], p[1 + (n % 9 + 1 + n % 4) % 9],
       (n % 3) / 2.0, (ARRAY['Open', 'blitz'])[1 + n % 2]
FROM generate_series(1, 300) n, (SELECT ARRAY['a', 'B', 'c', 'D', 'é', 'E', 'z10', 'z9', 'Z']) AS players(p);
SELECT count(*) AS entries FROM ledger_entries;
CREATE TABLE versions AS
SELECT 'entry' AS kind, scope, player, game_key, xmin::text AS version FROM ledger_entries
UNION ALL SELECT 'standing', scope, player, '', xmin::text FROM ledger_standings;
CREATE TABLE replayed AS SELECT * FROM ledger_entries;
CREATE TABLE replayed_standings AS SELECT * FROM ledger_standings;
-- unchanged: every row kept (the same row versions)
SET client_min_messages = debug1;
SELECT ledger_rebuild('mixed') AS entries;
RESET client_min_messages;
SELECT v.kind, count(*) FILTER (WHERE now.version = v.version) AS kept,
       count(*) FILTER (WHERE now.version IS DISTINCT FROM v.version) AS rewritten
FROM versions v
LEFT JOIN (SELECT 'entry' AS kind, scope, player, game_key, xmin::text AS version FROM ledger_entries
           UNION ALL SELECT 'standing', scope, player, '', xmin::text FROM ledger_standings) now
       USING (kind, scope, player, game_key)
GROUP BY 1 ORDER BY 1;
-- a forged rating, and an entry and a standing of no game: replaced and removed
SET row_security = off;  -- (a superuser writing as a restore does)
UPDATE ledger_entries SET rating = rating + 1 WHERE player = 'B' AND scope = 'blitz';
INSERT INTO ledger_entries SELECT ledger_id, scope, 'Ab', game_date, game_key, game, opponent, score, expected,
       rating_before, rating, rd_before, rd, volatility_before, volatility, games, wins, draws, losses, peak,
       streak, best_streak, opponents_sum, score_sum
FROM ledger_entries WHERE player = 'a' AND scope = 'Open' ORDER BY game_key LIMIT 1;
INSERT INTO ledger_standings SELECT ledger_id, scope, 'Ab', rating, rd, volatility, games, wins, draws, losses,
       peak, streak, best_streak, opponents_sum, score_sum, last_game_date, last_game_key
FROM ledger_standings WHERE player = 'a' AND scope = 'Open';
RESET row_security;
SET client_min_messages = debug1;
SELECT ledger_rebuild('mixed') AS entries;
RESET client_min_messages;
SELECT (SELECT count(*) FROM ((TABLE replayed EXCEPT ALL TABLE ledger_entries)
                              UNION ALL (TABLE ledger_entries EXCEPT ALL TABLE replayed)) d) AS entries_differing,
       (SELECT count(*) FROM ((TABLE replayed_standings EXCEPT ALL TABLE ledger_standings)
                              UNION ALL (TABLE ledger_standings EXCEPT ALL TABLE replayed_standings)) d) AS standings_differing;
\c regress_ledger_rebuild_order
DROP DATABASE regress_ledger_rebuild_icu;
