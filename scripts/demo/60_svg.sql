-- Pictures for a web page: a board and a rating chart as SVG
-- board_svg draws a position (white at the bottom, the squares of the last move highlighted, the
-- pieces as vector shapes); ledger_rating_svg draws players' ratings in a ledger over time. Both
-- return the SVG as text, ready to inline in HTML; psql writes them to files here.
\! mkdir -p target/demo
\set dir `pwd`/target/demo
\set mate 'r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4'
SELECT length(board_svg(:'mate', 'h5f7', 480)) AS bytes,
       split_part(board_svg(:'mate', 'h5f7', 480), E'\n', 1) AS first_line;

-- A club's games, rated by a ledger.
CREATE TABLE demo_club_games (
    id        int PRIMARY KEY,
    played_at timestamptz NOT NULL,
    white     text NOT NULL,
    black     text NOT NULL,
    score     float8
);
INSERT INTO ledgers (name, k_factor) VALUES ('demo club', 24);
SELECT ledger_attach('demo club', 'demo_club_games', 'id', 'played_at', 'white', 'black', 'score');
INSERT INTO demo_club_games
SELECT i, timestamptz '2025-01-06 19:00' + i * interval '1 day',
       (ARRAY['Anna', 'Ben', 'Chloé', 'Dmitri'])[1 + i % 4], (ARRAY['Ben', 'Chloé', 'Dmitri', 'Anna'])[1 + (i + i / 4) % 4],
       (ARRAY[1, 0.5, 0, 1, 1, 0.5, 0])[1 + (i * 5) % 7]
FROM generate_series(0, 79) i
WHERE (ARRAY['Anna', 'Ben', 'Chloé', 'Dmitri'])[1 + i % 4] <> (ARRAY['Ben', 'Chloé', 'Dmitri', 'Anna'])[1 + (i + i / 4) % 4];
SELECT player, round(rating::numeric, 1) AS rating, games FROM ledger_standings_now WHERE ledger = 'demo club'
ORDER BY rating DESC;

-- The files (open them in a browser).
\pset tuples_only on
\pset format unaligned
SELECT board_svg(:'mate', 'h5f7', 480) \g :dir/board.svg
SELECT ledger_rating_svg('demo club', ARRAY['Anna', 'Ben', 'Chloé', 'Dmitri'], '', 720, 360) \g :dir/ratings.svg
\pset format aligned
\pset tuples_only off
\echo wrote :dir/board.svg
\echo wrote :dir/ratings.svg
