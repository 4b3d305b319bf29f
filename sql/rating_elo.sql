COMMENT ON FUNCTION elo_expected(float8, float8) IS
    'Elo expected score of rating against opponent: 1 / (1 + 10^((opponent - rating)/400)), in [0,1]. '
    'Huge gaps give exactly 0 or 1. Errors: 22003 for NaN or an infinity.';
COMMENT ON FUNCTION elo_update(float8, float8, float8, float8) IS
    'New Elo rating after one game: rating + k * (score - elo_expected(rating, opponent)). '
    'score in [0,1], k >= 0. Errors: 22003 NaN/infinity or an overflowing result, 22023 score outside [0,1] or negative k.';
