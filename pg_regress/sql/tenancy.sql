-- Several applications in one database (issue 31): two applications with the grants that
-- docs/operations.md recommends, a web role and a reader of one of them, and a bare role with the
-- usual GRANT ... ON ALL TABLES IN SCHEMA public. None reaches past its grants.
CREATE ROLE regress_app_a;
CREATE ROLE regress_app_b;
CREATE ROLE regress_reader_b;
CREATE ROLE regress_bare;
CREATE SCHEMA app_a AUTHORIZATION regress_app_a;
CREATE SCHEMA app_b AUTHORIZATION regress_app_b;
GRANT SELECT, INSERT, UPDATE, DELETE ON ledgers, ledger_seeds, ledger_seasons TO regress_app_a, regress_app_b;
GRANT SELECT ON ledger_attachments, ledger_entries, ledger_standings, ledger_history, ledger_standings_now,
                ledger_season_standings TO regress_app_a, regress_app_b;
GRANT USAGE ON SEQUENCE ledgers_id_seq TO regress_app_a, regress_app_b;
GRANT SELECT ON ledgers, ledger_attachments, ledger_entries, ledger_standings, ledger_seeds, ledger_seasons,
                ledger_history, ledger_standings_now, ledger_season_standings TO regress_reader_b;
GRANT USAGE ON SCHEMA app_b TO regress_reader_b;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO regress_bare;

SET ROLE regress_app_b;
CREATE TABLE app_b.games (id int PRIMARY KEY, at timestamptz NOT NULL, w text NOT NULL, b text NOT NULL, s float8);
INSERT INTO ledgers (name) VALUES ('b elo');
SELECT ledger_attach('b elo', 'app_b.games', 'id', 'at', 'w', 'b', 's');
INSERT INTO app_b.games VALUES (1, '2025-01-01', 'bea', 'bo', 1), (2, '2025-01-02', 'bo', 'bea', 0.5);
GRANT SELECT ON app_b.games TO regress_reader_b;
SET ROLE regress_app_a;
CREATE TABLE app_a.games (id int PRIMARY KEY, at timestamptz NOT NULL, w text NOT NULL, b text NOT NULL, s float8);
INSERT INTO ledgers (name) VALUES ('a elo');
SELECT ledger_attach('a elo', 'app_a.games', 'id', 'at', 'w', 'b', 's');
INSERT INTO app_a.games VALUES (1, '2025-01-01', 'ann', 'al', 0);
RESET ROLE;

-- 1. each application sees its own ledgers only; a reader of B's games sees B's
SET ROLE regress_app_a;
SELECT name FROM ledgers ORDER BY name;
SELECT DISTINCT ledger FROM ledger_history ORDER BY 1;
SELECT count(*) AS entries FROM ledger_entries;
SELECT count(*) AS b_rows FROM ledger_standings_now WHERE ledger = 'b elo';
SET ROLE regress_reader_b;
SELECT ledger, player, round(rating::numeric, 2) AS rating FROM ledger_standings_now ORDER BY 1, 2;
SELECT count(*) AS seeds_seasons_of_others FROM ledger_seeds, ledger_seasons;
SET ROLE regress_bare;
SELECT count(*) AS ledgers, (SELECT count(*) FROM ledger_entries) AS entries FROM ledgers;
RESET ROLE;

-- 2. nobody locks another application's rows: FOR UPDATE finds nothing to lock
SET ROLE regress_app_a;
SELECT name FROM ledgers WHERE name = 'b elo' FOR UPDATE;
SET ROLE regress_bare;
SELECT ledger_id FROM ledger_scopes FOR UPDATE;
RESET ROLE;

-- 3. seeds and seasons of someone else's ledger: refused, nothing replayed or locked
SET ROLE regress_app_a;
-- (B's ledger is ledger 1, which A cannot see)
INSERT INTO ledger_seeds (ledger_id, player, rating) VALUES (1, 'bea', 2660);
INSERT INTO ledger_seasons (ledger_id, name, ends_at, rating_pull) VALUES (1, 'reset', '2025-01-02', 1);
-- ... and one's own seed must be one the ledger can start a player from
INSERT INTO ledger_seeds (ledger_id, player, rating) SELECT id, 'ann', 1500 FROM ledgers WHERE name = 'a elo';
UPDATE ledgers SET rating_system = 'glicko2' WHERE name = 'a elo';
INSERT INTO ledger_seeds (ledger_id, player, rating, rd) SELECT id, 'al', 1500, 1e-300 FROM ledgers WHERE name = 'a elo';
-- a rating period that is negative as readers measure it (365.25-day years) is refused
UPDATE ledgers SET rating_period = '-1 year 360 days 1 second' WHERE name = 'a elo';
RESET ROLE;
SELECT l.name, s.player, round(s.rating::numeric, 2) AS rating FROM ledger_standings s JOIN ledgers l ON l.id = s.ledger_id
WHERE l.name = 'b elo' ORDER BY 2;

-- 4. an application's filter runs as its table's owner: when B writes A's table (A granted it),
-- or a superuser rebuilds A's ledger, A's filter cannot delete or take B's ledger
SET ROLE regress_app_a;
CREATE FUNCTION app_a.greedy() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM public.ledgers WHERE name = 'b elo';
    UPDATE public.ledgers SET owner = 'regress_app_a' WHERE name = 'b elo';
    RETURN true;
END
$$;
SELECT ledger_detach('a elo');
SELECT ledger_attach('a elo', 'app_a.games', 'id', 'at', 'w', 'b', 's', filter => 'app_a.greedy()');
GRANT USAGE ON SCHEMA app_a TO regress_app_b;
GRANT INSERT ON app_a.games TO regress_app_b;
SET ROLE regress_app_b;
INSERT INTO app_a.games VALUES (2, '2025-01-03', 'al', 'ann', 1);
RESET ROLE;
SELECT ledger_rebuild('a elo') >= 0 AS rebuilt;
SELECT name, owner FROM ledgers ORDER BY id;

-- 5. derived rows deleted from a trigger of one's own tables during a referential action of one's
-- own: refused (a cascade of pg_rating's own foreign keys still deletes them)
-- (the bare role may read B's games, so B's rows are visible to it)
GRANT USAGE ON SCHEMA app_b TO regress_bare;
GRANT SELECT ON app_b.games TO regress_bare;
-- (terse: the context would name this session's temporary schema)
\set VERBOSITY terse
SET ROLE regress_bare;
CREATE TEMP TABLE parent (id int PRIMARY KEY);
CREATE TEMP TABLE child (id int REFERENCES parent ON DELETE CASCADE);
CREATE FUNCTION pg_temp.wipe() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE format('DELETE FROM public.%I', TG_ARGV[0]);
    RETURN OLD;
END
$$;
INSERT INTO parent VALUES (1);
INSERT INTO child VALUES (1);
CREATE TRIGGER wipe BEFORE DELETE ON child FOR EACH ROW EXECUTE FUNCTION pg_temp.wipe('ledger_attachments');
-- (since 0.13.0 the role holds no DELETE on derived tables: refused by privileges before the
-- guard's own check, which stays for roles that own them)
DELETE FROM parent;
DROP TRIGGER wipe ON child;
CREATE TRIGGER wipe BEFORE DELETE ON child FOR EACH ROW EXECUTE FUNCTION pg_temp.wipe('ledger_entries');
DELETE FROM parent;
SELECT count(*) AS rows_left FROM parent;
\set VERBOSITY default
RESET ROLE;
SELECT count(*) AS attachments, (SELECT count(*) FROM ledger_entries) AS entries FROM ledger_attachments;
-- B's games are still rated
SET ROLE regress_app_b;
INSERT INTO app_b.games VALUES (3, '2025-01-03', 'bea', 'bo', 0);
SELECT count(*) AS b_entries FROM ledger_entries;
RESET ROLE;

-- 6. wrong results that are errors now: a partitioned games table (rows written into a partition
-- would not be rated), participants of one game with different dates
SET ROLE regress_app_b;
CREATE TABLE app_b.parted (id int, at timestamptz NOT NULL, w text, b text, s float8) PARTITION BY RANGE (at);
CREATE TABLE app_b.parted_2025 PARTITION OF app_b.parted FOR VALUES FROM ('2025-01-01') TO ('2026-01-01');
INSERT INTO ledgers (name) VALUES ('b parted');
SELECT ledger_attach('b parted', 'app_b.parted', 'id', 'at', 'w', 'b', 's');
SELECT ledger_attach('b parted', 'app_b.parted_2025', 'id', 'at', 'w', 'b', 's');
CREATE TABLE app_b.plays (play int, at timestamptz, player text, place int);
INSERT INTO ledgers (name) VALUES ('b multi');
SELECT ledger_attach_multiplayer('b multi', 'app_b.plays', 'play', 'at', 'player', 'place');
INSERT INTO app_b.plays VALUES (1, '2025-01-01', 'bea', 1), (1, '2025-01-02', 'bo', 2);
INSERT INTO app_b.plays VALUES (1, '2025-01-01', 'bea', 1), (1, '2025-01-01', 'bo', 2);
SELECT count(*) AS multi_entries FROM ledger_history WHERE ledger = 'b multi';
RESET ROLE;

-- 7. privileges only a table's owner keeps (the bare role's GRANT ... ON ALL TABLES above gave it
-- UPDATE and DELETE on the derived tables, and pg_rating took them back with a WARNING): no role
-- locks a derived table against every application's writers, or creates a trigger that would run
-- inside pg_rating's writer as the extension's owner, or truncates past row-level security
GRANT ALL ON ALL TABLES IN SCHEMA public TO regress_bare;
SELECT c.relname, p.privilege, has_table_privilege('regress_bare', c.oid, p.privilege) AS held
FROM pg_class c, unnest('{UPDATE,DELETE,TRUNCATE,TRIGGER}'::text[]) p(privilege)
WHERE c.relname IN ('ledger_entries', 'ledger_scopes', 'ledgers', 'ledger_seeds')
ORDER BY 1, 2;
SET ROLE regress_bare;
BEGIN;
LOCK TABLE ledger_entries;
ROLLBACK;
BEGIN;
LOCK TABLE ledger_scopes IN SHARE MODE;
ROLLBACK;
-- (ACCESS SHARE, which blocks no writer, as any reader may)
BEGIN;
LOCK TABLE ledger_standings IN ACCESS SHARE MODE;
ROLLBACK;
SELECT ledger_id FROM ledger_scopes FOR SHARE;
TRUNCATE ledger_seeds;
CREATE FUNCTION pg_temp.spy() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;
CREATE TRIGGER spy AFTER INSERT ON ledger_entries FOR EACH STATEMENT EXECUTE FUNCTION pg_temp.spy();
CREATE TRIGGER spy AFTER INSERT ON ledgers FOR EACH STATEMENT EXECUTE FUNCTION pg_temp.spy();
RESET ROLE;
-- a privilege passed on WITH GRANT OPTION goes with it
GRANT TRIGGER ON ledgers TO regress_app_a WITH GRANT OPTION;
SELECT has_table_privilege('regress_app_a', 'ledgers', 'TRIGGER') AS app_a_trigger;

-- REFERENCES stays with the owner too: a foreign key of the role's own table with a referential
-- action would make pg_rating's writers change its rows and fire its triggers as the extension's
-- owner
SELECT c.relname, has_table_privilege('regress_bare', c.oid, 'REFERENCES') AS references_held
FROM pg_class c WHERE c.relname IN ('ledgers', 'ledger_seeds', 'ledger_seasons', 'ledger_entries')
ORDER BY 1;
SET ROLE regress_app_a;
CREATE TABLE app_a.held_seeds (ledger_id int, scope text, player text,
    FOREIGN KEY (ledger_id, scope, player) REFERENCES ledger_seeds ON DELETE CASCADE);
RESET ROLE;

-- The schema that holds pg_rating keeps its name, whoever owns it (on PostgreSQL 15 the database's
-- owner owns public): renamed, a schema made under the old name would receive the calls of the
-- extension's functions. Its owner may change.
BEGIN;
ALTER SCHEMA public OWNER TO regress_app_a;
DO $$ BEGIN EXECUTE format('GRANT CREATE ON DATABASE %I TO regress_app_a', current_database()); END $$;
SET ROLE regress_app_a;
ALTER SCHEMA public RENAME TO engine_home;
ROLLBACK;
BEGIN;
ALTER SCHEMA public RENAME TO engine_home;
ROLLBACK;
SELECT n.nspname FROM pg_extension x JOIN pg_namespace n ON n.oid = x.extnamespace WHERE x.extname = 'pg_rating';

DROP SCHEMA app_a CASCADE;
DROP SCHEMA app_b CASCADE;
DELETE FROM ledgers;
DROP OWNED BY regress_app_a, regress_app_b, regress_reader_b, regress_bare;
DROP ROLE regress_app_a, regress_app_b, regress_reader_b, regress_bare;
