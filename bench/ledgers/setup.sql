-- A plain games table of an application (bigint ids, three indexes besides the key) and the
-- benchmark's games: game n is deterministic, one minute after game n - 1.
CREATE TABLE matches (
    id        bigint PRIMARY KEY,
    played_at timestamptz NOT NULL,
    white     bigint NOT NULL,
    black     bigint NOT NULL,
    score     float8 NOT NULL,
    league    text NOT NULL DEFAULT 'open'
);
CREATE INDEX matches_by_date ON matches (played_at, id);
CREATE INDEX matches_by_white ON matches (white);
CREATE INDEX matches_by_black ON matches (black);

CREATE FUNCTION bench_match(n bigint, OUT white bigint, OUT black bigint, OUT score float8, OUT at timestamptz)
LANGUAGE sql IMMUTABLE AS $$
SELECT 1 + (n * 7919) % 1000, 1 + ((n * 7919) % 1000 + 1 + (n * 104729) % 999) % 1000,
       (ARRAY[1, 0, 0.5])[1 + n % 3]::float8, timestamptz '2024-01-01' + n * interval '1 minute'
$$;

-- Games first..last, one INSERT statement each, committing every 100.
CREATE PROCEDURE bench_insert(first bigint, last bigint)
LANGUAGE plpgsql AS $$
DECLARE m record;
BEGIN
    FOR n IN first..last LOOP
        m := bench_match(n);
        INSERT INTO matches (id, played_at, white, black, score) VALUES (n, m.at, m.white, m.black, m.score);
        IF n % 100 = 0 THEN
            COMMIT;
        END IF;
    END LOOP;
END $$;
