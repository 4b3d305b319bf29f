-- generate_fen_array: partial FENs of the start and after every UCI move.
\set std 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
SELECT unnest(generate_fen_array(:'std', '{e2e4,c7c5,g1f3}')) AS fen;
-- 4-field start, array type and length
SELECT pg_typeof(f), array_length(f, 1)
FROM generate_fen_array('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -', '{d2d4,d7d5}') AS f;
-- en passant square only when the capture is legal
SELECT i, f FROM unnest(generate_fen_array(:'std', '{e2e4,a7a6,e4e5,d7d5,e5d6}')) WITH ORDINALITY AS t(f, i);
-- pinned pawn: no en passant square
SELECT (generate_fen_array('8/2p5/8/KP5r/8/8/8/7k b - - 0 1', '{c7c5}'))[2];
-- castling as e1g1 or king-takes-rook e1h1 gives the same positions
SELECT generate_fen_array('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', '{e1g1,e8c8}')
     = generate_fen_array('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', '{e1h1,e8a8}') AS same;
-- promotion
SELECT (generate_fen_array('8/4P1k1/8/8/8/8/8/4K3 w - - 0 1', '{e7e8q}'))[2];
-- a game of 1,200 plies
SELECT array_length(generate_fen_array(:'std',
       (SELECT array_agg((ARRAY['g1f3','g8f6','f3g1','f6g8'])[1 + (i % 4)] ORDER BY i)
        FROM generate_series(0, 1199) i)), 1);
-- strict: NULL arguments give NULL
SELECT generate_fen_array(NULL, '{e2e4}') IS NULL AS a, generate_fen_array(:'std', NULL) IS NULL AS b;
-- errors
\set VERBOSITY sqlstate
SELECT generate_fen_array('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq', '{}');
\set VERBOSITY default
SELECT generate_fen_array('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq', '{}');
SELECT generate_fen_array('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1', '{}');
SELECT generate_fen_array('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1', '{}');
SELECT generate_fen_array('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkz - 0 1', '{}');
-- normalised, not refused: an en passant square no double step explains and castling rights
-- without king and rook are dropped (as python-chess and lichess do)
SELECT generate_fen_array('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1', '{}');
SELECT generate_fen_array('4k3/8/8/8/8/8/8/4K3 w KQkq - 0 1', '{e1e2}');
-- a position that cannot occur stays an error
SELECT generate_fen_array('4k3/4Q3/8/8/8/8/8/4K3 w - - 0 1', '{}');
SELECT generate_fen_array('4k3/8/8/8/8/8/8/4K2k w - - 0 1', '{}');
SELECT generate_fen_array('8/8/8/8/8/8/8/8 w - - 0 1', '{}');
SELECT generate_fen_array(:'std', '{e2e4,e7e5,e4e5}');
SELECT generate_fen_array(:'std', '{e2e4,zz}');
SELECT generate_fen_array(:'std', '{e1g1}');
\set VERBOSITY sqlstate
SELECT generate_fen_array(:'std', '{e2e4,NULL}');
SELECT generate_fen_array(:'std', '{e2e4,e2e4}');
SELECT generate_fen_array('garbage', '{}');
SELECT generate_fen_array(:'std', '{{e2e4},{e7e5}}');
\set VERBOSITY default
SELECT generate_fen_array(:'std', '{e2e4,NULL}');
-- an INSERT with a bad game writes nothing
CREATE TEMP TABLE g (moves varchar(5)[], partial_fens varchar[] GENERATED ALWAYS AS (generate_fen_array('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1', moves)) STORED);
INSERT INTO g (moves) VALUES ('{e2e4,e7e5}'), ('{e2e4,e7e6,e4e6}');
SELECT count(*) FROM g;
INSERT INTO g (moves) VALUES ('{e2e4,e7e5}');
SELECT moves, partial_fens[3] FROM g;
-- a castling field that repeats a right is refused
\set VERBOSITY sqlstate
SELECT generate_fen_array('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqKQ - 0 1', '{}');
\set VERBOSITY default
SELECT generate_fen_array('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkqKQ - 0 1', '{}');
-- a call takes at most 100,000 moves (54000 beyond): memory stays bounded
SELECT cardinality(generate_fen_array('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
       (SELECT array_agg((ARRAY['g1f3','g8f6','f3g1','f6g8'])[1 + i % 4]) FROM generate_series(0, 99999) i)));
\set VERBOSITY sqlstate
SELECT cardinality(generate_fen_array('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
       (SELECT array_agg((ARRAY['g1f3','g8f6','f3g1','f6g8'])[1 + i % 4]) FROM generate_series(0, 100000) i)));
\set VERBOSITY default
