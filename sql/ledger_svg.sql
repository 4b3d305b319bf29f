-- ledger_rating_svg: players' ratings in a ledger as an SVG chart (src/ledger/svg.rs,
-- pg_rating_core::svg::chart).

COMMENT ON FUNCTION ledger_rating_svg(text, text[], text, int, int) IS
    'An SVG 1.1 line chart (text to embed in a web page), width x height pixels, of each listed player''s rating in '
    'a ledger''s scope: the rating before the player''s first game, then after every game, against the game date '
    '(in the session''s time zone); axes with date and rating ticks, one colour per player in the order listed, '
    'a legend (a player without games is listed with no line). STRICT: a NULL argument gives NULL. '
    'Errors: unknown ledger 22023, width or height outside 100..4096 22023, NULL player 22004, '
    'players of more than one dimension 2202E.';
