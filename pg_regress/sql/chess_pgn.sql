-- PGN import (read_pgn) and export (game_to_pgn).
SELECT game_no, tags, starting_position, moves, game_result
FROM read_pgn(E'\uFEFF[Event "Casual"]\r\n[White "A \\"quoted\\" name"]\r\n[Black "B"]\r\n[Result "0-1"]\r\n'
              || E'[Termination "Black won by checkmate"]\r\n\r\n'
              || E'1. f3 {a comment} e5 $2 2. g4?? (2. e4 Nf6 (2... d5)) Qh4# 0-1\r\n\r\n'
              || E'[Event "From a position"]\n[SetUp "1"]\n[FEN "4k3/8/8/8/8/8/4P3/4K3 b - - 0 40"]\n'
              || E'[Result "1/2-1/2"]\n\n40... Kd7 41. e4 ; rest of line\n1/2-1/2\n\n'
              || E'[Event "lichess"]\n[Result "1-0"]\n[Termination "Time forfeit"]\n\n1. e4 1-0\n\n'
              || E'1. d4 *\n')
ORDER BY game_no;
-- the game_result column is the domain
SELECT pg_typeof(game_result), (game_result).game_end_reason FROM read_pgn('1. e4 e5 1/2-1/2');
-- a bad game is an error naming the game and the ply
SELECT count(*) FROM read_pgn(E'[Event "1"]\n\n1. e4 e5 *\n\n[Event "2"]\n\n1. e4 e5 2. Ke3 *\n');
SELECT count(*) FROM read_pgn(E'[FEN "8/8/8/8 w - - 0 1"]\n\n1. e4 *\n');
SELECT count(*) FROM read_pgn(E'[Variant "Atomic"]\n\n1. e4 *\n');
SELECT count(*) FROM read_pgn(E'1. e4 { unterminated');
-- ... or, with skip_invalid, skipped with a warning naming it
SELECT game_no, moves FROM read_pgn(E'[Event "1"]\n\n1. e4 e5 *\n\n[Event "2"]\n\n1. e4 e5 2. Ke3 *\n\n[Event "3"]\n\n1. d4 *\n', true);
SELECT count(*) FROM read_pgn('', false) AS empty_text;

-- export: Seven Tag Roster, Termination, other tags sorted, SAN wrapped at 80 columns
SELECT game_to_pgn('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
                   '{e2e4,e7e5,g1f3,b8c6,f1c4,g8f6,e1g1,f8c5}', '(1-0,RESIGNATION)',
                   '{"White": "Alice", "Black": "Bob", "ECO": "C55", "Date": "2024.01.02", "Annotator": "x"}');
SELECT game_to_pgn('4k3/8/8/8/8/8/8/4K2R b K - 3 30',
                   (SELECT array_agg((ARRAY['e8d8','e1f1','d8e8','f1e1'])[1 + (i % 4)] ORDER BY i)
                    FROM generate_series(0, 79) i), NULL);
-- import of an export gives back the same game
WITH g(s, m, r) AS (VALUES
    ('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'::varchar, '{f2f3,e7e5,g2g4,d8h4}'::varchar[], '(0-1,CHECKMATE)'::game_result),
    ('r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1', '{b7a8q,e8d7,e1c1}', '(1/2-1/2,FIFTY_MOVE_RULE)'),
    ('4k3/8/8/8/8/8/8/4K2R b K - 3 30', '{}', NULL),
    ('rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1', '{b1a1,b8h8}', '(1-0,TIMEOUT)'))
SELECT p.starting_position = g.s AS same_start, p.moves = g.m AS same_moves,
       p.game_result IS NOT DISTINCT FROM g.r AS same_result
FROM g, LATERAL read_pgn(game_to_pgn(g.s, g.m, g.r)) p;
-- export errors
SELECT game_to_pgn('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '{e2e5}', NULL);
SELECT game_to_pgn('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '{}', NULL, '[1,2]');
SELECT game_to_pgn(NULL, '{}', NULL) IS NULL AS null_start;
-- every movetext token must be PGN: a mistyped game is an error (22P02), not a shorter game
SELECT moves FROM read_pgn('1. e4 e5 2. Nf3 Zz Nc6 *');
SELECT moves FROM read_pgn('1. e4 N e5 *');
SELECT moves FROM read_pgn('1. e4 e5 2. Nf3 =Q *');
SELECT moves FROM read_pgn('1. e4 e5 2. O-O-O-O *');
SELECT moves FROM read_pgn('1. e4 e5 1-');
SELECT moves FROM read_pgn('1. e4 ! e5 *');
-- annotations attached to a move, NAGs, comments and variations are PGN
SELECT moves FROM read_pgn('1. e4! e5?! $2 {comment} (1... c5) 2. Nf3 *');
-- skip_invalid skips the game with a WARNING and reads on
SELECT game_no, moves FROM read_pgn(E'[Event "a"]\n\n1. e4 Zz *\n\n[Event "b"]\n\n1. d4 *\n', skip_invalid => true);
-- export: the result's reason wins over a Termination tag that says otherwise
SELECT (read_pgn(game_to_pgn('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '{e2e4}',
                             '(1-0,RESIGNATION)', '{"Termination":"abandoned"}'))).game_result;
-- a variant read_pgn would refuse is refused on export too
SELECT game_to_pgn('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '{e2e4}', NULL, '{"Variant":"Atomic"}');
-- a two-dimensional moves array is refused (2202E)
SELECT game_to_pgn('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', '{{e2e4},{e7e5}}', NULL);
-- a [FEN] with castling rights no rook backs imports with the normalised position
SELECT starting_position, moves, (generate_fen_array(starting_position, moves))[1] AS normalised
FROM read_pgn(E'[FEN "4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1"]\n[SetUp "1"]\n\n1. Ke2 Kd7 *\n');
