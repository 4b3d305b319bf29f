-- Seed 000, a chess platform (Next.js + Supabase): tournaments of participants, rounds and matches;
-- one Glicko-2 rating per user across tournaments, each match rated on its own as glicko2js rates it (§6.2:
-- a rating period of the one match); imported FIDE, chess.com and lichess ratings (§10.2); the bounds its
-- validator checks (§8.1). The platform's own tables as its document shows them, a ledger attached to them,
-- and the document's checks (its §9.1 unit tests, its migration's import rule).
--
-- The tables are the document's (§1.2, §6.2, §7.2, §9.2): a match names tournament participants, not users
-- (white_participant_id → tournament_participants.user_id), and belongs to a round of a tournament. The
-- glicko2_* columns §4.1.1 adds to users are not created: the ledger keeps rating, RD, volatility and the last
-- game (ledger_standings_now).

CREATE TABLE users (
    id              bigserial PRIMARY KEY,
    telegram_id     bigint UNIQUE,
    username        text,
    first_name      text,
    last_name       text,
    fide_rating     int,
    chesscom_rating int,
    lichess_rating  int
);
CREATE TABLE tournaments (
    id                   bigserial PRIMARY KEY,
    title                text,
    format               text,
    rounds               int,
    rating_system        text DEFAULT 'glicko2',
    use_global_ratings   int DEFAULT 1,
    rating_period_days   int DEFAULT 7,
    min_games_for_rating int DEFAULT 5
);
CREATE TABLE tournament_participants (
    id            bigserial PRIMARY KEY,
    tournament_id bigint NOT NULL REFERENCES tournaments,
    user_id       bigint NOT NULL REFERENCES users,
    nickname      text
);
CREATE TABLE rounds (
    id            bigserial PRIMARY KEY,
    tournament_id bigint NOT NULL REFERENCES tournaments,
    number        int NOT NULL,
    status        text,
    paired_at     timestamptz,
    source        text
);
CREATE TABLE matches (
    id                   bigserial PRIMARY KEY,
    round_id             bigint NOT NULL REFERENCES rounds,
    white_participant_id bigint NOT NULL REFERENCES tournament_participants,
    black_participant_id bigint REFERENCES tournament_participants,      -- NULL for a bye
    board_no             int,
    result               text NOT NULL DEFAULT 'not_played'
        CHECK (result IN ('white', 'black', 'draw', 'forfeit_white', 'forfeit_black', 'bye', 'not_played')),
    score_white          numeric,
    score_black          numeric,
    source               text,
    notes                text,
    created_at           timestamptz NOT NULL DEFAULT now()
);

-- GLICKO2_TAU=0.5 and the defaults 1500 / 350 / 0.06 (§10.3); the validator's bounds (§8.1: RD in [30, 350],
-- volatility at most 0.1). No rating_period: §6.2 rates each match as its own rating period, with no RD growth
-- between matches; "provisional" below min_games_for_rating (5).
-- (glicko2js, the library of §5, ends step 5's iteration at 1e-7: volatility_epsilon)
INSERT INTO ledgers (name, rating_system, starting_rating, starting_rd, starting_volatility, tau,
                     min_rd, max_rd, max_volatility, volatility_epsilon, provisional_games)
VALUES ('chess platform', 'glicko2', 1500, 350, 0.06, 0.5, 30, 350, 0.1, 1e-7, 5);
-- the players through the participants; §6.2's results: a forfeit is a loss of the side that forfeits, a bye
-- and a match not played are not rated
SELECT ledger_attach('chess platform', 'matches', key_column => 'id', date_column => 'created_at',
                     white_column => 'white_participant_id -> user_id',
                     black_column => 'black_participant_id -> user_id', result_column => 'result',
                     result_map => '{"white": 1, "forfeit_black": 1, "black": 0, "forfeit_white": 0, "draw": 0.5,
                                     "bye": "unrated", "not_played": "unrated"}');
-- ==== end of the system's schema and ledger (tests/integration/examples_replay.py runs the file up to here) ====

INSERT INTO users (id, username, fide_rating, chesscom_rating, lichess_rating) VALUES
    (1, 'anna',  NULL, NULL, NULL),
    (2, 'boris', NULL, NULL, NULL),
    (3, 'emil',  1700, NULL, NULL),
    (4, 'femi',  NULL, 1900, NULL),
    (5, 'gosia', NULL, NULL, 1800);
-- §10.2, the migration of the users there: FIDE as it is with RD 100; chess.com − 200, lichess − 300 and
-- everyone else 1500, with RD 200; volatility 0.06. One statement, one replay.
SELECT ledger_seed('chess platform', array_agg(id::text ORDER BY id),
                   array_agg(coalesce(fide_rating, chesscom_rating - 200, lichess_rating - 300, 1500)::float8 ORDER BY id),
                   array_agg(CASE WHEN fide_rating IS NOT NULL THEN 100 ELSE 200 END::float8 ORDER BY id),
                   array_agg(0.06::float8 ORDER BY id)) AS seeded
FROM users;
-- users who join after the migration start from the defaults, 1500 / 350
INSERT INTO users (id, username) VALUES (6, 'chen'), (7, 'dana');

INSERT INTO tournaments (id, title, format, rounds) VALUES (1, 'Autumn Swiss', 'swiss_glicko2', 3);
INSERT INTO tournament_participants (id, tournament_id, user_id, nickname)
SELECT id, 1, id, username FROM users;
INSERT INTO rounds (id, tournament_id, number, status, paired_at) VALUES
    (1, 1, 1, 'paired', '2025-10-01 18:00'), (2, 1, 2, 'paired', '2025-10-08 18:00');
INSERT INTO matches (round_id, board_no, white_participant_id, black_participant_id, result, created_at) VALUES
    -- §9.1 "a simple win/loss": 1500/200 beats 1500/200
    (1, 1, 1, 2, 'white', '2025-10-01 18:00'),
    -- §9.1 "high RD players": a newcomer (1500/350) beats emil (FIDE 1700, RD 100)
    (1, 2, 6, 3, 'white', '2025-10-01 18:00'),
    -- a bye is not rated
    (1, 3, 7, NULL, 'bye', '2025-10-01 18:00'),
    -- a match not played yet is not rated until its result comes
    (2, 1, 4, 5, 'not_played', '2025-10-08 18:00');

CREATE VIEW ratings AS
SELECT u.username, s.rating, s.rd, s.volatility, s.games, s.provisional
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
    ASSERT r.rating_before = 1500 AND r.rd_before = 350, 'a user who joined later starts from 1500 / 350';
    ASSERT r.rating - r.rating_before > 50, format('the newcomer gains %s', r.rating - r.rating_before);
    ASSERT r.rd < r.rd_before, 'the newcomer''s RD decreases';
    -- the established player was expected to win
    ASSERT (SELECT expected > 0.5 FROM ledger_history h JOIN users u ON u.id::text = h.player
            WHERE h.ledger = 'chess platform' AND u.username = 'emil'), '1700 vs 1500: above 0.5';
    -- the bye and the match not played are not rated: dana (no seed) has no rating; femi and gosia show
    -- their imported seeds, without games and provisional
    ASSERT NOT EXISTS (SELECT FROM ratings WHERE username = 'dana'), 'unrated';
    ASSERT (SELECT games = 0 AND provisional AND rating = 1700 AND rd = 200 FROM ratings WHERE username = 'femi'),
        'femi: the chess.com seed, provisional';
    ASSERT (SELECT games = 0 AND provisional AND rating = 1500 AND rd = 200 FROM ratings WHERE username = 'gosia'),
        'gosia: the lichess seed, provisional';
    -- §8.1: every RD and volatility within the validator's bounds
    ASSERT (SELECT bool_and(rd BETWEEN 30 AND 350 AND volatility <= 0.1) FROM ratings), '§8.1 bounds';
END $$;

-- the match is played: rated in its place; femi starts from chess.com 1900 − 200, gosia from lichess 1800 − 300
UPDATE matches SET result = 'draw', score_white = 0.5, score_black = 0.5 WHERE result = 'not_played';
DO $$
BEGIN
    ASSERT (SELECT rating_before FROM ledger_history h JOIN users u ON u.id::text = h.player
            WHERE h.ledger = 'chess platform' AND u.username = 'femi') = 1700, 'chess.com import';
    ASSERT (SELECT rating_before FROM ledger_history h JOIN users u ON u.id::text = h.player
            WHERE h.ledger = 'chess platform' AND u.username = 'gosia') = 1500, 'lichess import';
    -- a draw between a 1700 and a 1500 moves the favourite down
    ASSERT (SELECT rating < 1700 FROM ratings WHERE username = 'femi'), 'the favourite drew: down';
END $$;

-- a participant entered under the wrong user is corrected: the match is rated for the right one
UPDATE tournament_participants SET user_id = 7 WHERE id = 6;
DO $$
BEGIN
    ASSERT NOT EXISTS (SELECT FROM ratings WHERE username = 'chen'), 'chen has no match now';
    ASSERT (SELECT games FROM ratings WHERE username = 'dana') = 1, 'dana played the match against emil';
END $$;

SELECT username, round(rating::numeric, 1) AS rating, round(rd::numeric, 1) AS rd, games, provisional
FROM ratings ORDER BY rating DESC;
