-- The glue's errors keep their SQLSTATE and cause (issue 33): each case shows the code and message.
CREATE FUNCTION pg_temp.error_of(statement text) RETURNS text LANGUAGE plpgsql AS $$
BEGIN
    EXECUTE statement;
    RETURN 'no error';
EXCEPTION WHEN OTHERS THEN
    RETURN SQLSTATE || ': ' || SQLERRM;
END $$;

-- the ledgers' trigger functions called directly: 39P01, as every trigger function of pg_rating
SELECT pg_temp.error_of('SELECT ledger_games_changed()');
SELECT pg_temp.error_of('SELECT ledger_related_changed()');
