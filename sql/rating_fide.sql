COMMENT ON FUNCTION fide_expected(int, int) IS
    'FIDE expected score (Rating Regulations from 1 March 2024, table 8.1.2): scoring probability PD '
    'of rating against opponent, in hundredths. A difference above 400 counts as 400 for players '
    'rated below 2650; from 2650 the real difference is used (amendment of 1 October 2025).';
COMMENT ON FUNCTION fide_k_factor(int, int, int, boolean) IS
    'FIDE development coefficient K (8.3.3): 40 while rated_games < 30; 40 while age <= 18 (age reached '
    'in the current year, i.e. until the end of the year of the 18th birthday) and rating < 2300; '
    '10 once the published rating has reached 2400 (reached_2400, or rating >= 2400); otherwise 20. '
    'age NULL = no junior rule. NULL rating or rated_games gives NULL. Errors: 22023 negative games or age.';
COMMENT ON FUNCTION fide_rating_change(int, int, int[], float8[]) IS
    'FIDE rating change for a period (8.3): K * sum(score - PD) with PD from fide_expected, K reduced to '
    'the largest whole number with K*n <= 700, rounded to a whole number, halves away from zero. Scores '
    'must be 0, 0.5 or 1. Errors: 2202E arrays of different lengths, 22023 bad score or k <= 0, '
    '22004 NULL elements.';
COMMENT ON FUNCTION fide_tpr(int[], float8) IS
    'FIDE Tournament Performance Rating (tie-break regulations): ARO (rounded, half up) + dp(p), '
    'p = score/games to two decimals, dp from table 8.1.1 (+800 for a full score, -800 for zero). '
    'score must be a multiple of 0.5 between 0 and the number of opponents. Errors: 22023, 22004 NULL elements.';
COMMENT ON FUNCTION fide_ptp(int[], float8) IS
    'FIDE Perfect Tournament Performance (tie-break regulations): the lowest whole rating whose '
    'expected score (table 8.1.2, full scale, no 400 cut) is at least the score; for a zero score, '
    '800 below the lowest-rated opponent. Errors: 22023 empty array or bad score, 22004 NULL elements.';
