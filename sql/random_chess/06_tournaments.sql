-- Swiss tournaments of the Random Chess schema (the app pairs the rounds, or asks
-- tournament_pair_round for the FIDE Dutch pairing): the
-- tournaments, their players, games, byes and entry requirements, with every rule checked by
-- the Rust triggers check_* (src/tournament/), and the standings kept current on every change
-- by the Rust triggers refresh_standings_of_*: one row per (tournament,
-- round, player) in swiss_tournament_standings, which the views read. The tie-breaks are those
-- of FIDE C.07 (pg_rating_core::tournament), the performance rating is FIDE's TPR against the
-- opponents' ratings as of the tournament's start.

CREATE FUNCTION rebuild_tournament_standings(tournament_id int, reread_ratings boolean DEFAULT false)
    RETURNS bigint
    STRICT VOLATILE PARALLEL UNSAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'rebuild_tournament_standings_wrapper';
CREATE FUNCTION tournament_trf(tournament_id int) RETURNS text
    STRICT STABLE PARALLEL RESTRICTED
    LANGUAGE c AS 'MODULE_PATHNAME', 'tournament_trf_wrapper';
CREATE FUNCTION tournament_pair_round(tournament_id int, round int DEFAULT NULL,
                                      baku_acceleration boolean DEFAULT false,
                                      forbidden_pairs varchar[] DEFAULT '{}',
                                      system text DEFAULT 'dutch',
                                      first_colour_white boolean DEFAULT NULL,
                                      virtual_points jsonb DEFAULT NULL)
    RETURNS TABLE (board int, white varchar, black varchar)
    STABLE PARALLEL RESTRICTED
    LANGUAGE c AS 'MODULE_PATHNAME', 'tournament_pair_round_wrapper';

CREATE TABLE swiss_tournaments (
    tournament_id     serial PRIMARY KEY,
    round_count       int NOT NULL CONSTRAINT round_count_positive CHECK (round_count > 0)
                      -- far beyond any real event; keeps the standings' memory bounded
                      CONSTRAINT round_count_at_most_1000 CHECK (round_count <= 1000),
    starting_position varchar NOT NULL DEFAULT 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
        -- a position games can start from (a malformed FEN is 22P02, as in service_games)
        CONSTRAINT starting_position_is_a_position
            CHECK (pg_catalog.cardinality(@extschema@.generate_fen_array(starting_position, '{}')) = 1),
    is_ranked         bool NOT NULL DEFAULT true,
    -- NULL: no ratings as of the start (no performance ratings, no requirements by rating)
    ranking_id        int REFERENCES rankings,
    time_control      clock_settings NOT NULL,
    -- Added by pg_rating: the tie-breaks after points, FIDE acronyms in order (C.07 article 5).
    -- The default reproduces Random Chess: points, then performance rating.
    tie_breaks        varchar NOT NULL DEFAULT 'TPR'
        CONSTRAINT tie_breaks_valid CHECK (tie_breaks OPERATOR(pg_catalog.=) @extschema@.tournament_tie_break_order(tie_breaks))
);

CREATE TABLE tournaments_players (
    service_id         int NOT NULL DEFAULT 1 CONSTRAINT tournaments_players_local_accounts CHECK (service_id = 1),
    tournament_id      int NOT NULL REFERENCES swiss_tournaments ON DELETE CASCADE,
    user_id_in_service varchar NOT NULL,
    CONSTRAINT tournaments_players_account_fkey FOREIGN KEY (service_id, user_id_in_service) REFERENCES service_accounts,
    CONSTRAINT one_registration_per_player UNIQUE (tournament_id, user_id_in_service)
);

CREATE TABLE tournaments_games (
    tournament_id int NOT NULL REFERENCES swiss_tournaments ON DELETE CASCADE,
    game_id       int NOT NULL REFERENCES service_games,
    round         int NOT NULL CONSTRAINT tournaments_games_round_positive CHECK (round > 0),
    CONSTRAINT tournaments_games_game_once UNIQUE (tournament_id, game_id)
);
CREATE INDEX tournaments_games_by_round ON tournaments_games (tournament_id, round);
CREATE INDEX tournaments_games_by_game ON tournaments_games (game_id);

CREATE TABLE byes (
    tournament_id      int NOT NULL REFERENCES swiss_tournaments ON DELETE CASCADE,
    round              int NOT NULL CONSTRAINT byes_round_positive CHECK (round > 0),
    user_id_in_service varchar NOT NULL,
    CONSTRAINT one_bye_per_round UNIQUE (tournament_id, round, user_id_in_service),
    -- the player must be registered; removing the player removes its byes
    CONSTRAINT bye_player_registered FOREIGN KEY (tournament_id, user_id_in_service)
        REFERENCES tournaments_players (tournament_id, user_id_in_service) ON DELETE CASCADE,
    -- 1: the pairing-allocated bye (TRF U), the app's; 0.5 and 0: requested byes (TRF H, Z)
    points             numeric(2, 1) NOT NULL DEFAULT 1 CONSTRAINT bye_points_known CHECK (points IN (0, 0.5, 1))
);
CREATE INDEX byes_by_round ON byes (tournament_id, round);

CREATE TABLE tournaments_ranking_reqs (
    tournament_id  int NOT NULL REFERENCES swiss_tournaments ON DELETE CASCADE,
    ranking_type   int NOT NULL DEFAULT 1 REFERENCES rankings ON DELETE CASCADE,
    required_value int NOT NULL CONSTRAINT required_value_positive CHECK (required_value > 0),
    CONSTRAINT one_rating_requirement_per_ranking UNIQUE (tournament_id, ranking_type)
);

CREATE TABLE tournaments_ranked_games_reqs (
    tournament_id int NOT NULL REFERENCES swiss_tournaments ON DELETE CASCADE,
    ranking_type  int NOT NULL DEFAULT 1 REFERENCES rankings ON DELETE CASCADE,
    game_count    int NOT NULL CONSTRAINT game_count_positive CHECK (game_count > 0),
    CONSTRAINT one_games_requirement_per_ranking UNIQUE (tournament_id, ranking_type)
);

CREATE VIEW tournaments_reqs AS
SELECT q.tournament_id, q.ranking_type, NULL::int AS game_count, q.required_value
FROM @extschema@.tournaments_ranking_reqs q
UNION ALL
SELECT q.tournament_id, q.ranking_type, q.game_count, NULL::int
FROM @extschema@.tournaments_ranked_games_reqs q;

-- Derived state, written only by the refresh_standings_of_* triggers (SECURITY DEFINER).

-- Per tournament: when it started (the creation_date of its earliest game; NULL before any
-- game) and the last round with a game or a bye (the standings hold rounds 1..last_round).
CREATE TABLE swiss_tournament_progress (
    tournament_id  int PRIMARY KEY REFERENCES swiss_tournaments ON DELETE CASCADE,
    started_at     timestamptz,
    last_round     int NOT NULL DEFAULT 0,
    next_player_no int NOT NULL DEFAULT 1
);

-- Per registered player: the pairing number (registration order, the last resort of the
-- standings and the TRF starting rank order) and the rating as of the tournament's start.
CREATE TABLE swiss_tournament_entrants (
    tournament_id      int NOT NULL REFERENCES swiss_tournaments ON DELETE CASCADE,
    user_id_in_service varchar NOT NULL,
    player_no          int NOT NULL,
    start_rating       int,
    PRIMARY KEY (tournament_id, user_id_in_service),
    CONSTRAINT one_player_per_number UNIQUE (tournament_id, player_no)
);

-- One row per (tournament, round, registered player) for rounds 1..last_round: the player's
-- entry of that round (opponent's pairing number, colour w/b/-, TRF-16 result code) and every
-- value of the standings after that round. Exact units: half points (_x2), quarter points
-- (_x4). sort_key orders rows by points and the tournament's tie-breaks (larger is better);
-- tie_rank is set when the order has a direct encounter (DE), which sort_key cannot hold.
CREATE TABLE swiss_tournament_standings (
    tournament_id      int NOT NULL REFERENCES swiss_tournaments ON DELETE CASCADE,
    round              int NOT NULL,
    player_no          int NOT NULL,
    user_id_in_service varchar NOT NULL,
    opponent_no        int,
    colour             char(1) NOT NULL,
    result             char(1) NOT NULL,
    points_x2          int NOT NULL,
    adjusted_x2        int NOT NULL,
    played             int NOT NULL,
    win                int NOT NULL,
    won                int NOT NULL,
    bh_x2              int NOT NULL,
    bh_c1_x2           int NOT NULL,
    sb_x4              int NOT NULL,
    sb_c1_x4           int NOT NULL,
    aro                int,
    aro_c1             int,
    tpr                int,
    ptp                int,
    sort_key           bytea NOT NULL,
    tie_rank           int,
    de                 numeric,
    PRIMARY KEY (tournament_id, round, player_no)
);
-- the order of the standings: reading one round is an index scan, no sort
CREATE INDEX swiss_tournament_standings_order
    ON swiss_tournament_standings (tournament_id, round, tie_rank, sort_key DESC, player_no);
CREATE INDEX swiss_tournament_standings_by_player
    ON swiss_tournament_standings (tournament_id, player_no, round);

CREATE VIEW swiss_tournaments_players_points AS
SELECT s.tournament_id, s.user_id_in_service, s.round, s.points_x2::numeric * 0.5 AS points,
       s.tpr::numeric AS performance_rating
FROM @extschema@.swiss_tournament_standings s;

CREATE VIEW swiss_tournaments_round_standings AS
SELECT row_number() OVER w AS place, s.points_x2::numeric * 0.5 AS points, s.tpr::numeric AS performance_rating,
       s.user_id_in_service, s.tournament_id, s.round
FROM @extschema@.swiss_tournament_standings s
WINDOW w AS (PARTITION BY s.tournament_id, s.round ORDER BY s.tie_rank, s.sort_key DESC, s.player_no);

CREATE VIEW swiss_tournaments_detailed_standings AS
SELECT s.tournament_id, s.round, (row_number() OVER w)::int AS place,
       (rank() OVER (PARTITION BY s.tournament_id, s.round ORDER BY s.tie_rank, s.sort_key DESC))::int AS rank,
       s.user_id_in_service, s.player_no, s.points_x2::numeric * 0.5 AS points, t.tie_breaks,
       s.de, s.bh_x2::numeric * 0.5 AS buchholz, s.bh_c1_x2::numeric * 0.5 AS buchholz_cut1,
       s.sb_x4::numeric * 0.25 AS sonneborn_berger, s.sb_c1_x4::numeric * 0.25 AS sonneborn_berger_cut1,
       s.win AS wins, s.won AS games_won, s.aro, s.aro_c1, s.tpr, s.ptp,
       s.played AS games_played, s.adjusted_x2::numeric * 0.5 AS adjusted_points, e.start_rating,
       s.opponent_no, s.colour, s.result
FROM @extschema@.swiss_tournament_standings s
JOIN @extschema@.swiss_tournaments t ON t.tournament_id = s.tournament_id
JOIN @extschema@.swiss_tournament_entrants e
  ON e.tournament_id = s.tournament_id AND e.user_id_in_service OPERATOR(pg_catalog.=) s.user_id_in_service
WINDOW w AS (PARTITION BY s.tournament_id, s.round ORDER BY s.tie_rank, s.sort_key DESC, s.player_no);

-- Trigger functions (src/tournament/triggers.rs): one per table and job, named like its trigger;
-- each fires only on its table (checked by its C entry point), and no role may execute them.
CREATE FUNCTION check_swiss_tournament() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'check_swiss_tournament_wrapper';
CREATE FUNCTION check_tournament_player() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'check_tournament_player_wrapper';
CREATE FUNCTION check_tournament_game() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'check_tournament_game_wrapper';
CREATE FUNCTION check_bye() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'check_bye_wrapper';
CREATE FUNCTION refresh_standings_of_tournament() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'refresh_standings_of_tournament_wrapper';
CREATE FUNCTION refresh_standings_of_player() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'refresh_standings_of_player_wrapper';
CREATE FUNCTION refresh_standings_of_game() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'refresh_standings_of_game_wrapper';
CREATE FUNCTION refresh_standings_of_bye() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'refresh_standings_of_bye_wrapper';
CREATE FUNCTION refresh_standings_of_service_game() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'refresh_standings_of_service_game_wrapper';
CREATE FUNCTION rebuild_truncated_tournaments() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'rebuild_truncated_tournaments_wrapper';
REVOKE ALL ON FUNCTION check_swiss_tournament(), check_tournament_player(), check_tournament_game(), check_bye(),
    refresh_standings_of_tournament(), refresh_standings_of_player(), refresh_standings_of_game(),
    refresh_standings_of_bye(), refresh_standings_of_service_game(), rebuild_truncated_tournaments()
    FROM PUBLIC;

CREATE TRIGGER check_swiss_tournament
    BEFORE INSERT OR UPDATE ON swiss_tournaments
    FOR EACH ROW EXECUTE FUNCTION check_swiss_tournament();
CREATE TRIGGER check_tournament_player
    BEFORE INSERT OR UPDATE OR DELETE ON tournaments_players
    FOR EACH ROW EXECUTE FUNCTION check_tournament_player();
CREATE TRIGGER check_tournament_game
    BEFORE INSERT OR UPDATE ON tournaments_games
    FOR EACH ROW EXECUTE FUNCTION check_tournament_game();
CREATE TRIGGER check_bye
    BEFORE INSERT OR UPDATE ON byes
    FOR EACH ROW EXECUTE FUNCTION check_bye();

CREATE TRIGGER refresh_standings_of_tournament
    AFTER INSERT OR UPDATE ON swiss_tournaments
    FOR EACH ROW EXECUTE FUNCTION refresh_standings_of_tournament();
CREATE TRIGGER refresh_standings_of_player
    AFTER INSERT OR DELETE ON tournaments_players
    FOR EACH ROW EXECUTE FUNCTION refresh_standings_of_player();
CREATE TRIGGER refresh_standings_of_game
    AFTER INSERT OR UPDATE OR DELETE ON tournaments_games
    FOR EACH ROW EXECUTE FUNCTION refresh_standings_of_game();
CREATE TRIGGER refresh_standings_of_bye
    AFTER INSERT OR UPDATE OR DELETE ON byes
    FOR EACH ROW EXECUTE FUNCTION refresh_standings_of_bye();
-- a service game's result reason, moves (a forfeit is a decisive ABANDONMENT without a move)
-- or date (the tournament's start) may change
CREATE TRIGGER refresh_standings_of_service_game
    AFTER UPDATE OF result, moves, creation_date ON service_games
    FOR EACH ROW
    -- (moves: NOT NULL varchar arrays, compared with pg_catalog's array equality)
    WHEN (OLD.result IS DISTINCT FROM NEW.result OR NOT OLD.moves OPERATOR(pg_catalog.=) NEW.moves
          OR OLD.creation_date IS DISTINCT FROM NEW.creation_date)
    EXECUTE FUNCTION refresh_standings_of_service_game();

-- TRUNCATE fires no row trigger: the standings of every tournament are recomputed
CREATE TRIGGER rebuild_standings_after_truncate_of_games
    AFTER TRUNCATE ON tournaments_games
    FOR EACH STATEMENT EXECUTE FUNCTION rebuild_truncated_tournaments();
CREATE TRIGGER rebuild_standings_after_truncate_of_byes
    AFTER TRUNCATE ON byes
    FOR EACH STATEMENT EXECUTE FUNCTION rebuild_truncated_tournaments();
CREATE TRIGGER rebuild_standings_after_truncate_of_players
    AFTER TRUNCATE ON tournaments_players
    FOR EACH STATEMENT EXECUTE FUNCTION rebuild_truncated_tournaments();

-- Derived tables: only pg_rating writes them (a deleted tournament's rows go by its cascade).
CREATE TRIGGER refuse_foreign_write
    BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON swiss_tournament_progress
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();
CREATE TRIGGER check_cascaded_delete
    BEFORE DELETE ON swiss_tournament_progress
    FOR EACH ROW EXECUTE FUNCTION check_cascaded_delete();
CREATE TRIGGER refuse_foreign_write
    BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON swiss_tournament_entrants
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();
CREATE TRIGGER check_cascaded_delete
    BEFORE DELETE ON swiss_tournament_entrants
    FOR EACH ROW EXECUTE FUNCTION check_cascaded_delete();
CREATE TRIGGER refuse_foreign_write
    BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON swiss_tournament_standings
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();
CREATE TRIGGER check_cascaded_delete
    BEFORE DELETE ON swiss_tournament_standings
    FOR EACH ROW EXECUTE FUNCTION check_cascaded_delete();

-- The trigger functions run as the extension's owner (applications need no privilege on the
-- derived tables) with a pinned search_path.
ALTER FUNCTION check_swiss_tournament() SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION check_tournament_player() SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION check_tournament_game() SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION check_bye() SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION refresh_standings_of_tournament() SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION refresh_standings_of_player() SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION refresh_standings_of_game() SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION refresh_standings_of_bye() SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION refresh_standings_of_service_game() SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION rebuild_truncated_tournaments() SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION rebuild_tournament_standings(int, boolean) SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION tournament_trf(int) SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION tournament_pair_round(int, int, boolean, varchar[], text, boolean, jsonb) SET search_path = pg_catalog, pg_temp;
REVOKE ALL ON FUNCTION rebuild_tournament_standings(int, boolean) FROM PUBLIC;

SELECT pg_catalog.pg_extension_config_dump('swiss_tournaments', '');
SELECT pg_catalog.pg_extension_config_dump('swiss_tournaments_tournament_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('tournaments_players', '');
SELECT pg_catalog.pg_extension_config_dump('tournaments_games', '');
SELECT pg_catalog.pg_extension_config_dump('byes', '');
SELECT pg_catalog.pg_extension_config_dump('tournaments_ranking_reqs', '');
SELECT pg_catalog.pg_extension_config_dump('tournaments_ranked_games_reqs', '');
SELECT pg_catalog.pg_extension_config_dump('swiss_tournament_progress', '');
SELECT pg_catalog.pg_extension_config_dump('swiss_tournament_entrants', '');
SELECT pg_catalog.pg_extension_config_dump('swiss_tournament_standings', '');

COMMENT ON TABLE swiss_tournaments IS
    'Swiss tournaments: round_count rounds; every game has the tournament''s starting position, clock and '
    'is_ranked. ranking_id gives the ratings of the performance ratings (also for unranked tournaments); a ranked '
    'tournament''s time control must fall in its ranking''s window. tie_breaks: FIDE C.07 acronyms after points '
    '(DE, BH, BH-C1, SB, SB-C1, WIN, WON, ARO, ARO-C1, TPR, PTP), default TPR.';
COMMENT ON COLUMN swiss_tournaments.tie_breaks IS
    'Tie-breaks after points, comma-separated FIDE acronyms, stored in canonical spelling (''bh-c1,sb'' becomes '
    '''BH-C1, SB''); empty = points only. Changing it re-ranks the standings.';
COMMENT ON TABLE tournaments_players IS
    'Registrations. Joining checks the tournament''s requirements (bots exempt): current rating >= required_value '
    'and history entries >= game_count in each required ranking. A player with games in the tournament cannot be '
    'removed; removing a player removes its byes.';
COMMENT ON TABLE tournaments_games IS
    'The games of each round. Accepted only if round <= round_count, the game is local, its is_ranked, starting '
    'position and clock equal the tournament''s, both players are registered and neither has another game or a bye '
    'in that round. A decisive ABANDONMENT without a move is a forfeit.';
COMMENT ON TABLE byes IS
    'Byes; the player must be registered and have no game that round. points: 1 (the default) a pairing-allocated '
    'bye (TRF code U), 0.5 a half-point bye (H), 0 a zero-point bye (Z), which FIDE C.07 article 16 counts as requested '
    'byes in the tie-breaks.';
COMMENT ON TABLE tournaments_ranking_reqs IS 'Minimum current rating in a ranking to join a tournament.';
COMMENT ON TABLE tournaments_ranked_games_reqs IS 'Minimum number of rated games in a ranking to join a tournament.';
COMMENT ON VIEW tournaments_reqs IS 'Both kinds of requirements: game_count or required_value is NULL.';
COMMENT ON TABLE swiss_tournament_progress IS
    'Derived: each tournament''s start (creation_date of its earliest game) and last round with a game or a bye.';
COMMENT ON TABLE swiss_tournament_entrants IS
    'Derived: each registered player''s pairing number (registration order) and rating in the tournament''s '
    'ranking as of the start (latest elo_history entry dated before it, else starting_elo; NULL for a bot the ranking '
    'excludes or before the first game).';
COMMENT ON TABLE swiss_tournament_standings IS
    'Derived, kept by the refresh_standings_of_* triggers: per (tournament, round, player) the entry of the round and '
    'every tie-break value after it (FIDE C.07, 2026 edition).';
COMMENT ON VIEW swiss_tournaments_players_points IS
    'Per registered player per round up to the last round with a game or a bye: points (wins + draws/2 + byes up '
    'to the round) and performance_rating (FIDE TPR against ratings as of the start; NULL without a rated game '
    'played over the board).';
COMMENT ON VIEW swiss_tournaments_round_standings IS
    'The standings of each round: place = row_number by points, then the tournament''s tie_breaks (default: '
    'performance rating), then pairing number.';
COMMENT ON VIEW swiss_tournaments_detailed_standings IS
    'The standings with every tie-break value: DE score (when DE decided a tie), Buchholz, Buchholz Cut-1, '
    'Sonneborn-Berger, its Cut-1, wins (7.1), games won (7.2), ARO, ARO Cut-1, TPR, PTP; rank is shared by players '
    'still tied after all tie-breaks.';
COMMENT ON FUNCTION check_swiss_tournament() IS
    'Trigger of swiss_tournaments: stores the tie-break order in its canonical spelling (an unknown tie-break 22023).';
COMMENT ON FUNCTION check_tournament_player() IS
    'Trigger of tournaments_players: a registration meets the tournament''s requirements, is never changed, and a '
    'player with games in the tournament cannot leave.';
COMMENT ON FUNCTION check_tournament_game() IS
    'Trigger of tournaments_games: the round exists, the game is local with the tournament''s rated flag, starting '
    'position and clock, and both players are registered and have no other game or bye in the round.';
COMMENT ON FUNCTION check_bye() IS
    'Trigger of byes: the round exists, the player is registered and has no game or other bye in the round.';
COMMENT ON FUNCTION refresh_standings_of_tournament() IS
    'Trigger of swiss_tournaments: a ranked tournament''s time control falls in its ranking''s window and its games '
    'and byes still follow its rules; a new tournament gets its progress row; a change of its ranking or tie-break '
    'order recomputes its standings.';
COMMENT ON FUNCTION refresh_standings_of_player() IS
    'Trigger of tournaments_players: a registered player gets a pairing number and standings rows, one who left loses '
    'them.';
COMMENT ON FUNCTION refresh_standings_of_game() IS
    'Trigger of tournaments_games: the standings of the rounds a registered, moved or removed game changes.';
COMMENT ON FUNCTION refresh_standings_of_bye() IS
    'Trigger of byes: the standings of the rounds a bye changes.';
COMMENT ON FUNCTION refresh_standings_of_service_game() IS
    'Trigger of service_games: the standings of the tournaments a game is registered in, after a change of its '
    'result, moves or date.';
COMMENT ON FUNCTION rebuild_truncated_tournaments() IS
    'Trigger: after a TRUNCATE of tournaments_games, byes or tournaments_players, recomputes every tournament''s '
    'standings from scratch.';
COMMENT ON FUNCTION rebuild_tournament_standings(int, boolean) IS
    'Recomputes one tournament''s start, last round and standings from scratch; the ratings as of the start are read '
    'again from elo_history when the start moved or reread_ratings is true (else the ratings taken when the start was '
    'set are kept, so that past standings never change). Returns the number of standings rows written.';
COMMENT ON FUNCTION tournament_trf(int) IS
    'The FIDE TRF-16 report of a tournament after its last round: 012/042/052/062/072/092/XXR and one 001 line per '
    'player (starting rank by pairing number, rating as of the start, points, rank, per round opponent, colour, '
    'result: 1 = 0, W D L without a move, + - forfeits, U pairing-allocated bye, H half-point bye, Z zero-point bye or '
    'absent).';
COMMENT ON FUNCTION tournament_pair_round(int, int, boolean, varchar[], text, boolean, jsonb) IS
    'The FIDE Dutch pairing (C.04.3, 2025 rules) of a tournament''s next round, or with system => ''burstein'' the '
    'Burstein pairing (C.04.4.2 as bbpPairings v6.0.0 reads it; rounds 1 and 2 accelerated unless baku_acceleration), '
    'without writing it: one row per board '
    '(board from 1, white and black user ids), then the pairing-allocated bye, if any, as a row with black NULL. '
    'Players are numbered in FIDE''s initial order: rating as of the start (before the first game: the current rating '
    'in the tournament''s ranking; unrated last), then display name, then user id. first_colour_white: the top '
    'seed''s colour in round 1 (C.04.3 5.2.5, drawn by lot: true White, false Black; NULL: the colour the stored '
    'rounds show, as a TRF without XXC, else White). '
    'The round paired is the one after the last round with a game or a one-point bye; players with a bye of that '
    'round are not paired. baku_acceleration: accelerated rounds by FIDE C.04.5.1 (the first 2 * ceil(n / 4) players '
    'get virtual points: 1 in the first half of the accelerated rounds, the first half of the tournament, 0.5 in the '
    'rest), the same on every call of the tournament; virtual_points instead: accelerated rounds (C.04.5) as a TRF''s '
    'XXA lines give them, a JSON object of user ids and their virtual points per round from round 1 '
    '({"2": [1, 1, 0.5]}). forbidden_pairs: user ids two by two (ARRAY[[''a'', ''b''], '
    '[''c'', ''d'']]), players who must not meet (team-mates, relatives). Errors: unknown tournament 22023, round '
    'already paired 55000, a later round 22023, every round paired 22023, a forbidden pair that is not two different '
    'players of the tournament 22023 (a NULL: 22004), a system other than dutch or burstein 22023 (NULL: 22004), '
    'virtual_points not an object of arrays of whole or half points from 0 to 1000, naming no player, '
    'longer than the rounds, or with baku_acceleration 22023, no pairing that meets the absolute criteria 23514.';
COMMENT ON FUNCTION tournament_tie_break_order(text) IS
    'Canonical spelling of a tie-break order (''bh-c1, sb'' -> ''BH-C1, SB''); error 22023 on an unknown or repeated code.';
