-- Chess in SQL: positions, SAN, PGN import and export, openings
\set std 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
-- The lichess openings (CC0) from ../shared/data/chess-openings, when present.
\set have_openings `test -r ../shared/data/chess-openings/e.tsv && echo 1 || echo 0`
\if :have_openings
\set ECHO none
\echo 'SELECT load_lichess_openings(:''tsv'');  -- the five files, read by psql'
\set tsv `cat ../shared/data/chess-openings/a.tsv ../shared/data/chess-openings/b.tsv ../shared/data/chess-openings/c.tsv ../shared/data/chess-openings/d.tsv ../shared/data/chess-openings/e.tsv`
SELECT load_lichess_openings(:'tsv') AS openings_loaded;
\set ECHO queries
\else
\echo 'lichess openings not found in ../shared/data/chess-openings: loading three by hand'
SELECT load_lichess_openings(E'C20\tKing''s Pawn Game\t1. e4 e5\n'
                             || E'C60\tRuy Lopez\t1. e4 e5 2. Nf3 Nc6 3. Bb5\n'
                             || E'A00\tGrob Opening\t1. g4\n') AS openings_loaded;
\endif
SELECT count(*) AS openings, count(*) FILTER (WHERE partial_fen NOT LIKE '% -') AS with_en_passant FROM openings;

-- Import a PGN text: tags, comments, a variation, a FEN start.
CREATE TEMP TABLE demo_games AS
SELECT * FROM read_pgn($pgn$
[Event "Casual game"]
[White "Anderssen"]
[Black "Kieseritzky"]
[Result "1-0"]
[Termination "checkmate"]

1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ 4. Kf1 b5 5. Bxb5 Nf6 6. Nf3 Qh6 7. d3 Nh5 8. Nh4 Qg5
9. Nf5 c6 10. g4 Nf6 11. Rg1 cxb5 12. h4 Qg6 13. h5 Qg5 14. Qf3 Ng8 15. Bxf4 Qf6
16. Nc3 Bc5 17. Nd5 Qxb2 18. Bd6 Bxg1 { the famous sacrifices } 19. e5 Qxa1+ 20. Ke2 Na6
21. Nxg7+ Kd8 22. Qf6+ Nxf6 23. Be7# 1-0

[Event "Ruy Lopez, short"]
[White "A"]
[Black "B"]
[Result "1/2-1/2"]
[Termination "Game drawn by repetition"]

1. e4 e5 2. Nf3 Nc6 3. Bb5 (3. Bc4 Bc5) a6 4. Ba4 Nf6 5. O-O Be7 1/2-1/2

[Event "Endgame study"]
[SetUp "1"]
[FEN "8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"]
[Result "*"]

1. e4 Kxe4 *
$pgn$);
SELECT game_no, tags->>'White' AS white, tags->>'Black' AS black, game_result,
       cardinality(moves) AS plies, starting_position
FROM demo_games ORDER BY game_no;

-- Moves as UCI and SAN, and the first positions of game 2 (en passant only when legal).
SELECT game_no, moves[1:8] AS first_uci, (moves_to_san(starting_position, moves))[1:8] AS first_san
FROM demo_games ORDER BY game_no;
SELECT i - 1 AS ply, fen
FROM demo_games, unnest(generate_fen_array(starting_position, moves)) WITH ORDINALITY AS f(fen, i)
WHERE game_no = 2 AND i <= 6;

-- The opening of each game: its latest position that is a named opening.
SELECT g.game_no, o.eco, o.name, d.move_no
FROM demo_games g
CROSS JOIN LATERAL detect_opening(generate_fen_array(g.starting_position, g.moves)) d
LEFT JOIN openings o ON o.id = d.opening_id
ORDER BY g.game_no;

-- Export back to PGN; reading the export gives the same game.
SELECT game_to_pgn(starting_position, moves, game_result, tags) AS pgn FROM demo_games WHERE game_no = 2;
SELECT bool_and(p.moves = g.moves AND p.game_result IS NOT DISTINCT FROM g.game_result) AS round_trip
FROM demo_games g, LATERAL read_pgn(game_to_pgn(g.starting_position, g.moves, g.game_result, g.tags)) p;

-- Strict: an illegal move is an error naming the ply, the move and the position.
\set ON_ERROR_STOP off
SELECT generate_fen_array(:'std', '{e2e4,e7e5,e1e3}');
SELECT * FROM read_pgn(E'[Event "bad"]\n\n1. e4 e5 2. Ke3 *\n');
\set ON_ERROR_STOP on
SELECT game_no, moves FROM read_pgn(E'[Event "bad"]\n\n1. e4 e5 2. Ke3 *\n\n[Event "good"]\n\n1. d4 *\n', skip_invalid => true);
