-- Reads that fail loudly and are fast for one player (issue 32): the readers check the ledger and
-- scope they are given, ledger_scope() writes a multi-column scope, one player's history and
-- standing (ledger_player_history, ledger_player_standing), a rank that agrees with the
-- leaderboard's page under the same filters, ledger_history.sort_key, and live notifications.
CREATE TABLE events (id bigint PRIMARY KEY, org int NOT NULL, game text NOT NULL, played timestamptz NOT NULL,
                     w bigint NOT NULL, b bigint NOT NULL, s float8);
CREATE TABLE games (id int PRIMARY KEY, played timestamptz NOT NULL, w bigint NOT NULL, b bigint NOT NULL,
                    s float8);
INSERT INTO ledgers (name, provisional_games) VALUES ('genki', 2), ('flat', 3);
SELECT ledger_attach('genki', 'events', 'id', 'played', 'w', 'b', 's', scope_column => 'org, game');
SELECT ledger_attach('flat', 'games', 'id', 'played', 'w', 'b', 's');
INSERT INTO events SELECT i, 1 + i % 2, CASE WHEN i % 3 = 0 THEN 'POKEMON' ELSE 'MAGIC THE' END,
                          '2025-01-01'::timestamptz + i * interval '1 hour', 1 + i % 5, 1 + (i * 7 + 3) % 6, (i % 3) / 2.0
FROM generate_series(1, 60) i WHERE 1 + i % 5 <> 1 + (i * 7 + 3) % 6;
INSERT INTO games SELECT i, '2025-01-01'::timestamptz + i * interval '1 hour', 1 + i % 7, 1 + (i * 3 + 2) % 8,
                         (i % 3) / 2.0
FROM generate_series(1, 80) i WHERE 1 + i % 7 <> 1 + (i * 3 + 2) % 8;

-- 1. the scopes of a ledger scoped by two columns, and ledger_scope() writing them
SELECT DISTINCT scope FROM ledger_standings ORDER BY 1;
SELECT ledger_scope('1', 'POKEMON') AS simple, ledger_scope('2', 'MAGIC THE') AS quoted,
       ledger_scope('a"b', 'c\d', '', NULL) AS escaped, ledger_scope('x,y') AS one_column,
       ledger_scope('a"b', 'c\d', '', NULL) = ROW('a"b', 'c\d', '', NULL::text)::text AS as_a_row;
SELECT rank, player FROM ledger_leaderboard('genki', ledger_scope('1', 'POKEMON'), page_size => 3);

-- 2. what is not there is an error (22023), naming it; long values cut
\set VERBOSITY sqlstate
SELECT * FROM ledger_leaderboard('nope');
SELECT * FROM ledger_leaderboard('genki');
SELECT * FROM ledger_leaderboard('genki', '1,POKEMON');
SELECT * FROM ledger_leaderboard('genki', NULL);
\set VERBOSITY default
SELECT * FROM ledger_leaderboard('nope');
SELECT * FROM ledger_leaderboard(repeat('x', 150));
SELECT * FROM ledger_leaderboard('genki');
SELECT * FROM ledger_leaderboard('genki', '1,POKEMON');
SELECT * FROM ledger_leaderboard('genki', '(3,POKEMON)');
SELECT * FROM ledger_leaderboard('flat', 'blitz');
SELECT * FROM ledger_leaderboard('genki', NULL);
SELECT * FROM ledger_leaderboard(NULL);
SELECT * FROM ledger_rating_at('nope', '1', now());
SELECT * FROM ledger_rating_at('genki', '1', now());
SELECT * FROM ledger_rating_at('genki', '1', now(), '1,POKEMON');
SELECT ledger_player_rank('nope', '1');
SELECT ledger_player_rank('genki', '1');
SELECT ledger_player_rank('genki', '1', '1,POKEMON');
SELECT * FROM ledger_player_history('nope', 1::bigint);
SELECT * FROM ledger_player_history('genki', 1::bigint);
SELECT * FROM ledger_player_standing('genki', 1::bigint, '1,POKEMON');
SELECT * FROM ledger_history_of('nope', NULL::bigint);
SELECT * FROM ledger_standings_of('nope', NULL::bigint);
SELECT * FROM ledger_prediction_quality('nope');
SELECT * FROM ledger_prediction_quality('genki', '1,POKEMON');
SELECT count(*) AS every_scope FROM ledger_prediction_quality('genki');
SELECT * FROM ledger_what_if('nope');
SELECT ledger_rating_svg('nope', '{1}');
SELECT ledger_rating_svg('genki', '{1}', '1,POKEMON');
-- a ledger without games yet reads as empty in its default scope, and has no other
INSERT INTO ledgers (name) VALUES ('empty');
SELECT count(*) AS empty_board FROM ledger_leaderboard('empty');
SELECT * FROM ledger_leaderboard('empty', 'x');
-- an unknown player is no error: no rows, or the start
SELECT count(*) AS rows_of_unknown FROM ledger_player_history('flat', 999::bigint);
SELECT rating, games FROM ledger_rating_at('flat', '999', now());

-- 3. one player: typed history (newest first, the last N) and standing, equal to the views
SELECT scope, player, opponent, pg_typeof(opponent) AS opponent_type, game, score, round(rating::numeric, 4) AS rating, games
FROM ledger_player_history('genki', 3::bigint, ledger_scope('1', 'MAGIC THE'), last_games => 3);
SELECT (SELECT array_agg(game ORDER BY game_date DESC, sort_key DESC) FROM ledger_history
        WHERE ledger = 'flat' AND scope = '' AND player = '2')
     = (SELECT array_agg(game) FROM ledger_player_history('flat', 2::bigint)) AS history_equal,
       (SELECT row(s.rating, s.rd, s.games, s.wins, s.draws, s.losses, s.peak, s.streak, s.provisional, s.last_played)::text
        FROM ledger_standings_now s WHERE ledger = 'flat' AND scope = '' AND player = '2')
     = (SELECT row(p.rating, p.rd, p.games, p.wins, p.draws, p.losses, p.peak, p.streak, p.provisional, p.last_played)::text
        FROM ledger_player_standing('flat', 2::bigint) p) AS standing_equal;
-- a join of the application's users, one probe per user (LATERAL), players in their own type
CREATE TABLE users (id bigint PRIMARY KEY, name text NOT NULL);
INSERT INTO users SELECT i, 'user ' || i FROM generate_series(1, 10) i;
SELECT u.name, s.games, s.provisional
FROM users u LEFT JOIN LATERAL ledger_player_standing('flat', u.id) s ON true ORDER BY u.id;
SELECT u.name, count(h.game) AS last_two
FROM users u LEFT JOIN LATERAL ledger_player_history('flat', u.id, last_games => 2) h ON true
GROUP BY u.id, u.name ORDER BY u.id LIMIT 3;
-- inlined into the caller's query: the plan reads the primary keys, not the whole ledger
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM ledger_player_history('flat', 2::bigint, last_games => 50);
RESET enable_seqscan;

-- 4. a player's rank is the rank on the leaderboard's page under the same filters
CREATE FUNCTION pg_temp.ranks_agree(l text, sc text) RETURNS TABLE (filters text, agree boolean, ranked bigint)
LANGUAGE sql AS $$
SELECT format('%s %s %s', f.g, f.r, f.p),
       bool_and(ledger_player_rank(l, b.player, sc, f.g, f.r, f.p) IS NOT DISTINCT FROM b.rank),
       count(b.player)
FROM (VALUES (0, NULL::float8, true), (4, NULL, true), (0, NULL, false), (8, NULL, false)) f(g, r, p)
CROSS JOIN LATERAL ledger_leaderboard(l, sc, f.g, f.r, f.p, 1000) b
GROUP BY f.g, f.r, f.p ORDER BY 1
$$;
SELECT * FROM pg_temp.ranks_agree('flat', '');
SELECT * FROM pg_temp.ranks_agree('genki', ledger_scope('2', 'MAGIC THE'));
-- a player left out by the filters has no rank
SELECT player, games, ledger_player_rank('flat', player, min_games => games + 1) AS rank_beyond
FROM ledger_standings WHERE ledger_id = (SELECT id FROM ledgers WHERE name = 'flat') ORDER BY player LIMIT 2;
-- after a season's end (ratings pulled), still the same
INSERT INTO ledger_seasons (ledger_id, name, ends_at, rating_pull)
SELECT id, 'one', '2025-01-05', 0.5 FROM ledgers WHERE name = 'flat';
INSERT INTO games VALUES (1000, '2025-01-06', 1, 2, 1);
SELECT * FROM pg_temp.ranks_agree('flat', '');
-- ledger_player_standing shows the season's resets as ledger_standings_now does
SELECT count(*) AS players,
       bool_and(row(v.rating, v.rd, v.games, v.wins, v.draws, v.losses, v.peak, v.streak, v.provisional, v.last_played)
                IS NOT DISTINCT FROM
                row(p.rating, p.rd, p.games, p.wins, p.draws, p.losses, p.peak, p.streak, p.provisional, p.last_played))
           AS standings_equal,
       count(*) FILTER (WHERE v.rating <> (SELECT rating FROM ledger_standings x
                                           WHERE x.ledger_id = (SELECT id FROM ledgers WHERE name = 'flat')
                                             AND x.scope = '' AND x.player = v.player)) AS reset_since
FROM ledger_standings_now v CROSS JOIN LATERAL ledger_player_standing('flat', v.player::bigint) p
WHERE v.ledger = 'flat';

-- ... and a Glicko-2 ledger's RD, grown by its rating period and raised by a season's floor
INSERT INTO ledgers (name, rating_system, rating_period) VALUES ('g2', 'glicko2', '1 day');
SELECT ledger_attach('g2', 'games', 'id', 'played', 'w', 'b', 's') AS g2_entries;
INSERT INTO ledger_seasons (ledger_id, name, ends_at, rd_floor) SELECT id, 'two', '2025-01-03', 300 FROM ledgers WHERE name = 'g2';
SELECT count(*) AS players,
       bool_and(row(v.rating, v.rd, v.games, v.provisional) IS NOT DISTINCT FROM row(p.rating, p.rd, p.games, p.provisional))
           AS standings_equal,
       count(*) FILTER (WHERE v.rd IS NOT NULL) AS with_rd
FROM ledger_standings_now v CROSS JOIN LATERAL ledger_player_standing('g2', v.player::bigint) p
WHERE v.ledger = 'g2';

-- 5. the sort key of ledger_history is named for what it is
SELECT attname FROM pg_attribute WHERE attrelid = 'ledger_history'::regclass AND attname IN ('game_key', 'sort_key');
SELECT game, sort_key FROM ledger_history WHERE ledger = 'flat' AND player = '2' ORDER BY game_date LIMIT 2;

-- 6. live rating changes: a ledger's notify_channel, notified at commit with each changed player
UPDATE ledgers SET notify_channel = 'ratings' WHERE name = 'flat';
-- (psql prints the notices with the backend's PID: they go to a file, shown without it)
SELECT '/tmp/pg_rating_ledger_reads_' || pg_backend_pid() || '.txt' AS notices \gset
\o :notices
LISTEN ratings;
INSERT INTO games VALUES (1001, '2025-02-01', 3, 4, 1);
BEGIN;
INSERT INTO games VALUES (1002, '2025-02-02', 5, 6, 0.5);
UPDATE games SET s = 0 WHERE id = 1001;
SELECT 'nothing delivered before the commit' AS note;
COMMIT;
-- a rebuild sends one notice; a game of a ledger without a channel none
SELECT ledger_rebuild('flat') > 0 AS rebuilt;
INSERT INTO events VALUES (1000, 1, 'POKEMON', '2025-03-01', 2, 3, 1);
UNLISTEN ratings;
\o
SELECT n, regexp_replace(line, 'Asynchronous notification "ratings" with payload "(.*)" received from server process with PID [0-9]+[.]',
                         '\1') AS delivered
FROM regexp_split_to_table(pg_read_file(:'notices'), E'\n') WITH ORDINALITY l(line, n)
WHERE line LIKE 'Asynchronous%' OR line LIKE '%nothing delivered%' ORDER BY n;
-- bad channels are refused (23514)
\set VERBOSITY terse
UPDATE ledgers SET notify_channel = '' WHERE name = 'flat';
UPDATE ledgers SET notify_channel = repeat('c', 64) WHERE name = 'flat';
\set VERBOSITY default
-- a row trigger of one's own on ledger_entries: the next game says what to do instead (55000)
CREATE FUNCTION own_trigger() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TRIGGER own_notify AFTER INSERT ON ledger_entries FOR EACH ROW EXECUTE FUNCTION own_trigger();
INSERT INTO games VALUES (1003, '2025-02-03', 3, 4, 1);
DROP TRIGGER own_notify ON ledger_entries;

-- 7. another application's role: its readers see only what row-level security shows
CREATE ROLE regress_reads_app;
GRANT SELECT ON ledgers, ledger_attachments, ledger_entries, ledger_standings, ledger_seeds, ledger_seasons,
                ledger_history, ledger_standings_now TO regress_reads_app;
SET ROLE regress_reads_app;
SELECT * FROM ledger_player_history('flat', 2::bigint);
SELECT * FROM ledger_player_standing('flat', 2::bigint);
SELECT ledger_player_rank('flat', '2');
RESET ROLE;
GRANT SELECT ON games TO regress_reads_app;
SET ROLE regress_reads_app;
SELECT count(*) AS games_of_2 FROM ledger_player_history('flat', 2::bigint);
SELECT games FROM ledger_player_standing('flat', 2::bigint);
SELECT ledger_player_rank('flat', '2') IS NOT NULL AS ranked;
RESET ROLE;
REVOKE ALL ON ledgers, ledger_attachments, ledger_entries, ledger_standings, ledger_seeds, ledger_seasons,
              ledger_history, ledger_standings_now, games FROM regress_reads_app;
DROP ROLE regress_reads_app;
