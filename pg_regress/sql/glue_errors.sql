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

-- a NULL in a NOT NULL setting of ledgers reaches its constraint (23502), not a rule of the
-- settings with a default in its place
SELECT pg_temp.error_of($$INSERT INTO ledgers (name, rating_system) VALUES ('nulls', NULL)$$);
SELECT pg_temp.error_of($$INSERT INTO ledgers (name, k_factor) VALUES ('nulls', NULL)$$);
SELECT pg_temp.error_of($$INSERT INTO ledgers (name, owner) VALUES ('nulls', NULL)$$);
SELECT pg_temp.error_of($$INSERT INTO ledgers (name) VALUES (NULL)$$);
INSERT INTO ledgers (name) VALUES ('kept');
SELECT pg_temp.error_of($$UPDATE ledgers SET provisional_games = NULL WHERE name = 'kept'$$);
SELECT pg_temp.error_of($$UPDATE ledgers SET k_factor = -1 WHERE name = 'kept'$$);

-- a ranking whose ledger's name an application's ledger holds (one made before the names were
-- reserved; here with the checks switched off): 23505, not an internal error
ALTER TABLE ledgers DISABLE TRIGGER USER;
INSERT INTO ledgers (name) VALUES ('random_chess ranking 1');
ALTER TABLE ledgers ENABLE TRIGGER USER;
SELECT pg_temp.error_of($$INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier,
                                                  starting_elo, include_bots, k_factor)
                          VALUES ('Taken', '0', NULL, 0, 1200, true, 40)$$);
