-- Columns of related tables (issue 32, item 2): an attached column may be a path a -> b -> c
-- through single-column foreign keys; changes of the related tables re-rate the games they
-- touch, each checked against a rebuild (the entries before and after ledger_rebuild).
CREATE FUNCTION entries_of(ledger text) RETURNS text LANGUAGE sql AS $$
    SELECT coalesce(string_agg(format('%s|%s|%s|%s|%s', e.scope, e.player, e.game, e.game_date,
                                      round(e.rating::numeric, 6)), ';' ORDER BY e.scope, e.player, e.game_key), '')
    FROM ledger_entries e JOIN ledgers l ON l.id = e.ledger_id WHERE l.name = ledger
$$;
-- true when the ledger's entries equal those of a rebuild (the trigger got it right)
CREATE FUNCTION as_rebuilt(ledger text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE before text := entries_of(ledger);
BEGIN
    PERFORM ledger_rebuild(ledger);
    RETURN before = entries_of(ledger);
END
$$;
-- the SQLSTATE and message of a statement's error
CREATE FUNCTION error_of(statement text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE statement;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;

CREATE TABLE orgs (id int PRIMARY KEY, name text NOT NULL);
CREATE TABLE events (id int PRIMARY KEY, org_id int REFERENCES orgs ON UPDATE CASCADE, game_type text NOT NULL,
                     rated boolean);
CREATE TABLE rounds (id int PRIMARY KEY, event_id int NOT NULL REFERENCES events, number int NOT NULL);
CREATE TABLE users (id int PRIMARY KEY, name text NOT NULL, last_login timestamptz);
CREATE TABLE participants (id int PRIMARY KEY, user_id int REFERENCES users, seed int);
CREATE TABLE matches (id int PRIMARY KEY, round_id int NOT NULL REFERENCES rounds,
                      white_participant int NOT NULL REFERENCES participants ON DELETE CASCADE,
                      black_participant int NOT NULL REFERENCES participants ON DELETE CASCADE,
                      played_at timestamptz NOT NULL, result float8);
INSERT INTO orgs VALUES (1, 'north'), (2, 'south');
INSERT INTO events VALUES (10, 1, 'blitz', true), (11, 1, 'rapid', true), (12, 2, 'blitz', NULL);
INSERT INTO rounds VALUES (100, 10, 1), (101, 11, 1), (102, 12, 1);
INSERT INTO users VALUES (1, 'ann', NULL), (2, 'bob', NULL), (3, 'cat', NULL), (4, 'dan', NULL);
INSERT INTO participants VALUES (1, 1, 1), (2, 2, 2), (3, 3, 3), (4, 4, 4), (5, 1, 5), (6, 2, 6);
INSERT INTO matches VALUES
    (1, 100, 1, 2, '2025-01-01', 1), (2, 100, 3, 4, '2025-01-02', 0.5), (3, 101, 1, 3, '2025-01-03', 0),
    (4, 102, 2, 4, '2025-01-04', 1), (5, 100, 5, 6, '2025-01-05', 0), (6, 101, 6, 4, '2025-01-06', NULL);

-- 1. a two-player ledger: players through participants, scope two hops away
INSERT INTO ledgers (name, rating_system) VALUES ('by org', 'elo'), ('by org and type', 'elo'),
                                                 ('plain', 'elo');
SELECT ledger_attach('by org', 'matches', 'id', 'played_at', 'white_participant -> user_id',
                     'black_participant -> user_id', 'result', scope_column => 'round_id -> event_id -> org_id');
-- a two-column scope (two paths sharing their joins), steps written as SQL writes them
SELECT ledger_attach('by org and type', 'matches', 'id', 'played_at', 'White_Participant -> "user_id"',
                     'black_participant->user_id', 'result',
                     scope_column => 'round_id -> event_id -> org_id, round_id -> event_id -> game_type');
-- the same games with the players' ids copied by hand: the numbers the paths must give
CREATE TABLE flat AS
SELECT m.id, m.played_at, w.user_id AS white, b.user_id AS black, m.result, e.org_id
FROM matches m JOIN participants w ON w.id = m.white_participant JOIN participants b ON b.id = m.black_participant
JOIN rounds r ON r.id = m.round_id JOIN events e ON e.id = r.event_id;
SELECT ledger_attach('plain', 'flat', 'id', 'played_at', 'white', 'black', 'result', scope_column => 'org_id');
SELECT a.scope, a.player, round(a.rating::numeric, 4) AS rating, a.games,
       round(b.rating::numeric, 4) = round(a.rating::numeric, 4) AS as_plain
FROM ledger_standings a JOIN ledgers l ON l.id = a.ledger_id
LEFT JOIN ledger_standings b ON b.ledger_id = (SELECT id FROM ledgers WHERE name = 'plain')
     AND b.scope = a.scope AND b.player = a.player
WHERE l.name = 'by org' ORDER BY 1, 2;
SELECT scope, player, round(rating::numeric, 4) AS rating, games
FROM ledger_standings s JOIN ledgers l ON l.id = s.ledger_id WHERE l.name = 'by org and type' ORDER BY 1, 2;
SELECT key_column, white_column, black_column, scope_column, rated_column, related
FROM ledger_attachments a JOIN ledgers l ON l.id = a.ledger_id WHERE l.name = 'by org and type';
SELECT tgrelid::regclass AS "table", tgname FROM pg_trigger
WHERE tgname LIKE 'pg_rating_ledgers_related%' ORDER BY "table"::text, 2;

-- a two-player ledger rating the games of rated events only (event 12's rated is NULL: not rated)
INSERT INTO ledgers (name, rating_system) VALUES ('rated events', 'elo');
SELECT ledger_attach('rated events', 'matches', 'id', 'played_at', 'white_participant -> user_id',
                     'black_participant -> user_id', 'result', rated_column => 'round_id -> event_id -> rated');
UPDATE events SET rated = true WHERE id = 12;
UPDATE events SET rated = false WHERE id = 10;
SELECT game, player, round(rating::numeric, 4) AS rating FROM ledger_history WHERE ledger = 'rated events'
ORDER BY game_date, player;
SELECT as_rebuilt('rated events') AS rated_events;
SELECT ledger_detach('rated events');

-- 2. an event moved to another org: its games change scope
UPDATE events SET org_id = 2 WHERE id = 11;
SELECT scope, player, round(rating::numeric, 4) AS rating, games
FROM ledger_standings s JOIN ledgers l ON l.id = s.ledger_id WHERE l.name = 'by org' ORDER BY 1, 2;
SELECT as_rebuilt('by org') AS by_org, as_rebuilt('by org and type') AS by_org_and_type;

-- 3. a participant's user corrected (participant 6 was dan, not bob)
UPDATE participants SET user_id = 4 WHERE id = 6;
SELECT player, game, round(rating::numeric, 4) AS rating
FROM ledger_history WHERE ledger = 'by org' AND game IN ('5', '6') ORDER BY game, player;
SELECT as_rebuilt('by org') AS by_org, as_rebuilt('by org and type') AS by_org_and_type;

-- 4. what the ledgers do not read changes nothing (a login, a seed, a round's number)
SELECT entries_of('by org') AS before \gset
UPDATE users SET last_login = '2025-02-01';
UPDATE participants SET seed = seed + 10;
UPDATE rounds SET number = 2;
SELECT entries_of('by org') = :'before' AS unchanged;

-- 5. a participant deleted: its matches go with it (ON DELETE CASCADE)
DELETE FROM participants WHERE id = 3;
SELECT count(*) AS matches, (SELECT count(*) FROM ledger_history WHERE ledger = 'by org') AS entries FROM matches;
SELECT as_rebuilt('by org') AS by_org, as_rebuilt('by org and type') AS by_org_and_type;
-- keys changed: the orgs' (their events follow, ON UPDATE CASCADE), then many events at once
UPDATE orgs SET id = id + 10;
SELECT DISTINCT scope FROM ledger_history WHERE ledger = 'by org' ORDER BY 1;
UPDATE events SET org_id = CASE org_id WHEN 11 THEN 12 ELSE 11 END;
SELECT DISTINCT scope FROM ledger_history WHERE ledger = 'by org' ORDER BY 1;
SELECT as_rebuilt('by org') AS by_org, as_rebuilt('by org and type') AS by_org_and_type;
-- one statement changing two related tables (a writable CTE): event 10 moved to org 11 and round 100
-- to event 11; each table's trigger sees the other already changed, the games' old scope is the ledger's
WITH e AS (UPDATE events SET org_id = 11 WHERE id = 10 RETURNING id)
UPDATE rounds SET event_id = 11 WHERE id = 100;
SELECT DISTINCT scope FROM ledger_history WHERE ledger = 'by org' ORDER BY 1;
SELECT as_rebuilt('by org') AS by_org, as_rebuilt('by org and type') AS by_org_and_type;
-- the same with the games table: a match's round and that round's event changed together
WITH r AS (UPDATE rounds SET event_id = 12 WHERE id = 101 RETURNING id)
UPDATE matches SET round_id = 101, result = 1 - result WHERE id = 1;
SELECT as_rebuilt('by org') AS by_org, as_rebuilt('by org and type') AS by_org_and_type;

-- 6. a multiplayer ledger: date and rated flag from the match, scope from the title's name
CREATE TABLE titles (id int PRIMARY KEY, name text NOT NULL);
CREATE TABLE tables (id int PRIMARY KEY, title_id int NOT NULL REFERENCES titles);
CREATE TABLE plays (id int PRIMARY KEY, table_id int NOT NULL REFERENCES tables, finished_at timestamptz,
                    is_rated boolean NOT NULL DEFAULT false);
CREATE TABLE seats (play_id int NOT NULL REFERENCES plays ON DELETE CASCADE, player text NOT NULL, place int,
                    PRIMARY KEY (play_id, player));
INSERT INTO titles VALUES (1, 'Catan'), (2, 'Azul');
INSERT INTO tables VALUES (1, 1), (2, 2);
INSERT INTO plays VALUES (1, 1, '2025-03-01', true), (2, 1, '2025-03-02', true), (3, 1, NULL, false),
                         (4, 2, '2025-03-04', true);
INSERT INTO seats VALUES (1, 'ann', 1), (1, 'bob', 2), (1, 'cat', 3), (2, 'bob', 1), (2, 'cat', 2),
                         (3, 'ann', 2), (3, 'cat', 1), (4, 'ann', 1), (4, 'dan', 2);
INSERT INTO ledgers (name, rating_system) VALUES ('meeple', 'elo');
SELECT ledger_attach_multiplayer('meeple', 'seats', 'play_id', 'play_id -> finished_at', 'player', 'place',
                                 scope_column => 'play_id -> table_id -> title_id -> name',
                                 rated_column => 'play_id -> is_rated');
SELECT scope, player, round(rating::numeric, 4) AS rating, games
FROM ledger_standings s JOIN ledgers l ON l.id = s.ledger_id WHERE l.name = 'meeple' ORDER BY 1, 2;
-- a play finished and made rated
UPDATE plays SET finished_at = '2025-03-03', is_rated = true WHERE id = 3;
SELECT scope, player, round(rating::numeric, 4) AS rating, games
FROM ledger_standings s JOIN ledgers l ON l.id = s.ledger_id WHERE l.name = 'meeple' ORDER BY 1, 2;
SELECT as_rebuilt('meeple') AS meeple;
-- a title renamed: its games change scope
UPDATE titles SET name = 'Catan (2nd ed.)' WHERE id = 1;
SELECT DISTINCT scope FROM ledger_history WHERE ledger = 'meeple' ORDER BY 1;
SELECT as_rebuilt('meeple') AS meeple;
-- a table moved to another title, a play made unrated, a play deleted (its seats go with it)
UPDATE tables SET title_id = 2 WHERE id = 1;
SELECT as_rebuilt('meeple') AS meeple;
UPDATE plays SET is_rated = false WHERE id = 1;
SELECT as_rebuilt('meeple') AS meeple;
DELETE FROM plays WHERE id = 2;
SELECT scope, player, round(rating::numeric, 4) AS rating, games
FROM ledger_standings s JOIN ledgers l ON l.id = s.ledger_id WHERE l.name = 'meeple' ORDER BY 1, 2;
SELECT as_rebuilt('meeple') AS meeple;
-- a deferred foreign key: the seats come before their play; the play's INSERT rates them
ALTER TABLE seats ALTER CONSTRAINT seats_play_id_fkey DEFERRABLE INITIALLY DEFERRED;
BEGIN;
INSERT INTO seats VALUES (5, 'ann', 2), (5, 'eve', 1);
INSERT INTO plays VALUES (5, 2, '2025-03-05', true);
COMMIT;
SELECT player, round(rating::numeric, 4) AS rating FROM ledger_history WHERE ledger = 'meeple' AND game = '5'
ORDER BY player;
SELECT as_rebuilt('meeple') AS meeple;
-- a seat's own change still re-rates through the games table's triggers, read along the paths
UPDATE seats SET place = 3 - place WHERE play_id = 4;
SELECT as_rebuilt('meeple') AS meeple;

-- 7. errors
INSERT INTO ledgers (name, rating_system) VALUES ('bad', 'elo');
-- a step that is no foreign key's column
SELECT error_of($$SELECT ledger_attach('bad', 'matches', 'id', 'played_at', 'result -> x', 'black_participant -> user_id', 'result')$$);
-- a missing column, as a step and at the end
SELECT error_of($$SELECT ledger_attach('bad', 'matches', 'id', 'played_at', 'nope -> x', 'black_participant', 'result')$$);
SELECT error_of($$SELECT ledger_attach('bad', 'matches', 'id', 'played_at', 'white_participant -> nope', 'black_participant', 'result')$$);
-- a malformed path
SELECT error_of($$SELECT ledger_attach('bad', 'matches', 'id', 'played_at', 'white_participant ->', 'black_participant', 'result')$$);
-- a foreign key of two columns
CREATE TABLE pairs (a int, b int, who text, PRIMARY KEY (a, b));
CREATE TABLE pair_games (id int PRIMARY KEY, a int, b int, at timestamptz, s float8, FOREIGN KEY (a, b) REFERENCES pairs);
SELECT error_of($$SELECT ledger_attach('bad', 'pair_games', 'id', 'at', 'a -> who', 'a -> who', 's')$$);
-- a path through a partitioned table
CREATE TABLE clubs (id int PRIMARY KEY, name text) PARTITION BY RANGE (id);
CREATE TABLE clubs_1 PARTITION OF clubs FOR VALUES FROM (0) TO (1000);
CREATE TABLE club_games (id int PRIMARY KEY, club int REFERENCES clubs, at timestamptz, w text, b text, s float8);
SELECT error_of($$SELECT ledger_attach('bad', 'club_games', 'id', 'at', 'w', 'b', 's', scope_column => 'club -> name')$$);
-- a table's key to itself (a boss's boss: no error), a very long path, a path through a view, quoted steps with
-- spaces, dots and arrows in their names, an empty step
CREATE FUNCTION tried(statement text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE statement;
    PERFORM ledger_detach('bad');
    RETURN 'attached';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END
$$;
CREATE TABLE staff (id int PRIMARY KEY, boss int REFERENCES staff, "odd -> name.x" text, at timestamptz);
CREATE TABLE staff_games (id int PRIMARY KEY, w int REFERENCES staff, b int REFERENCES staff, at timestamptz, s float8);
SELECT tried($$SELECT ledger_attach('bad', 'staff_games', 'id', 'at', 'w -> boss -> boss -> boss', 'b -> boss', 's')$$);
SELECT tried(format($$SELECT ledger_attach('bad', 'staff_games', 'id', 'at', %L, 'b', 's')$$,
                       'w' || repeat(' -> boss', 200)));
SELECT tried($$SELECT ledger_attach('bad', 'staff_games', 'id', 'w -> at', 'w -> "odd -> name.x"', 'b -> "odd -> name.x"', 's')$$);
SELECT tried($$SELECT ledger_attach('bad', 'staff_games', 'id', 'at', 'w -> "odd -> name', 'b', 's')$$);
SELECT tried($$SELECT ledger_attach('bad', 'staff_games', 'id', 'at', 'w -> -> boss', 'b', 's')$$);
SELECT tried($$SELECT ledger_attach('bad', 'staff_games', 'id', 'at', 'w', 'b', 's', scope_column => 'w -> boss, ')$$);
CREATE VIEW staff_view AS SELECT * FROM staff_games;
SELECT tried($$SELECT ledger_attach('bad', 'staff_view', 'id', 'at', 'w -> boss', 'b', 's')$$);
SELECT tried($$SELECT ledger_attach('bad', 'staff_games', 'id -> boss', 'at', 'w', 'b', 's')$$);
DROP VIEW staff_view;
DROP TABLE staff_games, staff;
DROP FUNCTION tried(text);
-- a rated column that is not boolean
SELECT error_of($$SELECT ledger_attach_multiplayer('bad', 'seats', 'play_id', 'play_id -> finished_at', 'player', 'place', rated_column => 'play_id -> table_id')$$);
-- a related table of another owner (the acting role owns the games table and the ledger)
CREATE ROLE regress_paths_app;
CREATE TABLE app_games (id int PRIMARY KEY, round_id int REFERENCES rounds, at timestamptz, w text, b text, s float8);
ALTER TABLE app_games OWNER TO regress_paths_app;
UPDATE ledgers SET owner = 'regress_paths_app' WHERE name = 'bad';
GRANT USAGE ON SCHEMA public TO regress_paths_app;
SET ROLE regress_paths_app;
SELECT error_of($$SELECT ledger_attach('bad', 'app_games', 'id', 'at', 'w', 'b', 's', scope_column => 'round_id -> event_id')$$);
RESET ROLE;
-- the games table's owner may not read the related table's columns
SELECT error_of($$SELECT ledger_attach('bad', 'app_games', 'id', 'at', 'w', 'b', 's', scope_column => 'round_id -> event_id')$$);
GRANT SELECT (id, event_id) ON rounds TO regress_paths_app;
SELECT ledger_attach('bad', 'app_games', 'id', 'at', 'w', 'b', 's', scope_column => 'round_id -> event_id');
SELECT ledger_detach('bad');
-- a related table with row-level security (forced: its owner's members too), owned by another
-- non-superuser whose member owns the games table: that owner reads it through its policies (a game
-- whose division it may not see is not rated and the division's league shows nowhere), and the
-- ledger stays what a rebuild gives
CREATE ROLE regress_paths_league;
GRANT regress_paths_league TO regress_paths_app;
GRANT USAGE, CREATE ON SCHEMA public TO regress_paths_league;
SET ROLE regress_paths_league;
CREATE TABLE divisions (id int PRIMARY KEY, league text NOT NULL, public boolean NOT NULL);
INSERT INTO divisions VALUES (1, 'open', true), (2, 'secret', false);
ALTER TABLE divisions ENABLE ROW LEVEL SECURITY, FORCE ROW LEVEL SECURITY;
CREATE POLICY shown ON divisions FOR SELECT USING (public);
GRANT SELECT, REFERENCES ON divisions TO regress_paths_app;
RESET ROLE;
CREATE TABLE league_games (id int PRIMARY KEY, division_id int REFERENCES divisions, at timestamptz, w text, b text, s float8);
ALTER TABLE league_games OWNER TO regress_paths_app;
INSERT INTO league_games VALUES (1, 1, '2025-01-01', 'ann', 'bob', 1), (2, 2, '2025-01-02', 'ann', 'bob', 0),
                                (3, 1, '2025-01-03', 'bob', 'ann', 0.5);
SET ROLE regress_paths_app;
SELECT count(*) AS divisions_the_app_sees FROM divisions;
SELECT ledger_attach('bad', 'league_games', 'id', 'at', 'w', 'b', 's', scope_column => 'division_id -> league');
INSERT INTO league_games VALUES (4, 2, '2025-01-04', 'bob', 'ann', 1), (5, 1, '2025-01-05', 'ann', 'bob', 1);
UPDATE league_games SET division_id = 2 WHERE id = 3;
RESET ROLE;
-- its owner makes a hidden division public: not a change of a column the ledger reads
UPDATE divisions SET public = true WHERE id = 2;
UPDATE divisions SET public = false WHERE id = 2;
SELECT scope, game, player, round(rating::numeric, 2) AS rating FROM ledger_history
WHERE ledger = 'bad' ORDER BY game, player;
SELECT count(*) AS secret_entries FROM ledger_entries e JOIN ledgers l ON l.id = e.ledger_id
WHERE l.name = 'bad' AND e.scope = 'secret';
SELECT as_rebuilt('bad') AS same_as_rebuilt;
SELECT ledger_detach('bad');
DROP TABLE league_games;
DROP OWNED BY regress_paths_league;
DROP ROLE regress_paths_league;

-- 8. random statements on the games tables and every related table, each checked against a rebuild
-- (setseed: the same statements every run); the statements whose entries differ from a rebuild's
SELECT setseed(0.32);
CREATE FUNCTION pick(VARIADIC options int[]) RETURNS int LANGUAGE sql AS
    'SELECT options[1 + floor(random() * array_length(options, 1))::int]';
CREATE TEMP TABLE mismatches (statement text);
CREATE TEMP TABLE executed (statement text);
DO $$
DECLARE
    statement text;
    orgs int[];
    -- a participant there (a deleted one's matches went with it)
    someone text := '(SELECT id FROM participants ORDER BY random() LIMIT 1)';
BEGIN
    FOR i IN 1..200 LOOP
        SELECT array_agg(id) INTO orgs FROM orgs;
        -- (inserts of matches thrice as likely as the other statements)
        statement := CASE least(floor(random() * 16)::int, 13)
            WHEN 0 THEN format('UPDATE events SET org_id = %s WHERE id = %s', orgs[1 + floor(random() * 2)::int], pick(10, 11, 12))
            WHEN 1 THEN format('UPDATE rounds SET event_id = %s WHERE id IN (%s, %s)', pick(10, 11, 12), pick(100, 101, 102), pick(100, 101, 102))
            WHEN 2 THEN format('UPDATE participants SET user_id = %s WHERE id IN (%s, %s)', pick(1, 2, 3, 4), pick(1, 2, 4, 5, 6), pick(1, 2, 4, 5, 6))
            WHEN 13 THEN format('INSERT INTO matches VALUES (%s, %s, %s, %s, %L, %s)', 100 + i, pick(100, 101, 102), someone,
                               someone, timestamptz '2025-01-01' + random() * interval '60 days', pick(0, 1) * 0.5 + pick(0, 1) * 0.5)
            WHEN 4 THEN format('UPDATE matches SET white_participant = %s, result = 1 - result WHERE id %% 3 = %s', someone, pick(0, 1, 2))
            WHEN 5 THEN format('DELETE FROM matches WHERE id %% 17 = %s', pick(0, 1, 2, 3, 4, 5, 6))
            WHEN 6 THEN 'UPDATE orgs SET id = id + 100'
            WHEN 7 THEN format('WITH e AS (UPDATE events SET org_id = %s WHERE id = %s RETURNING id) UPDATE rounds SET event_id = %s WHERE id = %s',
                               orgs[1 + floor(random() * 2)::int], pick(10, 11, 12), pick(10, 11, 12), pick(100, 101, 102))
            WHEN 8 THEN format('WITH p AS (UPDATE participants SET user_id = %s WHERE id = %s RETURNING id) UPDATE matches SET black_participant = %s WHERE round_id = %s',
                               pick(1, 2, 3, 4), pick(1, 2, 4, 5, 6), someone, pick(100, 101, 102))
            WHEN 9 THEN format('INSERT INTO participants VALUES (%s, %s, 0)', 10 + i, pick(1, 2, 3, 4))
            WHEN 10 THEN format('DELETE FROM participants WHERE id = (SELECT max(id) FROM participants WHERE id >= 10 AND id %% 2 = %s)', pick(0, 1))
            WHEN 11 THEN format('UPDATE plays SET is_rated = NOT is_rated, finished_at = coalesce(finished_at, now()) WHERE id = %s', pick(1, 3, 4, 5))
            WHEN 12 THEN format('WITH t AS (UPDATE tables SET title_id = %s WHERE id = %s RETURNING id) UPDATE titles SET name = name || %L WHERE id = %s',
                               pick(1, 2), pick(1, 2), '+', pick(1, 2))
            WHEN 3 THEN format('UPDATE seats SET place = place + %s WHERE play_id = %s AND player < %L', pick(-1, 1), pick(1, 3, 4, 5), 'c')
        END;
        BEGIN
            EXECUTE statement;
        EXCEPTION WHEN foreign_key_violation OR unique_violation OR not_null_violation OR invalid_parameter_value THEN
            -- (a key taken or missing, a player against themselves: the statement is undone)
            CONTINUE;
        END;
        INSERT INTO executed VALUES (statement);
        IF NOT (as_rebuilt('by org') AND as_rebuilt('by org and type') AND as_rebuilt('meeple')) THEN
            INSERT INTO mismatches VALUES (statement);
        END IF;
    END LOOP;
END
$$;
SELECT statement FROM mismatches;
SELECT (SELECT count(*) FROM executed) > 150 AS executed, count(*) > 5 AS games_left,
       (SELECT count(*) FROM ledger_history WHERE ledger = 'by org') > 10 AS entries,
       (SELECT count(*) FROM ledger_history WHERE ledger = 'meeple') > 3 AS meeple_entries
FROM matches;

-- 9. detach: a related table's triggers go with the last attachment that reaches it
SELECT ledger_detach('by org');
SELECT tgrelid::regclass AS "table", count(*) FROM pg_trigger
WHERE tgname LIKE 'pg_rating_ledgers_related%' GROUP BY 1 ORDER BY "table"::text;
-- the attachment left still re-rates through them: every event to another organisation
CREATE TEMP TABLE before_move AS SELECT entries_of('by org and type') AS e;
UPDATE events SET org_id = CASE WHEN org_id = (SELECT min(id) FROM orgs) THEN (SELECT max(id) FROM orgs)
                                ELSE (SELECT min(id) FROM orgs) END;
SELECT (SELECT e FROM before_move) IS DISTINCT FROM entries_of('by org and type') AS moved,
       as_rebuilt('by org and type') AS still_rerated;
SELECT ledger_detach('by org and type');
SELECT ledger_detach('meeple');
SELECT count(*) AS related_triggers FROM pg_trigger WHERE tgname LIKE 'pg_rating_ledgers_related%';
UPDATE events SET org_id = (SELECT min(id) FROM orgs);
DELETE FROM ledgers;
DROP TABLE app_games, club_games, clubs, pair_games, pairs, seats, plays, tables, titles, flat, matches,
           participants, users, rounds, events, orgs;
REVOKE ALL ON SCHEMA public FROM regress_paths_app;
DROP ROLE regress_paths_app;
