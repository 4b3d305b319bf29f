-- SAN both ways: moves_to_san (with + and #) and san_to_moves (UCI, varchar(5)[]).
\set std 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
SELECT moves_to_san(:'std', '{f2f3,e7e5,g2g4,d8h4}');
SELECT san_to_moves(:'std', '{f3,e5,g4,Qh4#}');
SELECT pg_typeof(san_to_moves(:'std', '{e4}'));
-- round trip on a longer game with castling both sides, a capture and a check
SELECT san_to_moves(:'std', moves_to_san(:'std', m)) = m AS round_trip, moves_to_san(:'std', m)
FROM (VALUES ('{e2e4,e7e5,g1f3,b8c6,f1c4,g8f6,e1g1,f8c5,d2d3,d7d6,c1g5,c8g4,b1c3,d8d7,c3d5,e8c8,d5f6,g7f6}'::varchar[])) v(m);
-- promotion, disambiguation, castling with check
SELECT moves_to_san('r3k2r/1P6/8/8/8/8/8/R3K2R w KQkq - 0 1', '{b7a8q,e8d7,e1c1}');
SELECT san_to_moves('4k3/8/8/8/8/8/8/4KN1N w - - 0 1', '{Nhg3}');
SELECT san_to_moves('r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1', '{O-O,O-O-O}');
-- Chess960 start: castling is written king-takes-rook
SELECT san_to_moves('rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w HAha - 0 1', '{O-O-O}');
SELECT san_to_moves(:'std', '{}') AS no_moves, moves_to_san(:'std', '{}') AS no_san;
-- errors
SELECT san_to_moves('4k3/8/8/8/8/8/8/4KN1N w - - 0 1', '{Ng3}');
SELECT san_to_moves(:'std', '{e4,e4}');
SELECT san_to_moves(:'std', '{e4,Zz9}');
SELECT moves_to_san(:'std', '{e2e4,e7e4}');
SELECT moves_to_san('bad fen', '{}');
\set VERBOSITY sqlstate
SELECT san_to_moves(:'std', '{e4,NULL}');
SELECT moves_to_san(:'std', '{e2e4,NULL}');
SELECT san_to_moves(:'std', '{Ke2}');
SELECT san_to_moves('bad fen', '{}');
-- two-dimensional arrays are refused (2202E), like generate_fen_array
SELECT moves_to_san(:'std', '{{e2e4},{e7e5}}');
SELECT san_to_moves(:'std', '{{e4},{e5}}');
\set VERBOSITY default
