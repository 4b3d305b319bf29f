-- openings, load_lichess_openings, detect_opening, and the per-backend map's invalidation.
\d openings
SELECT load_lichess_openings(E'eco\tname\tpgn\nC20\tKing''s Pawn Game\t1. e4 e5\n'
                             || E'C40\tKing''s Knight Opening\t1. e4 e5 2. Nf3\n'
                             || E'B00\tKing''s Pawn Opening\t1. e4\n'
                             || E'C44\tKing''s Knight Opening: Normal Variation\t1. e4 e5 2. Nf3 Nc6\n');
SELECT id, eco, name, partial_fen FROM openings ORDER BY id;
SELECT opening_partial_fen('1. d4 d5 2. c4');
\set std 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
-- the latest position of the game found in openings, and its index
SELECT * FROM detect_opening(generate_fen_array(:'std', '{e2e4,e7e5,g1f3,b8c6,f1b5}'));
SELECT (detect_opening(generate_fen_array(:'std', '{e2e4,e7e5,g1f3,g8f6}'))).*;
SELECT * FROM detect_opening(generate_fen_array(:'std', '{d2d4}'));
SELECT * FROM detect_opening('{}');
SELECT detect_opening(NULL) IS NULL AS null_in_null_out;
-- NULL elements are skipped
SELECT * FROM detect_opening(ARRAY[NULL, 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -', NULL]::varchar[]);
-- the map follows changes of openings inside the session and rolls back with them
SELECT openings_cache_loads() AS loads \gset
SELECT count(*) FROM generate_series(1, 100), detect_opening(generate_fen_array(:'std', '{e2e4}'));
SELECT openings_cache_loads() - :loads AS reloads_without_change;
INSERT INTO openings (eco, name, partial_fen)
VALUES ('D00', 'Queen''s Pawn Game', opening_partial_fen('1. d4'));
SELECT o.name, d.move_no FROM detect_opening(generate_fen_array(:'std', '{d2d4}')) d JOIN openings o ON o.id = d.opening_id;
SELECT openings_cache_loads() - :loads AS reloads_after_insert;
BEGIN;
UPDATE openings SET partial_fen = 'x' WHERE eco = 'D00';
SELECT * FROM detect_opening(generate_fen_array(:'std', '{d2d4}'));
ROLLBACK;
SELECT o.eco FROM detect_opening(generate_fen_array(:'std', '{d2d4}')) d JOIN openings o ON o.id = d.opening_id;
DELETE FROM openings WHERE eco = 'C44';
SELECT o.name, d.move_no FROM detect_opening(generate_fen_array(:'std', '{e2e4,e7e5,g1f3,b8c6,f1b5}')) d JOIN openings o ON o.id = d.opening_id;
TRUNCATE openings;
SELECT * FROM detect_opening(generate_fen_array(:'std', '{e2e4,e7e5}'));
-- loading again inserts, and updates names of known positions
SELECT load_lichess_openings(E'C20\tKing''s Pawn Game\t1. e4 e5\n');
SELECT load_lichess_openings(E'C20\tKing''s Pawn Game (renamed)\t1. e4 e5\r\n');
SELECT eco, name FROM openings;
SELECT o.name FROM detect_opening(generate_fen_array(:'std', '{e2e4,e7e5}')) d JOIN openings o ON o.id = d.opening_id;
-- loader errors
SELECT load_lichess_openings(E'C20\tA\t1. e4 e5\nC21\tB\t1. e4 e5\n');
SELECT load_lichess_openings(E'C20\tA\n');
SELECT load_lichess_openings(E'eco\tname\tpgn\nX20\tA\t1. e4\n');
SELECT load_lichess_openings(E'C20\tA\t1. e4 e4\n');
SELECT opening_partial_fen('1. e5');
SELECT count(*) FROM openings;
-- the table is dumped with the data
SELECT 'openings'::regclass = ANY (extconfig) AS table_dumped, 'openings_id_seq'::regclass = ANY (extconfig) AS sequence_dumped
FROM pg_extension WHERE extname = 'pg_rating_random_chess';
-- games_openings: the opening of every game of the games view
SELECT load_lichess_openings(E'C60\tRuy Lopez\t1. e4 e5 2. Nf3 Nc6 3. Bb5\nB00\tKing''s Pawn Opening\t1. e4\n');
INSERT INTO users (email, password_hash) VALUES ('demo@example.com', 'x');
CREATE TEMP VIEW pgn_import AS
SELECT p.moves, p.starting_position, timestamptz '2024-01-01' AS creation_date,
       coalesce(p.game_result, '(1/2-1/2,UNKNOWN)') AS result, p.tags AS metadata,
       (SELECT id FROM users) AS owner_id,
       coalesce(p.tags->>'Black', '?') AS black_player_name, coalesce(p.tags->>'White', '?') AS white_player_name
FROM read_pgn(current_setting('demo.pgn')) p;
SET demo.pgn = E'[White "A"]\n[Black "B"]\n\n1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0\n\n[White "C"]\n[Black "D"]\n\n1. d4 d5 0-1\n\n1. e4 c5 *\n';
INSERT INTO pgn_games (moves, starting_position, creation_date, result, metadata, owner_id, black_player_name, white_player_name)
SELECT * FROM pgn_import;
SELECT go.game_id, go.kind, o.name, go.move_no
FROM games_openings go LEFT JOIN openings o ON o.id = go.opening_id ORDER BY go.game_id;
-- importing a text with a bad game writes nothing
SET demo.pgn = E'1. d4 *\n\n1. e4 e5 2. Ke3 *\n';
INSERT INTO pgn_games (moves, starting_position, creation_date, result, metadata, owner_id, black_player_name, white_player_name)
SELECT * FROM pgn_import;
SELECT count(*) AS pgn_games FROM pgn_games;
