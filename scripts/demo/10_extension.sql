-- The extensions, their value types and their rules
-- The engine and the Random Chess schema on it (CASCADE creates pg_rating first).
CREATE EXTENSION pg_rating_random_chess CASCADE;
\dx pg_rating*

-- A game result is a composite domain: apps write literals and read fields.
SELECT '(1-0,TIMEOUT)'::game_result AS result,
       ('(1/2-1/2,FIFTY_MOVE_RULE)'::game_result).game_end_reason AS reason;

-- Invalid pairs are rejected with SQLSTATE 23514 (a draw cannot end by checkmate).
DO $$
BEGIN
    PERFORM '(1/2-1/2,CHECKMATE)'::game_result;
EXCEPTION WHEN check_violation THEN
    RAISE NOTICE 'rejected: % (SQLSTATE %)', SQLERRM, SQLSTATE;
END $$;

-- Scores for each side.
SELECT r AS result, game_score(r::game_result) AS white, game_score(r::game_result, false) AS black
FROM (VALUES ('(1-0,CHECKMATE)'), ('(0-1,RESIGNATION)'), ('(1/2-1/2,STALEMATE)')) AS g(r);

-- A clock and its nominal length with 60 extra moves (how rankings pick a time control).
SET intervalstyle = iso_8601;
SELECT c AS clock, clock_base_time(c::clock_settings, 60) AS base_time
FROM (VALUES ('(3 minutes, 2 seconds)'), ('(10 minutes, 5 seconds)'), ('(1 hour, 30 seconds)'), ('(,)')) AS t(c);
