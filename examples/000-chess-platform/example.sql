-- Seed 000, a chess platform (Next.js + Supabase): users with uuid ids and imported FIDE,
-- chess.com or lichess ratings; tournament matches with byes; Glicko-2 with weekly rating
-- periods. The platform's own tables, a ledger attached to them, and the document's checks
-- (its section 9.1 unit tests, its migration's import rule).

CREATE TABLE users (
    id              uuid PRIMARY KEY,
    username        text NOT NULL UNIQUE,
    fide_rating     int,
    chesscom_rating int,
    lichess_rating  int
);
CREATE TABLE tournaments (id bigserial PRIMARY KEY, name text NOT NULL);
CREATE TABLE matches (
    id            bigserial PRIMARY KEY,
    tournament_id bigint REFERENCES tournaments,
    round         int,
    white_id      uuid NOT NULL REFERENCES users,
    black_id      uuid REFERENCES users,          -- NULL for a bye
    result        text CHECK (result IN ('1-0', '0-1', '1/2-1/2', 'bye', '*')),
    played_at     timestamptz NOT NULL
);

INSERT INTO users VALUES
    ('00000000-0000-0000-0000-00000000000a', 'anna',  NULL, NULL, NULL),
    ('00000000-0000-0000-0000-00000000000b', 'boris', NULL, NULL, NULL),
    ('00000000-0000-0000-0000-00000000000c', 'chen',  NULL, NULL, NULL),
    ('00000000-0000-0000-0000-00000000000d', 'dana',  NULL, NULL, NULL),
    ('00000000-0000-0000-0000-00000000000e', 'emil',  1700, NULL, NULL),
    ('00000000-0000-0000-0000-00000000000f', 'femi',  NULL, 1900, NULL),
    ('00000000-0000-0000-0000-000000000010', 'gosia', NULL, NULL, 1800);

INSERT INTO ledgers (name, rating_system, starting_rating, starting_rd, starting_volatility, tau, rating_period,
                     provisional_games)
VALUES ('chess platform', 'glicko2', 1500, 350, 0.06, 0.5, '7 days', 5);
-- The migration's import: FIDE as it is with RD 100; chess.com − 200 and lichess − 300 with RD 200.
-- anna and boris come with a known 1500 and RD 200 (the unit tests' players).
INSERT INTO ledger_seeds (ledger_id, player, rating, rd)
SELECT l.id, u.id::text,
       coalesce(u.fide_rating, u.chesscom_rating - 200, u.lichess_rating - 300),
       CASE WHEN u.fide_rating IS NOT NULL THEN 100 ELSE 200 END
FROM users u, ledgers l
WHERE l.name = 'chess platform' AND coalesce(u.fide_rating, u.chesscom_rating, u.lichess_rating) IS NOT NULL
UNION ALL
SELECT l.id, u.id::text, 1500, 200 FROM users u, ledgers l
WHERE l.name = 'chess platform' AND u.username IN ('anna', 'boris');

SELECT ledger_attach('chess platform', 'matches', key_column => 'id', date_column => 'played_at',
                     white_column => 'white_id', black_column => 'black_id', result_column => 'result',
                     result_map => '{"1-0": 1, "0-1": 0, "1/2-1/2": 0.5, "bye": "unrated", "*": "unrated"}');

INSERT INTO tournaments (name) VALUES ('Autumn Swiss');
INSERT INTO matches (tournament_id, round, white_id, black_id, result, played_at) VALUES
    -- section 9.1: "a simple win/loss": 1500/200 beats 1500/200
    (1, 1, '00000000-0000-0000-0000-00000000000a', '00000000-0000-0000-0000-00000000000b', '1-0', '2025-10-01 18:00'),
    -- "a high-RD player": a newcomer (1500/350) beats emil (FIDE 1700, RD 100)
    (1, 1, '00000000-0000-0000-0000-00000000000c', '00000000-0000-0000-0000-00000000000e', '1-0', '2025-10-01 18:00'),
    -- a bye is not rated
    (1, 1, '00000000-0000-0000-0000-00000000000d', NULL, 'bye', '2025-10-01 18:00'),
    -- a game still running is not rated until its result comes
    (1, 2, '00000000-0000-0000-0000-00000000000f', '00000000-0000-0000-0000-000000000010', '*', '2025-10-08 18:00');

CREATE VIEW ratings AS
SELECT u.username, s.rating, s.rd, s.games, s.provisional
FROM ledger_standings_now s JOIN users u ON u.id::text = s.player
WHERE s.ledger = 'chess platform';

DO $$
DECLARE r record;
BEGIN
    -- the winner gains, the loser loses
    ASSERT (SELECT rating FROM ratings WHERE username = 'anna') > 1500, 'the winner gains';
    ASSERT (SELECT rating FROM ratings WHERE username = 'boris') < 1500, 'the loser loses';
    -- equal players are expected to score 0.5
    ASSERT (SELECT abs(expected - 0.5) < 0.01 FROM ledger_history h JOIN users u ON u.id::text = h.player
            WHERE h.ledger = 'chess platform' AND u.username = 'anna'), 'equal players: 0.5';
    -- a high-RD newcomer beating an established 1700 gains more than 50 points and loses RD
    SELECT h.* INTO r FROM ledger_history h JOIN users u ON u.id::text = h.player
    WHERE h.ledger = 'chess platform' AND u.username = 'chen';
    ASSERT r.rating - r.rating_before > 50, format('the newcomer gains %s', r.rating - r.rating_before);
    ASSERT r.rd < r.rd_before, 'the newcomer''s RD decreases';
    -- the established player was expected to win
    ASSERT (SELECT expected > 0.5 FROM ledger_history h JOIN users u ON u.id::text = h.player
            WHERE h.ledger = 'chess platform' AND u.username = 'emil'), '1700 vs 1500: above 0.5';
    -- the bye and the running game are not rated: dana (no seed) has no rating; femi and gosia show
    -- their imported seeds, without games and provisional (since 0.13.0)
    ASSERT NOT EXISTS (SELECT FROM ratings WHERE username = 'dana'), 'unrated';
    ASSERT (SELECT games = 0 AND provisional AND rating = 1700 AND rd = 200 FROM ratings WHERE username = 'femi'),
        'femi: the chess.com seed, provisional';
    ASSERT (SELECT games = 0 AND provisional AND rating = 1500 AND rd = 200 FROM ratings WHERE username = 'gosia'),
        'gosia: the lichess seed, provisional';
END $$;

-- the running game ends: rated in its place; femi starts from chess.com 1900 − 200, gosia from
-- lichess 1800 − 300
UPDATE matches SET result = '1/2-1/2' WHERE result = '*';
DO $$
BEGIN
    ASSERT (SELECT rating_before FROM ledger_history h JOIN users u ON u.id::text = h.player
            WHERE h.ledger = 'chess platform' AND u.username = 'femi') = 1700, 'chess.com import';
    ASSERT (SELECT rating_before FROM ledger_history h JOIN users u ON u.id::text = h.player
            WHERE h.ledger = 'chess platform' AND u.username = 'gosia') = 1500, 'lichess import';
    -- a draw between a 1700 and a 1500 moves the favourite down
    ASSERT (SELECT rating < 1700 FROM ratings WHERE username = 'femi'), 'the favourite drew: down';
END $$;

SELECT username, round(rating::numeric, 1) AS rating, round(rd::numeric, 1) AS rd, games, provisional
FROM ratings ORDER BY rating DESC;
