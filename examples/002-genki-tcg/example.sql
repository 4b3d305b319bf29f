-- Seed 002, Genki TCG: a card-game league on NestJS + Prisma. One Glicko-2 rating per player per
-- organisation and game type, cuid (text) ids, the league's MatchResult enum, Glicko2Service's update (Part 4:
-- Glickman's steps with the match as the rating period, TAU = 0.5), provisional under 30 matches.
--
-- The tables are the document's Prisma models as Prisma creates them (quoted names, camelCase columns): a
-- Match belongs to a Round of an Event, and the Event has the organisation and the game type
-- (RatingsService.updateRatingsForMatch reads match.round.event.orgId and .game). The ledger reads them
-- through the foreign keys. PlayerRating and PlayerRatingHistory are what the ledger keeps
-- (ledger_standings_now, ledger_history) and are not created.

CREATE TYPE "GameType" AS ENUM ('ONE_PIECE_TCG', 'POKEMON', 'MTG');
CREATE TYPE "MatchResult" AS ENUM ('PLAYER_A_WIN', 'PLAYER_B_WIN', 'DRAW', 'INTENTIONAL_DRAW', 'DOUBLE_LOSS',
                                   'PLAYER_A_DQ', 'PLAYER_B_DQ');
CREATE TABLE "Organization" (
    id           text PRIMARY KEY,
    name         text NOT NULL,
    "inviteCode" text UNIQUE
);
CREATE TABLE "User" (
    id             text PRIMARY KEY,
    email          text UNIQUE,
    name           text,
    "passwordHash" text,
    "avatarUrl"    text
);
CREATE TABLE "Event" (
    id      text PRIMARY KEY,
    "orgId" text NOT NULL REFERENCES "Organization",
    name    text NOT NULL,
    game    "GameType" NOT NULL
);
CREATE TABLE "Round" (
    id            text PRIMARY KEY,
    "eventId"     text NOT NULL REFERENCES "Event",
    "roundNumber" int NOT NULL
);
CREATE TABLE "Match" (
    id           text PRIMARY KEY,
    "roundId"    text NOT NULL REFERENCES "Round",
    "playerAId"  text NOT NULL REFERENCES "User",
    "playerBId"  text REFERENCES "User",                 -- NULL for a bye
    result       "MatchResult",                          -- NULL until reported
    "gamesWonA"  int,
    "gamesWonB"  int,
    "reportedBy" text,
    "reportedAt" timestamp(3)
);

-- Glicko2Service: 1500 / 350 / 0.06, TAU = 0.5; no rating period (each match is rated when it is reported;
-- calculateInactivityRD is never called by the rating of a match); isProvisional below 30 matches.
INSERT INTO ledgers (name, rating_system, starting_rating, starting_rd, starting_volatility, tau, provisional_games)
VALUES ('genki', 'glicko2', 1500, 350, 0.06, 0.5, 30);
-- getMatchScore: a double loss is ½–½ as the document scores it (the ledger also offers "double_loss", both
-- lose); a disqualification is a loss. updateRatingsForMatch skips byes (no player B) and matches without a
-- result; the match is dated by its report.
SELECT ledger_attach('genki', '"Match"', key_column => 'id', date_column => '"reportedAt"',
                     white_column => '"playerAId"', black_column => '"playerBId"', result_column => 'result',
                     result_map => '{"PLAYER_A_WIN": 1, "PLAYER_B_WIN": 0, "DRAW": 0.5, "INTENTIONAL_DRAW": 0.5,
                                     "DOUBLE_LOSS": 0.5, "PLAYER_A_DQ": 0, "PLAYER_B_DQ": 1}',
                     scope_column => '"roundId" -> "eventId" -> "orgId", "roundId" -> "eventId" -> game',
                     filter => '"playerBId" IS NOT NULL');
-- ==== end of the system's schema and ledger (tests/integration/examples_replay.py runs the file up to here) ====

INSERT INTO "Organization" (id, name) VALUES ('org-tokyo', 'Genki Tokyo'), ('org-osaka', 'Genki Osaka');
INSERT INTO "User" (id, name) VALUES ('ckA1', 'Aiko'), ('ckB2', 'Ben'), ('ckC3', 'Chloe'), ('ckD4', 'Dev');
INSERT INTO "Event" VALUES ('ev1', 'org-tokyo', 'Tokyo weekly', 'POKEMON'), ('ev2', 'org-tokyo', 'Tokyo MTG', 'MTG'),
                           ('ev3', 'org-osaka', 'Osaka weekly', 'POKEMON');
INSERT INTO "Round" VALUES ('r1', 'ev1', 1), ('r2', 'ev1', 2), ('r3', 'ev2', 1), ('r4', 'ev3', 1);
INSERT INTO "Match" (id, "roundId", "playerAId", "playerBId", result, "reportedAt") VALUES
    ('m1', 'r1', 'ckA1', 'ckB2', 'PLAYER_A_WIN', '2025-09-01 10:00'),
    ('m2', 'r1', 'ckC3', 'ckD4', 'INTENTIONAL_DRAW', '2025-09-01 10:00'),
    ('m3', 'r2', 'ckA1', 'ckC3', 'DOUBLE_LOSS', '2025-09-01 11:00'),
    ('m4', 'r2', 'ckB2', 'ckD4', 'PLAYER_A_DQ', '2025-09-01 11:00'),
    ('m5', 'r2', 'ckB2', NULL, NULL, NULL),
    ('m6', 'r3', 'ckA1', 'ckB2', 'PLAYER_B_WIN', '2025-09-01 10:00'),
    ('m7', 'r4', 'ckA1', 'ckB2', 'DRAW', '2025-09-02 10:00');

CREATE VIEW leaderboard AS
SELECT s.scope, u.name, s.rating, s.rd, s.volatility, s.games, s.wins, s.draws, s.losses, s.provisional
FROM ledger_standings_now s JOIN "User" u ON u.id = s.player
WHERE s.ledger = 'genki';

DO $$
DECLARE
    -- Glicko2Service.updateRating for a first match: both at 1500 / 350 / 0.06, one game
    win glicko2_rating := glicko2_update('(1500,350,0.06)', ARRAY['(1500,350,0.06)'::glicko2_rating], ARRAY[1.0::float8]);
BEGIN
    -- one rating per organisation and game type
    ASSERT (SELECT count(DISTINCT scope) FROM leaderboard) = 3, 'three scopes';
    ASSERT (SELECT count(*) FROM leaderboard WHERE name = 'Aiko') = 3, 'Aiko rated in three scopes';
    ASSERT abs((SELECT rating FROM ledger_history WHERE ledger = 'genki' AND game = 'm1' AND player = 'ckA1')
               - win.rating) < 1e-6, 'a first win as Glicko2Service rates it';
    -- a double loss is ½–½ (getMatchScore), a draw in the record
    ASSERT (SELECT score = 0.5 FROM ledger_history WHERE ledger = 'genki' AND game = 'm3' AND player = 'ckA1'),
           'double loss: ½';
    -- a disqualification is a loss for the disqualified player
    ASSERT (SELECT score FROM ledger_history WHERE ledger = 'genki' AND game = 'm4' AND player = 'ckB2') = 0, 'DQ';
    -- an intentional draw is a draw; a bye is not rated
    ASSERT (SELECT score FROM ledger_history WHERE ledger = 'genki' AND game = 'm2' AND player = 'ckC3') = 0.5, 'ID';
    ASSERT NOT EXISTS (SELECT FROM ledger_history WHERE ledger = 'genki' AND game = 'm5'), 'bye unrated';
    -- every player is provisional under 30 matches
    ASSERT (SELECT bool_and(provisional) FROM leaderboard), 'provisional under 30';
END $$;

-- a match entered before its result is rated when the result is reported
INSERT INTO "Match" (id, "roundId", "playerAId", "playerBId") VALUES ('m8', 'r2', 'ckA1', 'ckD4');
UPDATE "Match" SET result = 'PLAYER_A_WIN', "reportedBy" = 'ckD4', "reportedAt" = '2025-09-03' WHERE id = 'm8';
DO $$
BEGIN
    ASSERT (SELECT count(*) FROM ledger_history WHERE ledger = 'genki' AND game = 'm8') = 2, 'rated when reported';
END $$;

-- the Osaka event was a Pokémon event of Tokyo's after all: its matches move to Tokyo's Pokémon rating
UPDATE "Event" SET "orgId" = 'org-tokyo' WHERE id = 'ev3';
DO $$
BEGIN
    ASSERT (SELECT count(DISTINCT scope) FROM leaderboard) = 2, 'two scopes left';
    ASSERT (SELECT scope FROM ledger_history WHERE ledger = 'genki' AND game = 'm7' LIMIT 1) = '(org-tokyo,POKEMON)',
           'the event moved';
END $$;

SELECT scope, name, round(rating::numeric, 1) AS rating, round(rd::numeric, 1) AS rd, games, wins, draws, losses
FROM leaderboard ORDER BY scope, rating DESC;
