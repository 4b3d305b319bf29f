-- A pair of plain ratings, returned by two-player updates such as skemino_update.
CREATE TYPE rating_pair AS (
    a float8,
    b float8
);

COMMENT ON TYPE rating_pair IS 'Two ratings after a game: a (the first player) and b (the second).';
