-- Seed 003, meeple.cat: a board-game site. Glicko-2 per game (title), two-player and multiplayer matches alike
-- from one table of participants (a two-player match is a match of two), the pairwise rule of the document's
-- §8.3 over §8.2's update_ratings_2p, a display rating μ − 2φ, a leaderboard of players with at least 10 games
-- and an RD under 150 (§9.1), weekly rating periods (§11).
--
-- The tables: users and matches as the document references them (matches.id a UUID, game_id the title such
-- as 'carcassonne', started_at and ended_at, the result; §2.1), and the players of a match with their scores
-- (§8.3 rates (player, rating, score) triples, higher is better: "Alice wins 102-85"). A match is rated when it
-- has ended (§8.1) in a rated room (§12.4: "Games are rated by default"; an unrated room is rated = false).
-- The title, the date and the rated flag are the match's: the ledger reads them through match_id.
-- player_ratings and rating_history (§7.1) are what the ledger keeps and are not created.

CREATE TABLE users (
    id           uuid PRIMARY KEY,
    display_name text NOT NULL,
    avatar_url   text
);
CREATE TABLE matches (
    id         uuid PRIMARY KEY,
    game_id    varchar(50) NOT NULL,
    config     jsonb NOT NULL DEFAULT '{}',
    rated      boolean NOT NULL DEFAULT true,
    started_at timestamptz,
    ended_at   timestamptz,                           -- NULL until the match ends
    result     jsonb
);
CREATE TABLE match_players (
    match_id uuid NOT NULL REFERENCES matches ON DELETE CASCADE,
    user_id  uuid NOT NULL REFERENCES users,
    seat     int,
    score    int,                                     -- NULL until the match ends
    PRIMARY KEY (match_id, user_id)
);

-- §7: Rating() is 1500 / 350 / 0.06 and provisional while φ > 150; §11: a rating period is one week.
-- (§11: a weekly job grows the RD of a player without games as √(φ² + σ²·weeks), φ on the 350 scale, for
-- whole weeks: rd_growth 'whole_periods_rating_scale')
INSERT INTO ledgers (name, rating_system, starting_rating, starting_rd, starting_volatility, tau, rating_period,
                     rd_growth, provisional_rd)
VALUES ('meeple.cat', 'glicko2', 1500, 350, 0.06, 0.5, '7 days', 'whole_periods_rating_scale', 150);
SELECT ledger_attach_multiplayer('meeple.cat', 'match_players', game_column => 'match_id',
                                 date_column => 'match_id -> ended_at', player_column => 'user_id',
                                 placement_column => 'score', rule => 'pairwise', higher_is_better => true,
                                 scope_column => 'match_id -> game_id', rated_column => 'match_id -> rated');
-- ==== end of the system's schema and ledger (tests/integration/examples_replay.py runs the file up to here) ====

INSERT INTO users SELECT ('00000000-0000-0000-0000-0000000000' || lpad(i::text, 2, '0'))::uuid, 'player' || i
FROM generate_series(1, 12) i;

-- the document's pairwise rule on a first match of three: each pair is a two-player match from the ratings
-- before the match, and each player gets the mean of its pairwise results
INSERT INTO matches (id, game_id, started_at, ended_at)
VALUES ('10000000-0000-0000-0000-000000000001', 'carcassonne', '2025-06-01 19:00', '2025-06-01 20:00');
INSERT INTO match_players (match_id, user_id, seat, score) VALUES
    ('10000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000001', 1, 102),
    ('10000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000002', 2, 85),
    ('10000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000003', 3, 60);
DO $$
DECLARE
    -- a two-player match as §8.2 rates it: Glickman's one-game period (step 6 with the new volatility)
    win glicko2_rating := glicko2_update('(1500,350,0.06)', ARRAY['(1500,350,0.06)'::glicko2_rating], ARRAY[1.0::float8]);
    loss glicko2_rating := glicko2_update('(1500,350,0.06)', ARRAY['(1500,350,0.06)'::glicko2_rating], ARRAY[0.0::float8]);
    second float8;
BEGIN
    ASSERT abs((SELECT rating FROM ledger_history WHERE ledger = 'meeple.cat'
                AND player = '00000000-0000-0000-0000-000000000001') - win.rating) < 1e-6,
           'the winner: two two-player wins from the start';
    second := (win.rating + loss.rating) / 2;
    ASSERT abs((SELECT rating FROM ledger_history WHERE ledger = 'meeple.cat'
                AND player = '00000000-0000-0000-0000-000000000002') - second) < 1e-6,
           'the second: the mean of a win and a loss';
END $$;

-- a season of matches: 12 players, chess and carcassonne, two to four players a match; one in ten in an
-- unrated room
INSERT INTO matches (id, game_id, rated, started_at, ended_at)
SELECT ('20000000-0000-0000-0000-' || lpad(i::text, 12, '0'))::uuid, (ARRAY['carcassonne', 'chess'])[1 + i % 2],
       i % 10 <> 0, timestamptz '2025-06-02' + i * interval '6 hours' - interval '1 hour',
       timestamptz '2025-06-02' + i * interval '6 hours'
FROM generate_series(1, 160) i;
INSERT INTO match_players (match_id, user_id, score)
SELECT m.id, u.id, (hashtext(m.id::text || u.display_name) & 255)
FROM matches m
JOIN users u ON (hashtext(m.id::text || u.id::text) & 7) < CASE WHEN m.game_id = 'chess' THEN 2 ELSE 3 END
WHERE m.id::text LIKE '2%';

DO $$
BEGIN
    -- one rating per title; the leaderboard holds players with 10 games or more and an RD under 150
    ASSERT (SELECT count(DISTINCT scope) FROM ledger_standings_now WHERE ledger = 'meeple.cat') = 2, 'per title';
    ASSERT (SELECT bool_and(games >= 10 AND rd < 150)
            FROM ledger_leaderboard('meeple.cat', 'carcassonne', min_games => 10, max_rd => 150)), 'leaderboard filters';
    -- the display rating is μ − 2φ
    ASSERT (SELECT bool_and(conservative = rating - 2 * rd) FROM ledger_leaderboard('meeple.cat', 'carcassonne')),
           'display rating';
    -- unrated rooms are not rated
    ASSERT NOT EXISTS (SELECT FROM ledger_history h JOIN matches m ON m.id::text = h.game
                       WHERE h.ledger = 'meeple.cat' AND NOT m.rated), 'unrated rooms';
    -- weekly inactivity: a year later every RD shown has grown, none beyond 350
    ASSERT (SELECT bool_and(n.rd > s.rd AND n.rd <= 350) FROM ledger_standings_now n
            JOIN ledger_standings s ON s.player = n.player AND s.scope = n.scope
            WHERE n.ledger = 'meeple.cat'), 'RD grows with inactivity';
END $$;

-- a match re-dated and another moved to the other title: the ledger follows the matches table
UPDATE matches SET ended_at = ended_at - interval '20 days' WHERE id = '20000000-0000-0000-0000-000000000101';
UPDATE matches SET game_id = 'chess' WHERE id = '20000000-0000-0000-0000-000000000051';
-- a corrected score replays the matches after it: the history equals a rebuild from scratch
UPDATE match_players SET score = 1000
WHERE (match_id, user_id) = (SELECT match_id, user_id FROM match_players
                             WHERE match_id = '20000000-0000-0000-0000-000000000050' ORDER BY score LIMIT 1);
CREATE TEMP TABLE before AS SELECT scope, player, game, rating FROM ledger_history WHERE ledger = 'meeple.cat';
SELECT ledger_rebuild('meeple.cat') > 0 AS rebuilt;
DO $$
BEGIN
    ASSERT (SELECT scope FROM ledger_history WHERE ledger = 'meeple.cat'
            AND game = '20000000-0000-0000-0000-000000000051' LIMIT 1) = 'chess', 'moved to chess';
    ASSERT NOT EXISTS (SELECT scope, player, game, rating FROM ledger_history WHERE ledger = 'meeple.cat'
                       EXCEPT SELECT * FROM before), 'the history equals a rebuild';
END $$;

SELECT rank, u.display_name, round(rating::numeric) AS rating, round(rd::numeric) AS rd,
       round(conservative::numeric) AS display, games
FROM ledger_leaderboard('meeple.cat', 'carcassonne', min_games => 10, page_size => 5) l
JOIN users u ON u.id::text = l.player
ORDER BY rank, u.display_name;
