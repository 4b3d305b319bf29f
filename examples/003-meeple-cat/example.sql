-- Seed 003, meeple.cat: a board-game site. Glicko-2 per game title, two-player and multiplayer
-- games alike from one table of participants (a two-player game is a game of two), the pairwise
-- rule of the document's section 8.3, a display rating μ − 2φ, a leaderboard of players with at
-- least 10 games and an RD under 150, and weekly inactivity growing the RD.

CREATE TABLE users (id uuid PRIMARY KEY, handle text NOT NULL);
CREATE TABLE games (id bigserial PRIMARY KEY, title text NOT NULL, finished_at timestamptz);
CREATE TABLE game_players (
    game_id   bigint NOT NULL REFERENCES games,
    title     text NOT NULL,
    finished_at timestamptz NOT NULL,
    user_id   uuid NOT NULL REFERENCES users,
    placement int,                               -- 1 = first; NULL until the game ends
    PRIMARY KEY (game_id, user_id)
);

INSERT INTO users SELECT ('00000000-0000-0000-0000-0000000000' || lpad(i::text, 2, '0'))::uuid, 'player' || i
FROM generate_series(1, 12) i;
INSERT INTO ledgers (name, rating_system, starting_rating, starting_rd, starting_volatility, tau, rating_period,
                     provisional_games, provisional_rd)
VALUES ('meeple.cat', 'glicko2', 1500, 350, 0.06, 0.5, '7 days', 10, 150);
SELECT ledger_attach_multiplayer('meeple.cat', 'game_players', game_column => 'game_id',
                                 date_column => 'finished_at', player_column => 'user_id',
                                 placement_column => 'placement', rule => 'pairwise', scope_column => 'title');

-- the document's pairwise rule on a first game of three: each pair is a two-player game from the
-- ratings before the game, and each player gets the mean of its pairwise results
INSERT INTO games (title, finished_at) VALUES ('catan', '2025-06-01 20:00');
INSERT INTO game_players VALUES
    (1, 'catan', '2025-06-01 20:00', '00000000-0000-0000-0000-000000000001', 1),
    (1, 'catan', '2025-06-01 20:00', '00000000-0000-0000-0000-000000000002', 2),
    (1, 'catan', '2025-06-01 20:00', '00000000-0000-0000-0000-000000000003', 3);
DO $$
DECLARE
    -- a two-player game as §8.2 rates it: Glickman's one-game period (step 6 with the new volatility)
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

-- a season of games: 12 players, chess and catan, two to four players a game
INSERT INTO games (title, finished_at)
SELECT (ARRAY['catan', 'chess'])[1 + i % 2], timestamptz '2025-06-02' + i * interval '6 hours'
FROM generate_series(1, 160) i;
INSERT INTO game_players
SELECT g.id, g.title, g.finished_at, u.id, row_number() OVER (PARTITION BY g.id ORDER BY md5(g.id || u.handle))
FROM games g
JOIN users u ON (hashtext(g.id || u.handle) & 7) < CASE WHEN g.title = 'chess' THEN 2 ELSE 3 END
WHERE g.id > 1;

DO $$
BEGIN
    -- one rating per title; the leaderboard holds players with 10 games or more and an RD under 150
    ASSERT (SELECT count(DISTINCT scope) FROM ledger_standings_now WHERE ledger = 'meeple.cat') = 2, 'per title';
    ASSERT (SELECT bool_and(games >= 10 AND rd < 150)
            FROM ledger_leaderboard('meeple.cat', 'catan', min_games => 10, max_rd => 150)), 'leaderboard filters';
    -- the display rating is μ − 2φ
    ASSERT (SELECT bool_and(conservative = rating - 2 * rd) FROM ledger_leaderboard('meeple.cat', 'catan')),
           'display rating';
    -- weekly inactivity: a year later every RD shown has grown, none beyond 350
    ASSERT (SELECT bool_and(n.rd > s.rd AND n.rd <= 350) FROM ledger_standings_now n
            JOIN ledger_standings s ON s.player = n.player AND s.scope = n.scope
            WHERE n.ledger = 'meeple.cat'), 'RD grows with inactivity';
END $$;

-- a corrected placement replays the games after it: the history equals a rebuild from scratch
UPDATE game_players SET placement = 1 WHERE game_id = 50 AND placement = 2;
CREATE TEMP TABLE before AS SELECT scope, player, game, rating FROM ledger_history WHERE ledger = 'meeple.cat';
SELECT ledger_rebuild('meeple.cat') > 0 AS rebuilt;
DO $$
BEGIN
    ASSERT NOT EXISTS (SELECT scope, player, game, rating FROM ledger_history WHERE ledger = 'meeple.cat'
                       EXCEPT SELECT * FROM before), 'the history equals a rebuild';
END $$;

SELECT rank, u.handle, round(rating::numeric) AS rating, round(rd::numeric) AS rd,
       round(conservative::numeric) AS display, games
FROM ledger_leaderboard('meeple.cat', 'catan', min_games => 10, page_size => 5) l
JOIN users u ON u.id::text = l.player
ORDER BY rank, u.handle;
