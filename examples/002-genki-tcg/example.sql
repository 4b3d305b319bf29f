-- Seed 002, Genki TCG: a card-game league. One Glicko-2 rating per player per organisation and
-- game type, text (cuid) ids, match results of its own enum: intentional draws, double losses
-- (both players lose: not the document's ½–½, which rewards two no-shows), disqualifications as
-- losses, byes unrated; provisional under 30 matches.

CREATE TYPE match_result AS ENUM ('PLAYER_A_WIN', 'PLAYER_B_WIN', 'DRAW', 'INTENTIONAL_DRAW', 'DOUBLE_LOSS',
                                  'PLAYER_A_DQ', 'PLAYER_B_DQ', 'BYE');
CREATE TABLE players (id text PRIMARY KEY, name text NOT NULL);
-- A match with its organisation and game type (the document reaches them through round and
-- event; a ledger reads them from the match row).
CREATE TABLE matches (
    id          text PRIMARY KEY,
    org_id      text NOT NULL,
    game_type   text NOT NULL,
    player_a_id text NOT NULL REFERENCES players,
    player_b_id text REFERENCES players,
    result      match_result,
    reported_at timestamptz NOT NULL
);

INSERT INTO players VALUES ('ckA1', 'Aiko'), ('ckB2', 'Ben'), ('ckC3', 'Chloe'), ('ckD4', 'Dev');
INSERT INTO ledgers (name, rating_system, starting_rating, starting_rd, starting_volatility, provisional_games)
VALUES ('genki', 'glicko2', 1500, 350, 0.06, 30);
SELECT ledger_attach('genki', 'matches', 'id', 'reported_at', 'player_a_id', 'player_b_id', 'result',
                     '{"PLAYER_A_WIN": 1, "PLAYER_B_WIN": 0, "DRAW": 0.5, "INTENTIONAL_DRAW": 0.5,
                       "DOUBLE_LOSS": "double_loss", "PLAYER_A_DQ": 0, "PLAYER_B_DQ": 1, "BYE": "unrated"}',
                     scope_column => 'org_id, game_type');

INSERT INTO matches VALUES
    ('m1', 'org-tokyo', 'POKEMON', 'ckA1', 'ckB2', 'PLAYER_A_WIN', '2025-09-01 10:00'),
    ('m2', 'org-tokyo', 'POKEMON', 'ckC3', 'ckD4', 'INTENTIONAL_DRAW', '2025-09-01 10:00'),
    ('m3', 'org-tokyo', 'POKEMON', 'ckA1', 'ckC3', 'DOUBLE_LOSS', '2025-09-01 11:00'),
    ('m4', 'org-tokyo', 'POKEMON', 'ckB2', 'ckD4', 'PLAYER_A_DQ', '2025-09-01 11:00'),
    ('m5', 'org-tokyo', 'POKEMON', 'ckB2', NULL, 'BYE', '2025-09-01 12:00'),
    ('m6', 'org-tokyo', 'MTG', 'ckA1', 'ckB2', 'PLAYER_B_WIN', '2025-09-01 10:00'),
    ('m7', 'org-osaka', 'POKEMON', 'ckA1', 'ckB2', 'DRAW', '2025-09-02 10:00');

CREATE VIEW leaderboard AS
SELECT s.scope, p.name, s.rating, s.rd, s.games, s.wins, s.draws, s.losses, s.provisional
FROM ledger_standings_now s JOIN players p ON p.id = s.player
WHERE s.ledger = 'genki';

DO $$
BEGIN
    -- one rating per organisation and game type
    ASSERT (SELECT count(DISTINCT scope) FROM leaderboard) = 3, 'three scopes';
    ASSERT (SELECT count(*) FROM leaderboard WHERE name = 'Aiko') = 3, 'Aiko rated in three scopes';
    -- a double loss costs both players (the record counts a loss each)
    ASSERT (SELECT losses FROM leaderboard WHERE name = 'Chloe' AND scope = '(org-tokyo,POKEMON)') = 1, 'double loss';
    ASSERT (SELECT score = 0 AND rating < rating_before FROM ledger_history
            WHERE ledger = 'genki' AND game = 'm3' AND player = 'ckA1'), 'double loss: Aiko loses';
    -- a disqualification is a loss for the disqualified player
    ASSERT (SELECT score FROM ledger_history WHERE ledger = 'genki' AND game = 'm4' AND player = 'ckB2') = 0, 'DQ';
    -- an intentional draw is a draw; a bye is not rated
    ASSERT (SELECT score FROM ledger_history WHERE ledger = 'genki' AND game = 'm2' AND player = 'ckC3') = 0.5, 'ID';
    ASSERT NOT EXISTS (SELECT FROM ledger_history WHERE ledger = 'genki' AND game = 'm5'), 'bye unrated';
    -- every player is provisional under 30 matches
    ASSERT (SELECT bool_and(provisional) FROM leaderboard), 'provisional under 30';
END $$;

-- a match entered before its result is rated when the result is reported
DO $$
BEGIN
    BEGIN
        INSERT INTO matches VALUES ('m8', 'org-tokyo', 'POKEMON', 'ckA1', 'ckD4', NULL, '2025-09-03');
        UPDATE matches SET result = 'PLAYER_A_WIN' WHERE id = 'm8';
        ASSERT (SELECT count(*) FROM ledger_history WHERE ledger = 'genki' AND game = 'm8') = 2, 'rated when reported';
    END;
END $$;

SELECT scope, name, round(rating::numeric, 1) AS rating, games, wins, draws, losses FROM leaderboard
ORDER BY scope, rating DESC;
