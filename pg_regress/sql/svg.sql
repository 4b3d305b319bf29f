-- board_svg and ledger_rating_svg: SVG pictures as text for a web page. Shown by their first
-- line, counts of their elements, pieces of the text and an md5 of the whole (the same input gives
-- the same bytes); tests/integration/svg_render.sh renders them.
\set std 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
SELECT p.oid::regprocedure AS function, p.provolatile AS volatile, p.proisstrict AS strict,
       p.proparallel AS parallel, p.proconfig AS config, pg_get_function_arguments(p.oid) AS arguments,
       obj_description(p.oid, 'pg_proc') IS NOT NULL AS has_comment
FROM pg_proc p WHERE p.proname IN ('board_svg', 'ledger_rating_svg') ORDER BY p.proname;

-- the start position: 64 squares in a frame, coordinates, 32 pieces drawn as shapes, no glyphs
CREATE TEMP VIEW board_parts AS
SELECT split_part(s, E'\n', 1) AS svg_tag, split_part(s, E'\n', 2) AS title,
       regexp_count(s, '<rect x="\d+" y="\d+" width="40" height="40"') AS squares,
       regexp_count(s, 'fill="#ecdcbc"/>') AS light, regexp_count(s, 'fill="#a97c5a"/>') AS dark,
       regexp_count(s, 'fill="#f2e26e"/>') AS light_last_move, regexp_count(s, 'fill="#c9ad34"/>') AS dark_last_move,
       regexp_count(s, '<text ') AS coordinates, regexp_count(s, '<g class="piece white') AS white_pieces,
       regexp_count(s, '<g class="piece black') AS black_pieces, s ~ '[♔-♟]' AS glyphs, md5(s)
FROM (SELECT board_svg(:'std') AS s) b;
\x on
SELECT * FROM board_parts;
\x off
-- where some pieces stand, and the coordinates
SELECT m[1] AS piece, m[2] AS at
FROM regexp_matches(board_svg(:'std'), '<g class="piece ([a-z ]+)" transform="translate\(([0-9 ]+)\)"', 'g') AS m
WHERE m[1] IN ('white king', 'black queen') OR m[2] = '20 60';
SELECT string_agg(m[1], '' ORDER BY m[1]) AS coordinates
FROM regexp_matches(board_svg(:'std'), '>([a-h1-8])</text>', 'g') AS m;
-- the last move's squares: e2 (180 260) and e4 (180 180) are light, g1 (260 300) dark
SELECT m[1] AS x, m[2] AS y, m[3] AS fill
FROM regexp_matches(board_svg('rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1', 'e2e4'),
                    '<rect x="(\d+)" y="(\d+)" width="40" height="40" fill="(#f2e26e|#c9ad34)"/>', 'g') AS m;
SELECT m[1] AS x, m[2] AS y, m[3] AS fill
FROM regexp_matches(board_svg('rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1', 'g1f3'),
                    '<rect x="(\d+)" y="(\d+)" width="40" height="40" fill="(#f2e26e|#c9ad34)"/>', 'g') AS m;
-- the move need not be legal; a promotion and castling name their squares; a 4-field FEN works
SELECT split_part(board_svg(:'std', 'a1h8'), E'\n', 2) AS title,
       board_svg('4k3/4P3/8/8/8/8/8/4K3 b - -', 'e7e8q') IS NOT NULL AS promotion,
       board_svg('r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1', 'e1h1') IS NOT NULL AS castling;
-- size: the pixels change, the drawing does not; same input, same bytes
SELECT split_part(board_svg(:'std', size => 64), E'\n', 1) AS smallest,
       split_part(board_svg(:'std', NULL, 4096), E'\n', 1) AS largest,
       (SELECT substr(a, strpos(a, '<title>')) = substr(b, strpos(b, '<title>'))
        FROM board_svg(:'std', size => 64) a, board_svg(:'std') b) AS same_drawing,
       board_svg(:'std', 'e2e4', 500) = board_svg(:'std', 'e2e4', 500) AS deterministic;
-- NULL: fen or size NULL gives NULL; a NULL last_move highlights nothing
SELECT board_svg(NULL) IS NULL AS null_fen, board_svg(:'std', 'e2e4', NULL) IS NULL AS null_size,
       board_svg(:'std', NULL) = board_svg(:'std') AS null_last_move;
-- errors: a malformed FEN as the other chess functions (22P02), a bad last move or size (22023)
\set VERBOSITY sqlstate
SELECT board_svg('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1');
SELECT board_svg('8/8/8/8/8/8/8/8 w - -');
SELECT board_svg(:'std', 'e2');
SELECT board_svg(:'std', size => 63);
SELECT board_svg(:'std', size => 4097);
\set VERBOSITY default
SELECT board_svg('rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1');
SELECT board_svg('garbage');
SELECT board_svg('4k3/4Q3/8/8/8/8/8/4K3 w - -');
SELECT board_svg(:'std', 'e2');
SELECT board_svg(:'std', 'e2e2');
SELECT board_svg(:'std', '0000');
SELECT board_svg(:'std', 'Q@e4');
SELECT board_svg(:'std', 'e7e8k');
SELECT board_svg(:'std', 'E2E4');
SELECT board_svg(:'std', 'e2e4 ');
SELECT board_svg(:'std', size => 63);
SELECT board_svg(:'std', size => 4097);
SELECT board_svg(:'std', size => -1);

-- ledger_rating_svg: a ledger with two scopes; one player's name needs escaping
CREATE TABLE club_games (
    id        int PRIMARY KEY,
    played_at timestamptz NOT NULL,
    white     text NOT NULL,
    black     text NOT NULL,
    score     float8,
    section   text NOT NULL DEFAULT 'open'
);
INSERT INTO ledgers (name, k_factor) VALUES ('club', 32);
SELECT ledger_attach('club', 'club_games', 'id', 'played_at', 'white', 'black', 'score', scope_column => 'section');
SET TimeZone = 'UTC';
INSERT INTO club_games (id, played_at, white, black, score) VALUES
    (1, '2025-01-01 10:00', 'ann', 'Bob & <Co> "O''Neil"', 1),
    (2, '2025-01-03 10:00', 'Bob & <Co> "O''Neil"', 'ann', 0.5),
    (3, '2025-01-05 10:00', 'ann', 'cy', 0),
    (4, '2025-01-09 10:00', 'cy', 'Bob & <Co> "O''Neil"', 1);
INSERT INTO club_games (id, played_at, white, black, score, section) VALUES (5, '2025-02-01', 'ann', 'dee', 1, 'blitz');
SELECT scope, player, count(*) AS games, round(min(rating)::numeric, 2) AS low, round(max(rating)::numeric, 2) AS high
FROM ledger_history WHERE ledger = 'club' GROUP BY 1, 2 ORDER BY 1, 2;

-- lines of ann and Bob (in the order listed: the first and second colour), a legend with dee marked
-- as without games in this scope, the name escaped, dates and ratings on the axes
CREATE TEMP VIEW chart AS
SELECT ledger_rating_svg('club', ARRAY['ann', 'Bob & <Co> "O''Neil"', 'dee'], 'open') AS s;
\x on
SELECT split_part(s, E'\n', 1) AS svg_tag, split_part(s, E'\n', 2) AS title,
       regexp_count(s, '<polyline ') AS lines, regexp_count(s, '<circle ') AS dots,
       (regexp_match(s, '<polyline points="[^"]*" fill="none" stroke="(#[0-9a-f]+)"'))[1] AS first_line_colour,
       regexp_count(s, '<text[^>]*>[0-9]{4}-[0-9]{2}-[0-9]{2}</text>') AS date_ticks,
       (SELECT string_agg(m[1], ' ') FROM regexp_matches(s, '>([0-9]{4}-[0-9]{2}-[0-9]{2})</text>', 'g') m) AS dates,
       (SELECT string_agg(m[1], ' ') FROM regexp_matches(s, 'text-anchor="end">([0-9]+)</text>', 'g') m) AS ratings,
       (SELECT string_agg(m[1], ' | ') FROM regexp_matches(s, '<text x="[0-9.]+" y="21"[^>]*>([^<]*)</text>', 'g') m)
           AS legend,
       s LIKE '%<Co>%' AS raw_name, md5(s)
FROM chart;
\x off
-- ann's line: the rating before the first game, then after each of her three games
SELECT array_length(regexp_split_to_array((regexp_match(s, '<polyline points="([^"]*)"'))[1], ' '), 1) AS ann_points
FROM chart;
-- the other scope, a player without games, nobody, repeated names, sizes
SELECT regexp_count(s, '<polyline ') AS lines, (regexp_match(s, '<title>([^<]*)</title>'))[1] AS title
FROM ledger_rating_svg('club', '{ann,dee}', 'blitz') AS s;
SELECT regexp_count(s, '<polyline ') AS lines, s LIKE '%>no games</text>%' AS says_no_games,
       s LIKE '%>zed (no games)</text>%' AS zed_in_legend
FROM ledger_rating_svg('club', '{zed}', 'open') AS s;
-- the default scope is '': this ledger is scoped, so a chart names its scope (22023, since 0.13.0),
-- and a scope it does not have is an error too
SELECT ledger_rating_svg('club', '{ann}');
SELECT ledger_rating_svg('club', '{ann}', 'rapid');
SELECT regexp_count(s, '<polyline ') AS lines, s LIKE '%>no games</text>%' AS says_no_games
FROM ledger_rating_svg('club', '{}', 'open') AS s;
SELECT regexp_count(s, '<polyline ') AS lines FROM ledger_rating_svg('club', '{ann,ann,cy}', 'open') AS s;
SELECT split_part(ledger_rating_svg('club', '{ann}', 'open', width => 100, height => 100), E'\n', 1) AS smallest,
       split_part(ledger_rating_svg('club', '{ann}', 'open', 4096, 4096), E'\n', 1) AS largest;
-- same input, same bytes
SELECT ledger_rating_svg('club', '{ann,cy}', 'open') = ledger_rating_svg('club', '{ann,cy}', 'open') AS deterministic;
-- STRICT: a NULL argument gives NULL
SELECT ledger_rating_svg(NULL, '{ann}') IS NULL AS null_ledger, ledger_rating_svg('club', NULL) IS NULL AS null_players,
       ledger_rating_svg('club', '{ann}', NULL) IS NULL AS null_scope;
-- errors: unknown ledger, width or height outside 100..4096 (22023), a NULL player (22004),
-- players of two dimensions (2202E)
\set VERBOSITY sqlstate
SELECT ledger_rating_svg('nope', '{ann}');
SELECT ledger_rating_svg('club', '{ann}', width => 99);
SELECT ledger_rating_svg('club', '{ann}', height => 4097);
SELECT ledger_rating_svg('club', '{ann,NULL}', 'open');
SELECT ledger_rating_svg('club', '{{ann},{cy}}');
\set VERBOSITY default
SELECT ledger_rating_svg('nope', '{ann}');
SELECT ledger_rating_svg('club', '{ann}', width => 99);
SELECT ledger_rating_svg('club', '{ann}', width => 4097);
SELECT ledger_rating_svg('club', '{ann}', height => 99);
SELECT ledger_rating_svg('club', '{ann}', height => 4097);
SELECT ledger_rating_svg('club', '{ann,NULL}', 'open');
SELECT ledger_rating_svg('club', '{{ann},{cy}}');
-- a table of the same name earlier on the search_path is not read
CREATE TEMP TABLE ledgers (id int, name text);
SELECT regexp_count(ledger_rating_svg('club', '{ann}', 'open'), '<polyline ') AS lines;
-- it reads with the caller's privileges: a role without SELECT on the ledger tables gets 42501
CREATE ROLE svg_reader;
SET ROLE svg_reader;
\set VERBOSITY sqlstate
SELECT ledger_rating_svg('club', '{ann}', 'open');
\set VERBOSITY default
SELECT ledger_rating_svg('club', '{ann}', 'open');
RESET ROLE;
DROP ROLE svg_reader;
