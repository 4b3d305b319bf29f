COMMENT ON FUNCTION performance_rating(float8[], float8) IS
    'Performance rating on the logistic Elo curve: the R with sum(elo_expected(R, opponent)) = score, '
    'solved exactly (safeguarded Newton). Kept within [lowest opponent - 800, highest opponent + 800]: '
    'a zero score gives the lower end, a full score the upper end. Errors: 22023 empty array or score '
    'outside [0, n], 22003 NaN/infinity, 22004 NULL elements.';
