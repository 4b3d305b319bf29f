-- Ledgers: ratings kept by triggers on an application's own games table. Attaching (and each of its
-- errors), appends, backdated games, corrections, deletes, double losses and unrated results,
-- scopes, Glicko-2 with inactivity, reads, and that the history always equals a rebuild.
CREATE TABLE matches (
    id         bigserial PRIMARY KEY,
    played_at  timestamptz NOT NULL,
    white      bigint,
    black      bigint,
    score      numeric,          -- white's score, NULL while the game is running
    is_rated   boolean NOT NULL DEFAULT true
);
CREATE INDEX matches_by_date ON matches (played_at, id);
INSERT INTO matches (played_at, white, black, score)
VALUES ('2025-01-01 10:00', 1, 2, 1), ('2025-01-02 10:00', 2, 3, 0.5);

-- the history must always equal a rebuild from scratch
CREATE FUNCTION pg_temp.same_as_rebuild(l text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE before text; after text;
BEGIN
  SELECT string_agg(format('%s %s %s %s %s %s', scope, player, sort_key, rating, games, streak), ',' ORDER BY scope, player, game_date, sort_key)
  INTO before FROM ledger_history WHERE ledger = l;
  PERFORM ledger_rebuild(l);
  SELECT string_agg(format('%s %s %s %s %s %s', scope, player, sort_key, rating, games, streak), ',' ORDER BY scope, player, game_date, sort_key)
  INTO after FROM ledger_history WHERE ledger = l;
  RETURN before IS NOT DISTINCT FROM after;
END $$;
CREATE TEMP VIEW board AS
SELECT player, round(rating::numeric, 2) AS rating, games, wins, draws, losses, streak, best_streak,
       round(peak::numeric, 2) AS peak
FROM ledger_standings_now WHERE ledger = 'club' ORDER BY rating DESC, player;

-- settings are checked when written (23514)
INSERT INTO ledgers (name, rating_system, k_factor) VALUES ('bad k', 'elo', 'NaN');
INSERT INTO ledgers (name, rating_system) VALUES ('unknown', 'trueskill');
INSERT INTO ledgers (name, rating_system, tau) VALUES ('bad tau', 'glicko2', 1e50);
INSERT INTO ledgers (name, rating_system, starting_rating) VALUES ('bad skemino', 'skemino', 4000);
INSERT INTO ledgers (name, rating_system, starting_rating, k_factor) VALUES ('club', 'elo', 1500, 32);

-- attaching checks the columns at attach time
SELECT ledger_attach('nope', 'matches', 'id', 'played_at', 'white', 'black', 'score');
SELECT ledger_attach('club', 'matches', 'id', 'played_at', 'white', 'black', 'points');
SELECT ledger_attach('club', 'matches', 'played_at', 'played_at', 'white', 'black', 'score');
SELECT ledger_attach('club', 'matches', 'id', 'white', 'white', 'black', 'score');
SELECT ledger_attach('club', 'matches', 'id', 'played_at', 'white', 'black', 'is_rated');
SELECT ledger_attach('club', 'matches', 'id', 'played_at', 'white', 'black', 'score', '{"1-0": 2}');
SELECT ledger_attach('club', 'matches', 'id', 'played_at', 'white', 'black', 'score', filter => 'is_rated AND');
SELECT ledger_attach('club', 'matches', 'id', 'played_at', 'white', 'black', 'score', filter => 'no_such_column');
-- the games already there are rated at once
SELECT ledger_attach('club', 'matches', 'id', 'played_at', 'white', 'black', 'score', filter => 'is_rated') AS entries;
SELECT ledger_attach('club', 'matches', 'id', 'played_at', 'white', 'black', 'score');
SELECT * FROM board;

-- appended games
INSERT INTO matches (played_at, white, black, score)
VALUES ('2025-01-03 10:00', 1, 3, 1), ('2025-01-04 10:00', 3, 1, 0), ('2025-01-05 10:00', 1, 2, 0.5);
SELECT * FROM board;
-- a running game (no result yet) and an unrated one are not rated
INSERT INTO matches (played_at, white, black, score, is_rated) VALUES ('2025-01-06 10:00', 2, 3, NULL, true),
                                                                      ('2025-01-06 11:00', 2, 3, 1, false);
SELECT count(*) AS entries FROM ledger_entries;
-- the result arrives: rated in its place
UPDATE matches SET score = 0 WHERE played_at = '2025-01-06 10:00';
SELECT * FROM board;
-- an update of another column rates nothing again
UPDATE matches SET is_rated = true;
SELECT count(*) AS entries FROM ledger_entries;
-- a backdated game replays what follows it
INSERT INTO matches (played_at, white, black, score) VALUES ('2024-12-31 10:00', 3, 2, 1);
SELECT * FROM board;
SELECT pg_temp.same_as_rebuild('club') AS same_as_rebuild;
-- a corrected result, a re-dated game, a changed player, a voided game
UPDATE matches SET score = 0 WHERE played_at = '2025-01-03 10:00';
SELECT pg_temp.same_as_rebuild('club') AS same_after_correction;
UPDATE matches SET played_at = '2025-01-10 10:00' WHERE played_at = '2025-01-01 10:00';
SELECT pg_temp.same_as_rebuild('club') AS same_after_redating;
UPDATE matches SET black = 4 WHERE played_at = '2025-01-05 10:00';
SELECT pg_temp.same_as_rebuild('club') AS same_after_player_change;
DELETE FROM matches WHERE played_at = '2025-01-04 10:00';
SELECT pg_temp.same_as_rebuild('club') AS same_after_delete;
SELECT * FROM board;
-- a player's history
SELECT game AS match_id, opponent, score, round(expected::numeric, 4) AS expected,
       round(rating_before::numeric, 2) AS before, round(rating::numeric, 2) AS after, round(change::numeric, 2) AS change
FROM ledger_history WHERE ledger = 'club' AND player = '1' ORDER BY game_date, sort_key;

-- bad games are errors and write nothing
INSERT INTO matches (played_at, white, black, score) VALUES ('2025-02-01', 1, 1, 1);
INSERT INTO matches (played_at, white, black, score) VALUES ('2025-02-01', 1, NULL, 1);
INSERT INTO matches (played_at, white, black, score) VALUES ('2025-02-01', 1, 2, 2);
INSERT INTO matches (played_at, white, black, score) VALUES ('infinity', 1, 2, 1);
SELECT count(*) AS entries, pg_temp.same_as_rebuild('club') AS same FROM ledger_entries;

-- reads
SELECT rank, player, round(rating::numeric, 2) AS rating, games, provisional
FROM ledger_leaderboard('club', min_games => 2);
SELECT rank, player FROM ledger_leaderboard('club', page_size => 2, page => 2);
SELECT ledger_player_rank('club', '1') AS rank_of_1, ledger_player_rank('club', '99') AS unrated;
-- the players as the games table types them (bigint here): a join without casts
CREATE TEMP TABLE members (id bigint PRIMARY KEY, name text);
INSERT INTO members VALUES (1, 'Ada'), (2, 'Bo'), (3, 'Cy'), (4, 'Di');
SELECT m.name, round(s.rating::numeric, 2) AS rating, s.games
FROM ledger_standings_of('club', NULL::bigint) s JOIN members m ON m.id = s.player ORDER BY s.rating DESC, m.name;
SELECT m.name, o.name AS opponent, round(h.change::numeric, 2) AS change
FROM ledger_history_of('club', NULL::bigint) h JOIN members m ON m.id = h.player JOIN members o ON o.id = h.opponent
WHERE m.id = 1 ORDER BY h.game_date;
SELECT pg_typeof(player) FROM ledger_standings_of('club', NULL::bigint) LIMIT 1;
SELECT * FROM ledger_standings_of('club', NULL::uuid);
SELECT * FROM ledger_history_of('nope', NULL::bigint);
SELECT round(rating::numeric, 2) AS rating, games FROM ledger_rating_at('club', '1', '2025-01-03 12:00');
SELECT round(rating::numeric, 2) AS rating, games FROM ledger_rating_at('club', '1', '2000-01-01');

-- how well the ratings predicted the games, and what other K factors would have done
SELECT entries, round(accuracy::numeric, 4) AS accuracy, round(brier::numeric, 4) AS brier,
       round(log_loss::numeric, 4) AS log_loss, round(upset_rate::numeric, 4) AS upset_rate
FROM ledger_prediction_quality('club');
SELECT period_start, band_low, entries, round(brier::numeric, 4) AS brier
FROM ledger_prediction_quality('club', period => '2 days', rating_band => 50);
SELECT k_factor, tau, entries, round(brier::numeric, 4) AS brier, round(log_loss::numeric, 4) AS log_loss
FROM ledger_what_if('club', k_factors => '{16, 64}');
SELECT * FROM ledger_what_if('club', k_factors => '{NaN}');
SELECT * FROM ledger_prediction_quality('club', rating_band => 0);

-- changing the settings rebuilds the ledger
UPDATE ledgers SET k_factor = 16 WHERE name = 'club';
SELECT player, round(rating::numeric, 2) AS rating FROM board;

-- a second ledger on the same table: Glicko-2 with a weekly rating period
INSERT INTO ledgers (name, rating_system, starting_rating, starting_rd, rating_period, provisional_rd)
VALUES ('club glicko', 'glicko2', 1500, 350, '7 days', 110);
SELECT ledger_attach('club glicko', 'matches', 'id', 'played_at', 'white', 'black', 'score') > 0 AS rated;
-- (the RD as stored after each player's last game: the one shown grows with time)
SELECT s.player, round(s.rating::numeric, 2) AS rating, round(s.rd::numeric, 2) AS rd, n.provisional
FROM ledger_standings s JOIN ledgers l ON l.id = s.ledger_id
JOIN ledger_standings_now n ON n.ledger = l.name AND n.player = s.player
WHERE l.name = 'club glicko' ORDER BY s.player;
-- the RD shown grows with inactivity as of now; the stored one does not
SELECT bool_and(n.rd >= s.rd) AS grown FROM ledger_standings_now n
JOIN ledger_standings s ON s.player = n.player JOIN ledgers l ON l.id = s.ledger_id AND l.name = n.ledger
WHERE n.ledger = 'club glicko';

-- text ids, results mapped (a bye is not rated, a double loss costs both), one rating per scope
CREATE TABLE card_matches (
    match_code text PRIMARY KEY, org text NOT NULL, played date NOT NULL,
    p1 text NOT NULL, p2 text, outcome text NOT NULL
);
INSERT INTO ledgers (name, rating_system, starting_rating, k_factor, rating_floor)
VALUES ('cards', 'elo', 1000, 40, 990);
SELECT ledger_attach('cards', 'card_matches', 'match_code', 'played', 'p1', 'p2', 'outcome',
                     '{"W": 1, "L": 0, "D": 0.5, "DL": "double_loss", "BYE": "unrated"}', 'org');
INSERT INTO card_matches VALUES ('a1', 'north', '2025-03-01', 'ann', 'bob', 'W'),
                                ('a2', 'north', '2025-03-02', 'ann', NULL, 'BYE'),
                                ('a3', 'north', '2025-03-03', 'bob', 'cid', 'DL'),
                                ('b1', 'south', '2025-03-01', 'ann', 'dan', 'L');
SELECT scope, player, round(rating::numeric, 2) AS rating, games, wins, losses
FROM ledger_standings_now WHERE ledger = 'cards' ORDER BY scope, player;
INSERT INTO card_matches VALUES ('a4', 'north', '2025-03-04', 'ann', 'cid', 'X');
-- seeds: an imported rating is where a player's first game starts; changing it replays
INSERT INTO ledger_seeds (ledger_id, scope, player, rating)
SELECT id, 'north', 'eve', 1150 FROM ledgers WHERE name = 'cards';
INSERT INTO card_matches VALUES ('a5', 'north', '2025-03-05', 'eve', 'ann', 'L');
SELECT player, round(rating_before::numeric, 2) AS before, round(rating::numeric, 2) AS after
FROM ledger_history WHERE ledger = 'cards' AND game = 'a5' ORDER BY player;
UPDATE ledger_seeds SET rating = 1300 WHERE player = 'eve';
SELECT player, round(rating_before::numeric, 2) AS before, round(rating::numeric, 2) AS after
FROM ledger_history WHERE ledger = 'cards' AND game = 'a5' ORDER BY player;
SELECT pg_temp.same_as_rebuild('cards') AS same_with_seeds;
DELETE FROM ledger_seeds WHERE player = 'eve';
SELECT round(rating_before::numeric, 2) AS eve_starts_at FROM ledger_history WHERE ledger = 'cards' AND game = 'a5' AND player = 'eve';
-- many seeds in one statement: each scope is replayed once, from the earliest first game of its
-- reseeded players, at the statement's end
INSERT INTO ledger_seeds (ledger_id, scope, player, rating)
SELECT id, v.scope, v.player, v.rating FROM ledgers,
       (VALUES ('north', 'bob', 1600), ('north', 'cid', 1400), ('south', 'dan', 1700)) v(scope, player, rating)
WHERE name = 'cards';
SELECT scope, player, round(rating::numeric, 2) AS rating FROM ledger_standings_now WHERE ledger = 'cards'
ORDER BY scope, player;
SELECT pg_temp.same_as_rebuild('cards') AS same_after_many_seeds;
DELETE FROM ledger_seeds WHERE player IN ('bob', 'cid', 'dan');
SELECT pg_temp.same_as_rebuild('cards') AS same_after_deleting_them;
INSERT INTO ledger_seeds (ledger_id, player, rating) SELECT id, 'x', 'Infinity' FROM ledgers WHERE name = 'cards';
SELECT pg_temp.same_as_rebuild('cards') AS same;

-- multiplayer games: a participants table, the pairwise rule (meeple.cat's) and the Glicko-2 period rule
CREATE TABLE plays (play_id int NOT NULL, played_at timestamptz NOT NULL, player text NOT NULL, place int);
INSERT INTO ledgers (name, rating_system) VALUES ('meeple', 'glicko2'), ('meeple period', 'glicko2');
INSERT INTO ledgers (name, rating_system, k_factor) VALUES ('meeple elo', 'elo', 32);
SELECT ledger_attach_multiplayer('meeple', 'plays', 'play_id', 'played_at', 'player', 'place');
SELECT ledger_attach_multiplayer('meeple period', 'plays', 'play_id', 'played_at', 'player', 'place', rule => 'period');
SELECT ledger_attach_multiplayer('meeple elo', 'plays', 'play_id', 'played_at', 'player', 'place', rule => 'period');
SELECT ledger_attach_multiplayer('meeple elo', 'plays', 'play_id', 'played_at', 'player', 'place', rule => 'ranked');
SELECT ledger_attach_multiplayer('meeple elo', 'plays', 'play_id', 'played_at', 'player', 'no_place');
SELECT ledger_attach_multiplayer('meeple elo', 'plays', 'play_id', 'played_at', 'player', 'place');
-- a game of four, a participant at a time: rated once it has two
INSERT INTO plays VALUES (1, '2025-05-01', 'ann', 1);
SELECT count(*) AS entries FROM ledger_history WHERE ledger LIKE 'meeple%';
INSERT INTO plays VALUES (1, '2025-05-01', 'bob', 2), (1, '2025-05-01', 'cid', 2), (1, '2025-05-01', 'dan', 4);
SELECT ledger, player, round(rating::numeric, 2) AS rating, round(rd::numeric, 2) AS rd, games, wins, draws, losses
FROM ledger_standings_now WHERE ledger LIKE 'meeple%' ORDER BY 1, 2;
-- the period rule is glicko2_multiplayer
SELECT bool_and(round(s.rating::numeric, 6) = round(m.rating::numeric, 6)) AS period_is_glicko2_multiplayer
FROM (SELECT player, rating FROM ledger_standings_now WHERE ledger = 'meeple period') s
JOIN (SELECT (ARRAY['ann', 'bob', 'cid', 'dan'])[i] AS player, u.rating
      FROM unnest(glicko2_multiplayer(array_fill('(1500,350,0.06)'::glicko2_rating, ARRAY[4]), '{1,2,2,4}'))
           WITH ORDINALITY AS u(rating, rd, volatility, i)) m ON m.player = s.player;
-- a later game, a corrected placement of the first, a participant who leaves
INSERT INTO plays VALUES (2, '2025-05-02', 'ann', 3), (2, '2025-05-02', 'bob', 1), (2, '2025-05-02', 'cid', 2);
UPDATE plays SET place = 1 WHERE play_id = 1 AND player = 'dan';
SELECT pg_temp.same_as_rebuild('meeple') AND pg_temp.same_as_rebuild('meeple period')
       AND pg_temp.same_as_rebuild('meeple elo') AS same_after_correction;
DELETE FROM plays WHERE play_id = 2 AND player = 'cid';
SELECT pg_temp.same_as_rebuild('meeple') AND pg_temp.same_as_rebuild('meeple elo') AS same_after_delete;
SELECT player, opponent, score, round(expected::numeric, 4) AS expected, round(change::numeric, 2) AS change
FROM ledger_history WHERE ledger = 'meeple elo' AND game = '2' ORDER BY player;
INSERT INTO plays VALUES (3, '2025-05-03', 'ann', 1), (3, '2025-05-03', 'ann', 2);
SELECT entries, round(brier::numeric, 4) AS brier FROM ledger_what_if('meeple elo', k_factors => '{16}');

-- a multiplayer ledger's typed history has no one opponent
SELECT count(*) AS entries, count(opponent) AS with_an_opponent FROM ledger_history_of('meeple', NULL::text);

-- FIDE's rules game by game: K 40 before 30 games, PD from FIDE's table; wins, draws and losses only
INSERT INTO ledgers (name, rating_system, starting_rating) VALUES ('fide', 'fide', 2000);
CREATE TABLE fide_games (id int PRIMARY KEY, at timestamptz NOT NULL, a text, b text, s float8);
SELECT ledger_attach('fide', 'fide_games', 'id', 'at', 'a', 'b', 's');
INSERT INTO fide_games VALUES (1, '2025-01-01', 'x', 'y', 1), (2, '2025-01-02', 'x', 'z', 0.5);
SELECT game, player, round(expected::numeric, 2) AS pd, round(rating_before::numeric, 1) AS before,
       round(rating::numeric, 1) AS after
FROM ledger_history WHERE ledger = 'fide' ORDER BY game_date, player;
INSERT INTO fide_games VALUES (3, '2025-01-03', 'x', 'y', 0.25);
INSERT INTO ledgers (name, rating_system, starting_rating) VALUES ('bad fide', 'fide', 5000);

-- seasons: at a season's end ratings are pulled toward the start and RDs raised, as an event of
-- the replay; the season's final standings stay readable
INSERT INTO ledgers (name, rating_system) VALUES ('seasonal', 'glicko2');
CREATE TABLE season_games (id int PRIMARY KEY, at timestamptz NOT NULL, a text, b text, s float8);
SELECT ledger_attach('seasonal', 'season_games', 'id', 'at', 'a', 'b', 's');
INSERT INTO season_games
SELECT i, timestamptz '2025-01-01' + i * interval '1 day', 'p' || (i % 3), 'p' || ((i + 1) % 3), (i % 2)::float8
FROM generate_series(1, 20) i;
INSERT INTO ledger_seasons (ledger_id, name, ends_at, rating_pull, rd_floor)
SELECT id, 'Winter', '2025-01-11', 0.5, 200 FROM ledgers WHERE name = 'seasonal';
SELECT season, player, round(rating::numeric, 2) AS rating, round(rd::numeric, 2) AS rd, games
FROM ledger_season_standings WHERE ledger = 'seasonal' ORDER BY player;
-- each player's first game after the end starts from the reset standing
SELECT h.player, bool_and(abs(h.rating_before - (1500 + (z.rating - 1500) * 0.5)) < 1e-6
                          AND h.rd_before = greatest(z.rd, 200)) AS starts_reset
FROM (SELECT DISTINCT ON (player) * FROM ledger_history
      WHERE ledger = 'seasonal' AND game_date >= '2025-01-11' ORDER BY player, game_date) h
JOIN ledger_season_standings z ON z.ledger = 'seasonal' AND z.player = h.player
GROUP BY h.player ORDER BY 1;
SELECT pg_temp.same_as_rebuild('seasonal') AS same_with_a_season;
-- a season that ended after everyone's last game shows in the standings as of now
INSERT INTO ledger_seasons (ledger_id, name, ends_at, rating_pull)
SELECT id, 'Spring', '2025-06-01', 1 FROM ledgers WHERE name = 'seasonal';
SELECT player, rating FROM ledger_standings_now WHERE ledger = 'seasonal' ORDER BY player;
-- each season's own record: from the previous season's end to its own, counted from the history
SELECT z.season, z.player, z.season_starts_at, z.games, z.season_games, z.season_wins + z.season_draws
       + z.season_losses = z.season_games AS record_adds_up,
       z.season_games = count(h.*) AS games_counted,
       z.season_peak IS NOT DISTINCT FROM max(h.rating) AS peak_of_the_season
FROM ledger_season_standings z
LEFT JOIN ledger_history h ON h.ledger = z.ledger AND h.scope = z.scope AND h.player = z.player
     AND h.game_date < z.ends_at AND (z.season_starts_at IS NULL OR h.game_date >= z.season_starts_at)
WHERE z.ledger = 'seasonal'
GROUP BY 1, 2, 3, 4, 5, 6, z.season_peak ORDER BY z.season_starts_at NULLS FIRST, 2;
DELETE FROM ledger_seasons WHERE name = 'Winter';
SELECT pg_temp.same_as_rebuild('seasonal') AS same_without_it,
       (SELECT count(*) FROM ledger_history WHERE ledger = 'seasonal' AND rd_before = 200) AS reset_rds_left;
INSERT INTO ledger_seasons (ledger_id, name, ends_at, rating_pull) SELECT id, 'Bad', '2025-07-01', 2 FROM ledgers WHERE name = 'seasonal';

-- a leaderboard page (read down the rating index, or sorted when a season has ended) is the page
-- of the scope's standings as of now sorted whole, for every ledger, scope and filter
SELECT count(*) AS pages_checked,
       count(*) FILTER (WHERE got IS DISTINCT FROM expected) AS pages_differing
FROM (SELECT DISTINCT ledger, scope FROM ledger_standings_now) s
CROSS JOIN (VALUES (0, NULL::float8, true, 50, 1), (2, NULL, true, 2, 2), (0, 150, true, 3, 1),
                   (0, NULL, false, 1, 3), (1, 300, false, 2, 1), (0, NULL, true, 0, 1)) AS f(g, r, p, size, page)
CROSS JOIN LATERAL (
    SELECT (SELECT array_agg(ROW(b.rank, b.player, b.rating, b.rd, b.provisional) ORDER BY b.rating DESC, b.player)
            FROM ledger_leaderboard(s.ledger, s.scope, f.g, f.r, f.p, f.size, f.page) b) AS got,
           (SELECT array_agg(ROW(x.rank, x.player, x.rating, x.rd, x.provisional) ORDER BY x.rating DESC, x.player)
            FROM (SELECT (dense_rank() OVER (ORDER BY n.rating DESC))::int AS rank, n.player, n.rating, n.rd,
                         n.provisional
                  FROM ledger_standings_now n
                  WHERE n.ledger = s.ledger AND n.scope = s.scope AND n.games >= f.g
                    AND (f.r IS NULL OR n.rd IS NULL OR n.rd <= f.r) AND (f.p OR NOT n.provisional)
                  ORDER BY n.rating DESC, n.player LIMIT f.size OFFSET f.size * (f.page - 1)) x) AS expected) c;

-- an attached table's filter is the application's SQL: it cannot write derived rows either
CREATE FUNCTION forge_rating() RETURNS boolean LANGUAGE sql AS 'UPDATE ledger_standings SET rating = 9999 RETURNING true';
CREATE TABLE forged_games (id int PRIMARY KEY, at timestamptz NOT NULL, a text, b text, s float8);
INSERT INTO ledgers (name) VALUES ('forged');
SELECT ledger_attach('forged', 'forged_games', 'id', 'at', 'a', 'b', 's', filter => 'forge_rating()');
INSERT INTO forged_games VALUES (1, '2025-01-01', 'x', 'y', 1);
SELECT count(*) AS forged FROM ledger_standings WHERE rating = 9999;
DELETE FROM ledgers WHERE name = 'forged';
DROP TABLE forged_games;
DROP FUNCTION forge_rating();

-- derived rows are pg_rating's to write; a ledger is attached by the owner of both
CREATE ROLE regress_ledger_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO regress_ledger_app;
GRANT USAGE ON ALL SEQUENCES IN SCHEMA public TO regress_ledger_app;
GRANT CREATE ON SCHEMA public TO regress_ledger_app;
SET ROLE regress_ledger_app;
UPDATE ledger_standings SET rating = 9999;
DELETE FROM ledger_entries;
INSERT INTO matches (played_at, white, black, score) VALUES ('2025-03-01', 2, 1, 1);
SELECT ledger_detach('club');
UPDATE ledgers SET k_factor = 64 WHERE name = 'club';
CREATE TABLE regress_my_games (id int, at timestamptz, a int, b int, s float8);
SELECT ledger_attach('club', 'regress_my_games', 'id', 'at', 'a', 'b', 's');
RESET ROLE;
SELECT pg_temp.same_as_rebuild('club') AS same_after_app_insert;

-- the ledgers of a table share one set of triggers; it goes with the table's last ledger
SELECT tgname FROM pg_trigger WHERE tgrelid = 'matches'::regclass ORDER BY 1;
-- detaching stops the ledger; the history stays
SELECT ledger_detach('club');
SELECT tgname FROM pg_trigger WHERE tgrelid = 'matches'::regclass ORDER BY 1;
INSERT INTO matches (played_at, white, black, score) VALUES ('2025-04-01', 1, 2, 1);
SELECT count(*) AS entries_of_club FROM ledger_entries e JOIN ledgers l ON l.id = e.ledger_id WHERE l.name = 'club';
SELECT ledger_rebuild('club');
-- deleting a ledger detaches it and removes its history
DELETE FROM ledgers WHERE name = 'club glicko';
INSERT INTO matches (played_at, white, black, score) VALUES ('2025-04-02', 1, 2, 1);
SELECT l.name, count(e.*) FROM ledgers l LEFT JOIN ledger_entries e ON e.ledger_id = l.id GROUP BY 1 ORDER BY 1;
SELECT tgname FROM pg_trigger WHERE tgrelid = 'matches'::regclass ORDER BY 1;

-- a table restored from a dump of 0.3-0.6 has one set of triggers per ledger, each rating its
-- own ledger; attaching another ledger replaces them by the table's set
CREATE TABLE restored_games (id int PRIMARY KEY, at timestamptz NOT NULL, a text, b text, s float8);
INSERT INTO ledgers (name) VALUES ('restored'), ('restored too');
SELECT ledger_attach('restored', 'restored_games', 'id', 'at', 'a', 'b', 's');
DO $$
DECLARE l int := (SELECT id FROM ledgers WHERE name = 'restored');
BEGIN
    EXECUTE 'DROP TRIGGER pg_rating_ledgers_insert ON restored_games';
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON restored_games REFERENCING NEW TABLE AS pg_rating_new
                    FOR EACH STATEMENT EXECUTE FUNCTION ledger_games_changed(%L)', 'pg_rating_ledger_' || l || '_insert', l);
END $$;
INSERT INTO restored_games VALUES (1, '2025-01-01', 'ann', 'bob', 1);
SELECT ledger_attach('restored too', 'restored_games', 'id', 'at', 'a', 'b', 's');
SELECT tgname ~ '^pg_rating_ledgers_' AS table_trigger, count(*) FROM pg_trigger
WHERE tgrelid = 'restored_games'::regclass GROUP BY 1;
INSERT INTO restored_games VALUES (2, '2025-01-02', 'bob', 'ann', 0.5);
SELECT ledger, count(*) AS entries FROM ledger_history WHERE ledger LIKE 'restored%' GROUP BY 1 ORDER BY 1;
SELECT pg_temp.same_as_rebuild('restored') AND pg_temp.same_as_rebuild('restored too') AS same_after_restored;
-- the trigger function refuses a table without ledgers, and a ledger of another table
CREATE TABLE other_games (id int);
CREATE TRIGGER forged AFTER INSERT ON other_games FOR EACH STATEMENT EXECUTE FUNCTION ledger_games_changed();
INSERT INTO other_games VALUES (1);
DROP TRIGGER forged ON other_games;
CREATE TRIGGER forged AFTER INSERT ON other_games FOR EACH STATEMENT EXECUTE FUNCTION ledger_games_changed('1');
INSERT INTO other_games VALUES (1);
-- pg_rating writes its derived rows as COPY does: a row trigger of one's own on them is refused,
-- not passed over
CREATE FUNCTION pg_temp.audit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NEW; END $$;
CREATE TRIGGER audit AFTER INSERT ON ledger_entries FOR EACH ROW EXECUTE FUNCTION pg_temp.audit();
INSERT INTO restored_games VALUES (3, '2025-01-03', 'ann', 'bob', 0);
DROP TRIGGER audit ON ledger_entries;
INSERT INTO restored_games VALUES (3, '2025-01-03', 'ann', 'bob', 0);
SELECT count(*) AS entries_of_game_3 FROM ledger_history WHERE ledger LIKE 'restored%' AND game = '3';
-- one statement of 1,500 games writes 3,000 entries per ledger, past the writer's batches of 1,000
-- rows, with a player id long enough to be compressed in its row
INSERT INTO restored_games
SELECT 100 + n, timestamptz '2025-02-01' + n * interval '1 minute',
       CASE WHEN n % 7 = 0 THEN repeat('long', 1000) ELSE 'p' || n % 40 END, 'q' || n % 37, (n % 3) / 2.0
FROM generate_series(1, 1500) n;
SELECT count(*) AS entries, max(length(player)) AS longest_player FROM ledger_history WHERE ledger = 'restored';
SELECT pg_temp.same_as_rebuild('restored') AND pg_temp.same_as_rebuild('restored too') AS same_after_1500_games;
-- a rebuild keeps the rows already equal to its replay and replaces the others: one that changes
-- nothing writes nothing, one after forged rows replaces just those, one after a new K replaces every
-- row (into the emptied scopes, without the indexes' unique check: the replay makes each key once).
-- Every index still holds every row, one of one's own with an expression and a predicate too.
CREATE EXTENSION amcheck;
CREATE INDEX regress_standings_by_lower ON ledger_standings (lower(player)) WHERE games > 30;
SET client_min_messages = debug1;
SELECT ledger_rebuild('restored') AS entries;
RESET client_min_messages;
CREATE TEMP TABLE unforged AS
SELECT e.* FROM ledger_entries e JOIN ledgers l ON l.id = e.ledger_id WHERE l.name = 'restored';
CREATE TEMP TABLE unforged_standings AS
SELECT s.* FROM ledger_standings s JOIN ledgers l ON l.id = s.ledger_id WHERE l.name = 'restored';
SET row_security = off;  -- (a superuser writing as a restore does)
UPDATE ledger_entries SET rating = rating + 1
WHERE ledger_id = (SELECT id FROM ledgers WHERE name = 'restored') AND player = 'q1';
UPDATE ledger_standings SET games = 0
WHERE ledger_id = (SELECT id FROM ledgers WHERE name = 'restored') AND player IN ('q2', 'q3');
RESET row_security;
SET client_min_messages = debug1;
SELECT ledger_rebuild('restored') AS entries;
RESET client_min_messages;
SELECT (SELECT count(*) FROM (SELECT * FROM unforged EXCEPT ALL SELECT e.* FROM ledger_entries e
                              JOIN ledgers l ON l.id = e.ledger_id WHERE l.name = 'restored') d) AS entries_not_repaired,
       (SELECT count(*) FROM (SELECT * FROM unforged_standings EXCEPT ALL SELECT s.* FROM ledger_standings s
                              JOIN ledgers l ON l.id = s.ledger_id WHERE l.name = 'restored') d) AS standings_not_repaired;
DROP TABLE unforged, unforged_standings;
BEGIN;
SET LOCAL client_min_messages = debug1;
UPDATE ledgers SET k_factor = 24 WHERE name = 'restored';
SET LOCAL client_min_messages = notice;
SELECT bt_index_check(i::regclass, true) FROM (VALUES ('ledger_entries_pkey'), ('ledger_standings_pkey'),
    ('ledger_standings_by_rating'), ('regress_standings_by_lower')) v(i);
COMMIT;
-- under REPEATABLE READ a rebuild sees what its own transaction wrote before it
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT count(*) AS entries_before FROM ledger_history WHERE ledger = 'restored';
INSERT INTO restored_games VALUES (5000, '2025-03-01', 'ann', 'bob', 1);
SET LOCAL client_min_messages = debug1;
SELECT ledger_rebuild('restored') AS entries;
SET LOCAL client_min_messages = notice;
COMMIT;
SELECT count(*) AS duplicate_keys FROM (SELECT FROM ledger_entries
    GROUP BY ledger_id, scope, player, game_date, game_key HAVING count(*) > 1) d;
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT player, games FROM ledger_standings WHERE lower(player) = 'q1' AND games > 30;
SELECT player, games FROM ledger_standings WHERE lower(player) = 'q1' AND games > 30 ORDER BY 1, 2;
RESET enable_seqscan;
SELECT player, games FROM ledger_standings WHERE player = 'q1' ORDER BY 1, 2;
DROP INDEX regress_standings_by_lower;
DROP EXTENSION amcheck;
DROP TABLE other_games, restored_games;

-- a key column that allows NULL: a rated game without a key is refused (22004), an unrated one
-- is not rated and written
INSERT INTO ledgers (name) VALUES ('keyless');
CREATE TABLE keyless_games (id bigint, at timestamptz NOT NULL, a text, b text, s float8, rated bool NOT NULL);
SELECT ledger_attach('keyless', 'keyless_games', 'id', 'at', 'a', 'b', 's', filter => 'rated');
INSERT INTO keyless_games VALUES (NULL, '2025-01-01', 'x', 'y', 1, true);
INSERT INTO keyless_games VALUES (NULL, '2025-01-01', 'x', 'y', 1, false), (1, '2025-01-02', 'x', 'y', 0, true);
UPDATE keyless_games SET rated = true WHERE id IS NULL;
DELETE FROM keyless_games WHERE id IS NULL;
SELECT game, player, round(rating::numeric, 1) AS rating FROM ledger_history WHERE ledger = 'keyless' ORDER BY player;
INSERT INTO ledgers (name) VALUES ('keyless plays');
CREATE TABLE keyless_plays (play_id text, at timestamptz NOT NULL, player text NOT NULL, place int);
SELECT ledger_attach_multiplayer('keyless plays', 'keyless_plays', 'play_id', 'at', 'player', 'place');
INSERT INTO keyless_plays VALUES (NULL, '2025-01-01', 'x', 1), (NULL, '2025-01-01', 'y', 2);
INSERT INTO keyless_plays VALUES (NULL, '2025-01-01', 'x', NULL), ('p1', '2025-01-02', 'x', 1), ('p1', '2025-01-02', 'y', 2);
SELECT game, player, round(rating::numeric, 1) AS rating FROM ledger_history WHERE ledger = 'keyless plays' ORDER BY player;
DROP TABLE keyless_games, keyless_plays;
DELETE FROM ledgers WHERE name IN ('keyless', 'keyless plays');

-- A dropped games table takes its ledgers' attachment with it (the history stays): the ledger
-- can be attached again, and no attachment names the dropped table's oid
INSERT INTO ledgers (name) VALUES ('dropped table');
CREATE TABLE dropped_games (id int PRIMARY KEY, at timestamptz NOT NULL, a text, b text, s float8);
SELECT ledger_attach('dropped table', 'dropped_games', 'id', 'at', 'a', 'b', 's');
INSERT INTO dropped_games VALUES (1, '2025-01-01', 'x', 'y', 1);
SELECT 'dropped_games'::regclass::oid AS dropped_oid \gset
DROP TABLE dropped_games;
SELECT count(*) AS attachments_of_the_dropped_oid FROM ledger_attachments WHERE games::oid = :dropped_oid;
SELECT count(*) AS history_kept FROM ledger_history WHERE ledger = 'dropped table';
CREATE TABLE dropped_games (id int PRIMARY KEY, at timestamptz NOT NULL, a text, b text, s float8);
SELECT ledger_attach('dropped table', 'dropped_games', 'id', 'at', 'a', 'b', 's');
-- and with its schema: DROP SCHEMA ... CASCADE
CREATE SCHEMA dropped_schema;
ALTER TABLE dropped_games SET SCHEMA dropped_schema;
DROP SCHEMA dropped_schema CASCADE;
SELECT count(*) AS attachments_left FROM ledger_attachments a JOIN ledgers l ON l.id = a.ledger_id
WHERE l.name = 'dropped table';
-- two games tables whose columns have the same names in another order, written in one session:
-- each statement's rows are read by a plan of their own table's columns (the text of the reads is
-- the same), also after a column's type changed
CREATE TABLE order_a (id int PRIMARY KEY, at date NOT NULL, home text, away text, result float8);
CREATE TABLE order_b (id int PRIMARY KEY, at date NOT NULL, away text, home text, result float8);
INSERT INTO ledgers (name) VALUES ('order a'), ('order b');
SELECT ledger_attach(l, t, 'id', 'at', 'home', 'away', 'result')
FROM (VALUES ('order a', 'order_a'), ('order b', 'order_b')) v(l, t);
INSERT INTO order_a VALUES (1, '2025-01-01', 'H', 'A', 1);
INSERT INTO order_b (id, at, home, away, result) VALUES (1, '2025-01-01', 'H', 'A', 1);
ALTER TABLE order_a ALTER COLUMN result TYPE numeric;
INSERT INTO order_a VALUES (2, '2025-01-02', 'H', 'A', 0.5);
SELECT ledger, player, rating FROM ledger_standings_now WHERE ledger LIKE 'order %' ORDER BY 1, 2;
SELECT ledger_detach(l) FROM unnest(ARRAY['order a', 'order b']) l;
DROP TABLE order_a, order_b;
DELETE FROM ledgers WHERE name LIKE 'order %';

-- a temporary table goes at its session's end, unseen by event triggers: none is attached (0A000);
-- a typed table dropped with its type (DROP TYPE ... CASCADE) takes its attachment with it
CREATE TEMP TABLE temp_games (id int PRIMARY KEY, at timestamptz NOT NULL, a text, b text, s float8);
DO $$
BEGIN
    PERFORM ledger_attach('dropped table', 'temp_games', 'id', 'at', 'a', 'b', 's');
EXCEPTION WHEN feature_not_supported THEN
    -- (the number of the session's temporary schema varies)
    RAISE NOTICE '%', regexp_replace(SQLERRM, 'pg_temp_[0-9]+', 'pg_temp_N');
END
$$;
DROP TABLE temp_games;
CREATE TYPE typed_game AS (id int, at timestamptz, a text, b text, s float8);
CREATE TABLE typed_games OF typed_game (PRIMARY KEY (id));
SELECT ledger_attach('dropped table', 'typed_games', 'id', 'at', 'a', 'b', 's');
DROP TYPE typed_game CASCADE;
SELECT count(*) AS attachments_left FROM ledger_attachments a JOIN ledgers l ON l.id = a.ledger_id
WHERE l.name = 'dropped table';

-- a ledger's settings do not change while pg_rating rates its games (55000): a filter that
-- changes them is refused, and the statement with it
INSERT INTO ledgers (name, k_factor) VALUES ('sneaky', 20);
CREATE TABLE sneaky_games (id int PRIMARY KEY, at timestamptz NOT NULL, a text, b text, s float8);
CREATE FUNCTION sneaky_filter() RETURNS boolean LANGUAGE sql AS
    $$ UPDATE public.ledgers SET k_factor = 40 WHERE name = 'sneaky' AND k_factor = 20 RETURNING true $$;
SELECT ledger_attach('sneaky', 'sneaky_games', 'id', 'at', 'a', 'b', 's', filter => 'coalesce(public.sneaky_filter(), true)');
INSERT INTO sneaky_games VALUES (1, '2025-01-01', 'x', 'y', 1);
SELECT k_factor, (SELECT count(*) FROM sneaky_games) AS games FROM ledgers WHERE name = 'sneaky';
-- nor does a filter attach, detach or rebuild a ledger, or change its seeds or seasons (55000)
INSERT INTO ledgers (name, k_factor) VALUES ('sneaky victim', 20);
CREATE TABLE sneaky_victim_games (id int PRIMARY KEY, at timestamptz NOT NULL, a text, b text, s float8);
SELECT ledger_attach('sneaky victim', 'sneaky_victim_games', 'id', 'at', 'a', 'b', 's');
CREATE OR REPLACE FUNCTION sneaky_filter() RETURNS boolean LANGUAGE sql AS
    $$ SELECT public.ledger_detach('sneaky victim') IS NULL $$;
INSERT INTO sneaky_games VALUES (1, '2025-01-01', 'x', 'y', 1);
CREATE OR REPLACE FUNCTION sneaky_filter() RETURNS boolean LANGUAGE sql AS
    $$ SELECT public.ledger_rebuild('sneaky') >= 0 $$;
INSERT INTO sneaky_games VALUES (1, '2025-01-01', 'x', 'y', 1);
CREATE OR REPLACE FUNCTION sneaky_filter() RETURNS boolean LANGUAGE sql AS
    $$ SELECT public.ledger_attach('sneaky', 'sneaky_victim_games', 'id', 'at', 'a', 'b', 's') >= 0 $$;
INSERT INTO sneaky_games VALUES (1, '2025-01-01', 'x', 'y', 1);
CREATE OR REPLACE FUNCTION sneaky_filter() RETURNS boolean LANGUAGE sql AS
    $$ INSERT INTO public.ledger_seeds (ledger_id, scope, player, rating)
       SELECT id, '', 'x', 2000 FROM public.ledgers WHERE name = 'sneaky' RETURNING true $$;
INSERT INTO sneaky_games VALUES (1, '2025-01-01', 'x', 'y', 1);
CREATE OR REPLACE FUNCTION sneaky_filter() RETURNS boolean LANGUAGE sql AS
    $$ INSERT INTO public.ledger_seasons (ledger_id, name, ends_at)
       SELECT id, 'spring', '2024-06-01' FROM public.ledgers WHERE name = 'sneaky' RETURNING true $$;
INSERT INTO sneaky_games VALUES (1, '2025-01-01', 'x', 'y', 1);
SELECT l.name, (SELECT count(*) FROM ledger_attachments a WHERE a.ledger_id = l.id) AS attached,
       (SELECT count(*) FROM ledger_seeds s WHERE s.ledger_id = l.id) AS seeds,
       (SELECT count(*) FROM ledger_seasons s WHERE s.ledger_id = l.id) AS seasons,
       (SELECT count(*) FROM ledger_entries e WHERE e.ledger_id = l.id) AS entries
FROM ledgers l WHERE l.name LIKE 'sneaky%' ORDER BY l.name;
SELECT ledger_detach('sneaky victim');
DROP TABLE sneaky_victim_games;
DELETE FROM ledgers WHERE name = 'sneaky victim';
SELECT ledger_detach('sneaky');
DROP TABLE sneaky_games;
DROP FUNCTION sneaky_filter();
-- a filter is one expression (42601 otherwise: it would change pg_rating's reads); a comment
-- that ends it ends with it
CREATE TABLE filtered_games (id int PRIMARY KEY, at timestamptz NOT NULL, a text, b text, s float8);
SELECT ledger_attach('sneaky', 'filtered_games', 'id', 'at', 'a', 'b', 's', filter => 'true) OR (true');
SELECT ledger_attach('sneaky', 'filtered_games', 'id', 'at', 'a', 'b', 's', filter => 'true FROM pg_class');
SELECT ledger_attach('sneaky', 'filtered_games', 'id', 'at', 'a', 'b', 's', filter => 'true; SELECT 1');
SELECT ledger_attach('sneaky', 'filtered_games', 'id', 'at', 'a', 'b', 's', filter => 'id > 0 /*');
SELECT ledger_attach('sneaky', 'filtered_games', 'id', 'at', 'a', 'b', 's', filter => 'true UNION SELECT false');
SELECT ledger_attach('sneaky', 'filtered_games', 'id', 'at', 'a', 'b', 's', filter => 'id > 1 -- not the first');
INSERT INTO filtered_games VALUES (1, '2025-01-01', 'x', 'y', 1), (2, '2025-01-02', 'x', 'y', 1);
SELECT game FROM ledger_history WHERE ledger = 'sneaky' ORDER BY game, player;
DROP TABLE filtered_games;
DELETE FROM ledgers WHERE name IN ('dropped table', 'sneaky');

DROP TABLE regress_my_games;
DROP OWNED BY regress_ledger_app;
DROP ROLE regress_ledger_app;
