-- The rows the Random Chess server looks up at start-up (its original schema script inserted them
-- after creating the tables): the services chess.com (2) and lichess.org (3), the Stockfish and
-- lichess bots, the nine rankings and the admin user (1). One call after CREATE EXTENSION sets
-- them up; it is idempotent (it adds only what is missing), and a dump keeps the rows like any
-- others, so a restored database needs no second call. A function, not rows of the extension
-- script: an extension's rows would come back twice after a restore (once from the script,
-- once from the dump), and an install for other applications would get Random Chess's bots.

CREATE FUNCTION random_chess_day_one() RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    INSERT INTO @extschema@.game_services (id, name) VALUES (2, 'chess.com'), (3, 'lichess.org')
    ON CONFLICT DO NOTHING;
    PERFORM pg_catalog.setval('@extschema@.game_services_id_seq',
                              greatest(3, (SELECT max(id) FROM @extschema@.game_services)));

    INSERT INTO @extschema@.service_accounts (user_id, service_id, user_id_in_service, token, display_name, is_bot)
    VALUES (NULL, 1, 'stockfish-easy', NULL, 'Stockfish (Easy)', true),
           (NULL, 1, 'stockfish-medium', NULL, 'Stockfish (Medium)', true),
           (NULL, 1, 'stockfish-hard', NULL, 'Stockfish (Hard)', true),
           (NULL, 1, 'stockfish-impossible', NULL, 'Stockfish (Impossible)', true)
    ON CONFLICT DO NOTHING;
    INSERT INTO @extschema@.service_accounts (user_id, service_id, user_id_in_service, token, display_name, is_bot)
    SELECT NULL, 3, level::text, NULL, format('Lichess bot (level %s)', level), true
    FROM generate_series(1, 8) AS level
    ON CONFLICT DO NOTHING;

    INSERT INTO @extschema@.rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo,
                                      include_bots, k_factor)
    SELECT r.name, r.playtime_min, r.playtime_max, r.multiplier, 800, r.bots, 40
    FROM (VALUES (1, 'Global ranking', interval '0', NULL::interval, 0, true),
                 (2, 'Bullet', interval '0', interval '3 minutes', 60, false),
                 (3, 'Bullet with bots', interval '0', interval '3 minutes', 60, true),
                 (4, 'Blitz', interval '3 minutes', interval '10 minutes', 60, false),
                 (5, 'Blitz with bots', interval '3 minutes', interval '10 minutes', 60, true),
                 (6, 'Rapid', interval '10 minutes', interval '60 minutes', 60, false),
                 (7, 'Rapid with bots', interval '10 minutes', interval '60 minutes', 60, true),
                 (8, 'Classical', interval '1 hour', interval '24 hours', 60, false),
                 (9, 'Classical with bots', interval '1 hour', interval '24 hours', 60, true))
         AS r(n, name, playtime_min, playtime_max, multiplier, bots)
    WHERE NOT EXISTS (SELECT FROM @extschema@.rankings k WHERE k.name = r.name)
    ORDER BY r.n;

    IF NOT EXISTS (SELECT FROM @extschema@.users WHERE id = 1) THEN
        -- not a usable password hash: the admin signs in once one is set
        INSERT INTO @extschema@.users (id, email, password_hash) VALUES (1, 'admin@randomchess.com', '!');
        PERFORM pg_catalog.setval('@extschema@.users_id_seq',
                                  greatest(1, (SELECT max(id) FROM @extschema@.users)));
        UPDATE @extschema@.service_accounts SET display_name = 'Admin'
        WHERE service_id = 1 AND user_id_in_service = '1';
    END IF;
    -- In a database that had rows before, the server's look-ups by id miss: say so.
    IF NOT EXISTS (SELECT FROM @extschema@.users WHERE id = 1 AND email = 'admin@randomchess.com') THEN
        RAISE WARNING 'the admin user (admin@randomchess.com) was not created: user 1 is already %',
            (SELECT email FROM @extschema@.users WHERE id = 1)
            USING HINT = 'random_chess_day_one() sets up a new database: run it right after CREATE EXTENSION.';
    END IF;
    IF NOT EXISTS (SELECT FROM @extschema@.rankings WHERE id = 1 AND name = 'Global ranking') THEN
        RAISE WARNING 'ranking 1 is not "Global ranking" (which has id %): rankings had rows before',
            (SELECT min(id) FROM @extschema@.rankings WHERE name = 'Global ranking')
            USING HINT = 'random_chess_day_one() sets up a new database: run it right after CREATE EXTENSION.';
    END IF;
END
$$;
REVOKE ALL ON FUNCTION random_chess_day_one() FROM PUBLIC;

COMMENT ON FUNCTION random_chess_day_one() IS
    'Adds the rows the Random Chess server expects on day one (services 2 and 3, the Stockfish and lichess bots, the '
    'nine rankings, the admin user 1) where they are missing; run once after CREATE EXTENSION (idempotent).';
