COMMENT ON FUNCTION skemino_k(float8, float8) IS
    'Skèmino K for a game between ratings a and b: 160 * exp(-mean/721.35). Errors: 22003 for NaN, '
    'an infinity, or a mean rating >= 721.35*ln(160) = 3660.98 where K <= 1 and K^2 - K <= 0 (the '
    'formula is undefined there; no clamping) or so low that K overflows.';
COMMENT ON FUNCTION skemino_expected(float8, float8) IS
    'Skèmino expected score of a against b: 1 / (1 + 10^((b - a)/(K^2 - K))). A gap so large that '
    '10^x overflows gives exactly 0 or 1. Errors: as skemino_k.';
COMMENT ON FUNCTION skemino_update(float8, float8, float8) IS
    'Both Skèmino ratings after a game in which a scored score (1, 0.5, 0) and b scored 1 - score: '
    '(a + K(score - E), b - K(score - E)), zero-sum. Errors: as skemino_k, 22023 score outside [0,1].';
COMMENT ON FUNCTION skemino_level(float8) IS
    'Skèmino level of a rating (seed table): Principiante below 1200, Dilettante Categoria D/C/B/A '
    '1200/1400/1600/1800, Candidato Maestro 2000, Maestro 2200, Maestro Internazionale 2400, '
    'Gran Maestro 2500, Super Gran Maestro from 2700. Errors: 22003 NaN or infinity.';
