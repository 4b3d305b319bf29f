-- The app's nine rankings and 1,000 players.
INSERT INTO users (email, password_hash)
SELECT format('player%s@example.com', i), 'h' FROM generate_series(1, 1000) i;
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Global', '0', NULL, 0, 800, true, 40),
       ('Bullet', '0', '3 minutes', 60, 800, false, 40),
       ('Blitz', '3 minutes', '10 minutes', 60, 800, false, 40),
       ('Rapid', '10 minutes', '60 minutes', 60, 800, false, 40),
       ('Classical', '1 hour', '24 hours', 60, 800, false, 40),
       ('Bullet with bots', '0', '3 minutes', 60, 800, true, 40),
       ('Blitz with bots', '3 minutes', '10 minutes', 60, 800, true, 40),
       ('Rapid with bots', '10 minutes', '60 minutes', 60, 800, true, 40),
       ('Classical with bots', '1 hour', '24 hours', 60, 800, true, 40);

-- Game n of the benchmark: deterministic players, result, clock and a date one minute apart.
CREATE FUNCTION bench_game(n int, OUT white varchar, OUT black varchar, OUT result game_result,
                           OUT clock clock_settings, OUT at timestamptz)
LANGUAGE sql IMMUTABLE AS $$
SELECT (1 + (n::bigint * 7919) % 1000)::varchar,
       (1 + ((n::bigint * 7919) % 1000 + 1 + (n::bigint * 104729) % 999) % 1000)::varchar,
       (ARRAY['(1-0,CHECKMATE)', '(0-1,RESIGNATION)', '(1/2-1/2,STALEMATE)'])[1 + n % 3]::game_result,
       (ARRAY['(1 minute, 0)', '(3 minutes, 2 seconds)', '(10 minutes, 5 seconds)', '(1 hour, 30 seconds)'])[1 + (n / 3) % 4]::clock_settings,
       timestamptz '2024-01-01' + n * interval '1 minute'
$$;

-- Inserts games first..last, one INSERT statement each (as the app does), committing every
-- 100 games (the app commits every game; CALL it outside a transaction block).
CREATE PROCEDURE bench_insert(first int, last int)
LANGUAGE plpgsql AS $$
DECLARE g record;
BEGIN
    FOR n IN first..last LOOP
        g := bench_game(n);
        INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
        VALUES ('{e2e4,e7e5,g1f3,b8c6}', g.at, g.result, g.clock, 1, g.white, g.black, true);
        IF n % 100 = 0 THEN
            COMMIT;
        END IF;
    END LOOP;
END $$;
