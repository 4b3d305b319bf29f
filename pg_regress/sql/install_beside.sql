-- pg_rating installs beside an application's own tables, whatever they are called: its own
-- names start with ledger (tables, views) or are functions and types of the engine. The Random
-- Chess schema is a separate extension and is not created.
CREATE TABLE users (id bigint PRIMARY KEY, name text NOT NULL);
CREATE TABLE players (id uuid PRIMARY KEY);
CREATE TABLE games (id bigint PRIMARY KEY);
CREATE TABLE matches (
    id        bigint PRIMARY KEY,
    played_at timestamptz NOT NULL,
    white     bigint NOT NULL REFERENCES users,
    black     bigint NOT NULL REFERENCES users,
    score     float8
);
CREATE TABLE rankings (id int);
CREATE TABLE ratings (id int);
CREATE TABLE seasons (id int);
CREATE VIEW leaderboard AS SELECT id, name FROM users;
CREATE EXTENSION pg_rating;
-- every relation and type it made
SELECT pg_describe_object(classid, objid, 0) AS object
FROM pg_depend
WHERE refobjid = (SELECT oid FROM pg_extension WHERE extname = 'pg_rating') AND deptype = 'e'
  AND classid IN ('pg_class'::regclass, 'pg_type'::regclass)
ORDER BY 1;
-- the application's tables are untouched, and its games get ratings
INSERT INTO users VALUES (1, 'ann'), (2, 'bob');
INSERT INTO matches VALUES (1, '2025-03-01', 1, 2, 1), (2, '2025-03-02', 2, 1, 0.5);
INSERT INTO ledgers (name, rating_system, k_factor) VALUES ('club', 'elo', 20);
SELECT ledger_attach('club', 'matches', 'id', 'played_at', 'white', 'black', 'score') AS entries;
SELECT u.name, round(s.rating::numeric, 2) AS rating, s.games
FROM ledger_standings_now s JOIN users u ON u.id::text = s.player
WHERE s.ledger = 'club' ORDER BY s.rating DESC;
SELECT * FROM leaderboard ORDER BY id;
-- the Random Chess schema needs a schema without those names, and the schema of pg_rating
CREATE EXTENSION pg_rating_random_chess;
CREATE SCHEMA chess;
CREATE EXTENSION pg_rating_random_chess SCHEMA chess;
-- dropping the engine leaves the application's rows
SELECT ledger_detach('club');
DROP EXTENSION pg_rating;
SELECT count(*) AS matches FROM matches;
