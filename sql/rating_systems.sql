-- The rating systems pg_rating knows, by the names ledgers and rankings give them: the CHECK of
-- ledgers.rating_system (and of the Random Chess rankings) asks the core's one list.
COMMENT ON FUNCTION rating_system_known(text) IS
    'True when the name is a rating system pg_rating knows (elo, fide, glicko2, skemino): the check of the rating_system column of ledgers and rankings.';
