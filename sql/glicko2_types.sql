-- Glicko-2 values. A rating on the Glicko scale (1500 centre), its rating deviation (RD) and
-- volatility; the pair is what glicko2_game returns.

CREATE TYPE glicko2_rating AS (
    rating     float8,
    rd         float8,
    volatility float8
);

CREATE TYPE glicko2_pair AS (
    white glicko2_rating,
    black glicko2_rating
);

COMMENT ON TYPE glicko2_rating IS
    'Glicko-2 state: (rating, rd, volatility) on the Glicko scale; a newcomer is (1500,350,0.06). '
    'rd and volatility must be positive and every field finite and not NULL.';
COMMENT ON TYPE glicko2_pair IS
    'Result of glicko2_game: the white and the black player after the game.';
