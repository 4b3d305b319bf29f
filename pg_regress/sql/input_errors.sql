-- Inputs refused whole, with their SQLSTATE (issue 31, "Several apps in one database"): arrays of
-- more than one dimension (2202E), unbalanced PGN variations (22P02), values a ledger cannot read
-- (22023, 22004, 42804), limits (54000); and long inputs cut in messages (at most 100 characters of
-- a value, an ellipsis and its length). Where a role matters, an application's role that is not a
-- superuser runs the statements. Each statement's SQLSTATE and message come from pg_temp.err.
CREATE FUNCTION pg_temp.err(statement text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE statement;
    RETURN 'ok';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
\set std 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'

-- 1. an array of more than one dimension is refused, not read as the list of its elements
SELECT s AS statement, pg_temp.err(s) AS error FROM unnest(ARRAY[
    $$SELECT fide_tpr('{{2000,2100},{2200,2300}}', 2)$$,
    $$SELECT fide_ptp('{{2000,2100},{2200,2300}}', 2)$$,
    $$SELECT fide_rating_change(2000, 20, '{{2000},{2100}}', '{1,0}')$$,
    $$SELECT fide_rating_change(2000, 20, '{2000,2100}', '{{1,0}}')$$,
    $$SELECT performance_rating('{{2000,2100}}', 1)$$,
    $$SELECT glicko2_update('(1500,200,0.06)', ARRAY[['(1400,30,0.06)'::glicko2_rating]], '{1}')$$,
    $$SELECT glicko2_update('(1500,200,0.06)', ARRAY['(1400,30,0.06)'::glicko2_rating], '{{1}}')$$,
    $$SELECT glicko2_multiplayer(ARRAY[['(1500,200,0.06)'::glicko2_rating], ['(1400,30,0.06)'::glicko2_rating]], '{1,2}')$$,
    $$SELECT glicko2_multiplayer(ARRAY['(1500,200,0.06)'::glicko2_rating, '(1400,30,0.06)'], '{{1,2}}')$$,
    $$SELECT * FROM glicko2_rate_period('{{1,2}}', ARRAY['(1500,200,0.06)'::glicko2_rating, '(1400,30,0.06)'],
                                        '{1}', '{2}', '{1}')$$,
    $$SELECT * FROM glicko2_rate_period('{1,2}', ARRAY['(1500,200,0.06)'::glicko2_rating, '(1400,30,0.06)'],
                                        '{1}', '{2}', '{{1}}')$$,
    $$SELECT * FROM detect_opening('{{a},{b}}')$$,
    $$SELECT generate_fen_array('$$ || :'std' || $$', '{{e2e4},{e7e5}}')$$,
    $$SELECT san_to_moves('$$ || :'std' || $$', '{{e4},{e5}}')$$
]) AS s;
-- arrays read from a table: a short one (stored with a 1-byte header) and a long one (compressed)
CREATE TEMP TABLE stored_arrays (name text, ratings int[]);
INSERT INTO stored_arrays VALUES ('short', '{{2000,2100},{2200,2300}}'),
                                 ('compressed', array_fill(2000, ARRAY[2, 50000])),
                                 ('flat', array_fill(2000, ARRAY[100000]));
SELECT name, pg_column_compression(ratings) IS NOT NULL AS compressed,
       pg_temp.err(format('SELECT fide_tpr(ratings, 2) FROM stored_arrays WHERE name = %L', name)) AS error
FROM stored_arrays ORDER BY name;
-- one dimension (or none) is read as before
SELECT fide_tpr('{2000,2100,2200,2300}', 2) AS tpr,
       round(performance_rating('{2000,2100}', 1)::numeric, 1) AS performance,
       (SELECT count(*) FROM detect_opening('{}')) AS openings_of_none;

-- 2. PGN: a variation that is never closed, a ")" that closes none and 100,000 nested "(" are
-- refused (22P02) instead of dropping the moves after them; nesting is counted, not recursed into
SELECT s AS statement, pg_temp.err(s) AS error FROM unnest(ARRAY[
    $$SELECT * FROM read_pgn('1. e4 (1. d4 d5 2. c4 e5 *')$$,
    $$SELECT * FROM read_pgn('1. e4 e5) 2. Nf3 Nc6 *')$$,
    $$SELECT * FROM read_pgn('1. e4 (1. d4) ) e5 *')$$,
    $$SELECT * FROM read_pgn('1. e4 ' || repeat('(', 100000) || ' e5 *')$$,
    $$SELECT opening_partial_fen('1. e4 (1. d4')$$,
    $$SELECT opening_partial_fen('1. e4 Zz')$$
]) AS s;
-- balanced variations, however deep, are skipped as before
SELECT moves FROM read_pgn('1. e4 ' || repeat('(', 100000) || '1. d4' || repeat(')', 100000) || ' e5 *');
SELECT moves FROM read_pgn('1. e4 (1. d4 d5 (1... Nf6 2. c4) 2. c4) 1... e5 2. Nf3 *');
-- with skip_invalid, the unbalanced game is skipped (a warning) and the next one read
SELECT game_no, moves FROM read_pgn(E'[Event "1"]\n\n1. e4 (1. d4 e5 *\n\n[Event "2"]\n\n1. d4 d5 *\n', true);

-- 4. long inputs come back cut in messages: a 2 MB FEN, a 1 MB PGN token, a long TRF line, a move
SELECT s AS statement, pg_temp.err(s) AS error FROM unnest(ARRAY[
    $$SELECT generate_fen_array(repeat('8/', 1000000) || ' w - - 0 1', '{}')$$,
    $$SELECT * FROM read_pgn('1. e4 ' || repeat('Z', 1000000) || ' *')$$,
    $$SELECT * FROM read_pgn('[Variant "' || repeat('v', 10000) || '"]' || E'\n\n1. e4 *')$$,
    $$SELECT generate_fen_array('$$ || :'std' || $$', ARRAY[repeat('e2e4', 250000)])$$,
    $$SELECT * FROM tournament_pairings_from_trf('001    1      A' || repeat(' ', 34) || repeat('x', 1000000))$$,
    $$SELECT * FROM tournament_pairings_from_trf(repeat('XXR', 300000))$$
]) AS s;

-- the application's role: owns its games tables and ledgers (docs/operations.md, Roles for ledgers)
CREATE ROLE regress_input_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ledgers, ledger_seeds, ledger_seasons TO regress_input_app;
GRANT USAGE ON SEQUENCE ledgers_id_seq TO regress_input_app;
GRANT SELECT ON ledgers, ledger_entries, ledger_standings, ledger_seasons TO regress_input_app;
GRANT CREATE ON SCHEMA public TO regress_input_app;
-- and a role with no grant at all
CREATE ROLE regress_input_nobody;
SET ROLE regress_input_app;
CREATE TABLE app_games (id int PRIMARY KEY, played_at timestamptz NOT NULL, white text, black text,
                        result text);
INSERT INTO app_games VALUES (1, '2025-01-01', 'ann', 'bob', 'W'), (2, '2025-01-02', 'bob', 'cy', 'D'),
                             (3, '2025-01-03', 'cy', 'ann', 'L');
INSERT INTO ledgers (name) VALUES ('app');
SELECT ledger_attach('app', 'app_games', 'id', 'played_at', 'white', 'black', 'result',
                     result_map => '{"W": 1, "D": 0.5, "L": 0}') AS entries;

-- 3. values a ledger cannot read: a result_map number beyond any score (22023), a NULL K factor or
-- tau (22004), an array of K factors of two dimensions (2202E)
INSERT INTO ledgers (name) VALUES ('app huge');
SELECT s AS statement, pg_temp.err(s) AS error FROM unnest(ARRAY[
    $$SELECT ledger_attach('app huge', 'app_games', 'id', 'played_at', 'white', 'black', 'result',
                           result_map => '{"W": 1e400}')$$,
    $$SELECT ledger_attach('app huge', 'app_games', 'id', 'played_at', 'white', 'black', 'result',
                           result_map => '{"W": -1e400, "L": 0}')$$,
    $$SELECT * FROM ledger_what_if('app', '{1,NULL}')$$,
    $$SELECT * FROM ledger_what_if('app', taus => '{NULL}')$$,
    $$SELECT * FROM ledger_what_if('app', '{{16},{64}}')$$,
    $$SELECT * FROM ledger_what_if('app', taus => '{{0.5}}')$$
]) AS s;
SELECT k_factor, tau, entries FROM ledger_what_if('app', '{16}');
-- a key column attached as an integer and altered to numeric: a key that is not an integer is refused
-- by name (42804) when it is written; integer keys go on
ALTER TABLE app_games ALTER COLUMN id TYPE numeric;
SELECT pg_temp.err($$INSERT INTO app_games VALUES (4.5, '2025-01-04', 'ann', 'cy', 'W')$$) AS error;
INSERT INTO app_games VALUES (5, '2025-01-05', 'ann', 'cy', 'W');
SELECT count(*) AS entries FROM ledger_entries e JOIN ledgers l ON l.id = e.ledger_id WHERE l.name = 'app';
-- altered to text, which no longer compares with the ledger's integer keys: a game deleted (its
-- scope replayed from it) is refused as such (42804), not as an operator that does not exist
ALTER TABLE app_games ALTER COLUMN id TYPE text;
SELECT pg_temp.err($$DELETE FROM app_games WHERE id = '5'$$) AS error;
ALTER TABLE app_games ALTER COLUMN id TYPE integer USING id::integer;
DELETE FROM app_games WHERE id = 5;
SELECT count(*) AS entries FROM ledger_entries e JOIN ledgers l ON l.id = e.ledger_id WHERE l.name = 'app';

-- 4. a long ledger name comes back cut
SELECT s AS statement, pg_temp.err(s) AS error FROM unnest(ARRAY[
    $$SELECT * FROM ledger_what_if(repeat('n', 1000000))$$,
    $$SELECT ledger_rating_svg(repeat('n', 1000000), '{ann}')$$,
    $$SELECT ledger_detach(repeat('é', 200))$$
]) AS s;

-- 5. bounded work: at most 100 K factors and taus together in one ledger_what_if, at most 1,000
-- players in one chart (54000)
SELECT s AS statement, pg_temp.err(s) AS error FROM unnest(ARRAY[
    $$SELECT * FROM ledger_what_if('app', array_fill(20::float8, ARRAY[60]), array_fill(0.5::float8, ARRAY[41]))$$,
    $$SELECT ledger_rating_svg('app', array_fill('ann'::text, ARRAY[1001]))$$
]) AS s;
SELECT count(*) AS variants FROM ledger_what_if('app', array_fill(20::float8, ARRAY[100]));
SELECT regexp_count(ledger_rating_svg('app', array_fill('ann'::text, ARRAY[999]) || '{bob}'), '<polyline ')
    AS lines;
RESET ROLE;
-- a role without any grant is refused (42501) before its players are looked at
SET ROLE regress_input_nobody;
SELECT pg_temp.err($$SELECT ledger_rating_svg('app', array_fill('ann'::text, ARRAY[100000]))$$) AS error;
SELECT pg_temp.err($$SELECT * FROM ledger_what_if('app', array_fill(20::float8, ARRAY[50]))$$) AS error;
RESET ROLE;

DELETE FROM ledgers WHERE name LIKE 'app%';
DROP TABLE app_games;
REVOKE ALL ON ledgers, ledger_seeds, ledger_seasons, ledger_entries, ledger_standings FROM regress_input_app;
REVOKE ALL ON SEQUENCE ledgers_id_seq FROM regress_input_app;
REVOKE CREATE ON SCHEMA public FROM regress_input_app;
DROP ROLE regress_input_app;
DROP ROLE regress_input_nobody;
