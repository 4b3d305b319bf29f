-- board_svg: a chess position as an SVG picture (src/chess/svg.rs, pg_rating_core::svg::board).

COMMENT ON FUNCTION board_svg(text, text, int) IS
    'An SVG 1.1 picture (text to embed in a web page) of the position of a 4- or 6-field FEN, white at the bottom: '
    'light and dark squares, file and rank coordinates, the pieces as vector shapes (no font glyphs), the from- and '
    'to-squares of last_move (UCI, e.g. e2e4 or e7e8q; need not be legal) highlighted; size x size pixels. '
    'The same input gives the same bytes. NULL fen or size gives NULL. Errors: malformed FEN 22P02, last_move not '
    'naming two squares 22023, size outside 64..4096 22023.';
