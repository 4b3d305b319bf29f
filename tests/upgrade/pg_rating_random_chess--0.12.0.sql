-- The Random Chess schema: a client of the pg_rating engine, installed by
-- CREATE EXTENSION pg_rating_random_chess (CASCADE creates pg_rating first).
-- It goes into the schema of pg_rating (public unless pg_rating was created elsewhere): its
-- tables use the engine's types, its functions and views call the engine's functions, and its
-- pinned search_paths name that one schema.
DO $$
DECLARE
    engine text := (SELECT n.nspname FROM pg_catalog.pg_extension e
                    JOIN pg_catalog.pg_namespace n ON n.oid = e.extnamespace
                    WHERE e.extname = 'pg_rating');
BEGIN
    IF engine IS DISTINCT FROM '@extschema@' THEN
        RAISE EXCEPTION 'pg_rating_random_chess must be created in schema %, where pg_rating is', engine
            USING ERRCODE = 'invalid_schema_name',
                  HINT = format('CREATE EXTENSION pg_rating_random_chess SCHEMA %I', engine);
    END IF;
END
$$;
-- Accounts of the Random Chess schema: local users, the services games come from, and one
-- account per (service, player). Every user owns exactly one account of service 1 (Random
-- Chess itself), created with the user and kept after the user is deleted, so that games
-- played with it stay attributable. The rules that need more than one row are Rust triggers
-- (src/accounts.rs).

CREATE TABLE users (
    id            serial PRIMARY KEY,
    email         varchar NOT NULL UNIQUE
        CONSTRAINT valid_email CHECK (email ~ '^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$'),
    password_hash varchar NOT NULL
);

CREATE TABLE game_services (
    id   serial PRIMARY KEY,
    name varchar(256) NOT NULL UNIQUE
);
-- Service 1: local games.
INSERT INTO game_services (id, name) VALUES (1, 'Random Chess');
SELECT pg_catalog.setval('game_services_id_seq', 1);

CREATE TABLE service_accounts (
    user_id            int REFERENCES users ON DELETE SET NULL,
    service_id         int NOT NULL REFERENCES game_services,
    user_id_in_service varchar NOT NULL,
    token              varchar,
    display_name       varchar(256) NOT NULL,
    is_bot             bool NOT NULL,
    PRIMARY KEY (service_id, user_id_in_service),
    -- Service 1: a bot has no user; a person's account is named by its user id while the user exists.
    CONSTRAINT valid_system_account CHECK (
        service_id <> 1
        OR (is_bot AND user_id IS NULL)
        OR (NOT is_bot AND (user_id IS NULL OR user_id_in_service = user_id::text))
    ),
    -- Only linked accounts of other services keep a synchronisation token.
    CONSTRAINT token_only_for_linked_accounts CHECK ((token IS NULL) = (service_id = 1 OR user_id IS NULL))
);
CREATE INDEX service_accounts_user_id ON service_accounts (user_id);

-- Trigger functions (src/accounts.rs): each fires only on its own table; no role may execute
-- them, which keeps them from being attached elsewhere.
CREATE FUNCTION add_default_service_to_user() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'add_default_service_to_user_wrapper';
CREATE FUNCTION prevent_default_service_modification() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'prevent_default_service_modification_wrapper';
CREATE FUNCTION prevent_default_service_deletion() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'prevent_default_service_deletion_wrapper';
REVOKE ALL ON FUNCTION add_default_service_to_user(), prevent_default_service_modification(),
    prevent_default_service_deletion() FROM PUBLIC;

CREATE TRIGGER add_default_service_to_user
    AFTER INSERT ON users
    FOR EACH ROW EXECUTE FUNCTION add_default_service_to_user();
CREATE TRIGGER prevent_default_service_modification
    BEFORE UPDATE ON service_accounts
    FOR EACH ROW EXECUTE FUNCTION prevent_default_service_modification();
CREATE TRIGGER prevent_default_service_deletion
    BEFORE DELETE ON service_accounts
    FOR EACH ROW EXECUTE FUNCTION prevent_default_service_deletion();

SELECT pg_catalog.pg_extension_config_dump('users', '');
SELECT pg_catalog.pg_extension_config_dump('users_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('game_services', 'WHERE id <> 1');
SELECT pg_catalog.pg_extension_config_dump('game_services_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('service_accounts', '');

COMMENT ON TABLE users IS 'Local users of Random Chess. Inserting one creates its service-1 account.';
COMMENT ON TABLE game_services IS 'Where games come from; id 1 is Random Chess itself (local games).';
COMMENT ON TABLE service_accounts IS
    'One account per (service, player). Service-1 accounts of users are named by the user id, '
    'cannot be renamed or deleted while the user exists, and are kept (user_id set to NULL) after it is deleted.';
COMMENT ON FUNCTION add_default_service_to_user() IS
    'Trigger: creates the service-1 account (user_id, 1, user_id::text, email, false) of a new user.';
COMMENT ON FUNCTION prevent_default_service_modification() IS
    'Trigger: refuses to change the identity of a service-1 account while its user exists, and clears '
    'the token of an account whose user is unlinked (so ON DELETE SET NULL keeps the token rule).';
COMMENT ON FUNCTION prevent_default_service_deletion() IS
    'Trigger: refuses to delete the service-1 account of an existing user.';

-- The trigger functions run SQL: their search_path is pinned to this extension's schema.
ALTER FUNCTION add_default_service_to_user() SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION prevent_default_service_modification() SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION prevent_default_service_deletion() SET search_path = pg_catalog, @extschema@, pg_temp;
-- Games of the Random Chess schema. service_games holds games of every service (service 1 =
-- played here) and pgn_games those a user imported; both keep the positions of every move in
-- a generated column, computed by generate_fen_array (an illegal move makes the INSERT fail).

CREATE TABLE service_games (
    id                 serial PRIMARY KEY,
    moves              varchar(5)[] NOT NULL
        CONSTRAINT service_games_moves_have_no_nulls CHECK (pg_catalog.array_position(moves, NULL) IS NULL),
    starting_position  varchar(100) NOT NULL
        DEFAULT 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    partial_fens       varchar[] GENERATED ALWAYS AS (@extschema@.generate_fen_array(starting_position, moves)) STORED,
    creation_date      timestamptz NOT NULL,
    result             game_result NOT NULL,
    metadata           jsonb,
    clock              clock_settings,
    game_id_in_service varchar,
    service_id         int NOT NULL REFERENCES game_services,
    white_player       varchar NOT NULL,
    black_player       varchar NOT NULL,
    is_ranked          bool NOT NULL,
    CONSTRAINT service_games_game_id_in_service_service_id_key UNIQUE (game_id_in_service, service_id),
    CONSTRAINT service_games_white_player_fkey FOREIGN KEY (service_id, white_player) REFERENCES service_accounts,
    CONSTRAINT service_games_black_player_fkey FOREIGN KEY (service_id, black_player) REFERENCES service_accounts,
    -- Local games are identified by id alone; other services' games by their own id, and never ranked.
    CONSTRAINT valid_game_id_in_service CHECK ((service_id = 1) = (game_id_in_service IS NULL)),
    CONSTRAINT only_local_games_are_ranked CHECK (service_id = 1 OR NOT is_ranked),
    CONSTRAINT ranked_games_have_two_players CHECK (NOT is_ranked OR white_player <> black_player)
);
-- The rankings replay games in (creation_date, id) order.
CREATE INDEX service_games_by_date ON service_games (creation_date, id);
CREATE INDEX service_games_by_white ON service_games (service_id, white_player);
CREATE INDEX service_games_by_black ON service_games (service_id, black_player);

CREATE TABLE pgn_games (
    id                serial PRIMARY KEY,
    moves             varchar(5)[] NOT NULL
        CONSTRAINT pgn_games_moves_have_no_nulls CHECK (pg_catalog.array_position(moves, NULL) IS NULL),
    starting_position varchar(100) NOT NULL
        DEFAULT 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
    partial_fens      varchar[] GENERATED ALWAYS AS (@extschema@.generate_fen_array(starting_position, moves)) STORED,
    creation_date     timestamptz NOT NULL,
    result            game_result NOT NULL,
    metadata          jsonb,
    clock             clock_settings,
    owner_id          int NOT NULL REFERENCES users ON DELETE CASCADE,
    black_player_name varchar NOT NULL,
    white_player_name varchar NOT NULL
);
CREATE INDEX pgn_games_by_owner ON pgn_games (owner_id);

-- Trigger functions (src/games.rs), for service_games only.
CREATE FUNCTION prevent_service_game_modification() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'prevent_service_game_modification_wrapper';
CREATE FUNCTION prevent_service_game_deletion() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'prevent_service_game_deletion_wrapper';
REVOKE ALL ON FUNCTION prevent_service_game_modification(), prevent_service_game_deletion() FROM PUBLIC;

CREATE TRIGGER prevent_service_game_modification
    BEFORE UPDATE ON service_games
    FOR EACH ROW EXECUTE FUNCTION prevent_service_game_modification();
CREATE TRIGGER prevent_service_game_deletion
    BEFORE DELETE ON service_games
    FOR EACH ROW EXECUTE FUNCTION prevent_service_game_deletion();

-- Every game, of both kinds; (id, kind) identifies a game.
CREATE VIEW games AS
SELECT g.id, 'service'::text AS kind, g.starting_position, g.moves, g.partial_fens, g.creation_date,
       g.result, g.metadata, g.clock, g.game_id_in_service, g.service_id,
       g.white_player AS white_service_account, g.black_player AS black_service_account, g.is_ranked,
       NULL::int AS pgn_owner_id, NULL::varchar AS pgn_black_player_name, NULL::varchar AS pgn_white_player_name
FROM @extschema@.service_games g
UNION ALL
SELECT p.id, 'pgn'::text, p.starting_position, p.moves, p.partial_fens, p.creation_date,
       p.result, p.metadata, p.clock, NULL::varchar, NULL::int,
       NULL::varchar, NULL::varchar, NULL::bool,
       p.owner_id, p.black_player_name, p.white_player_name
FROM @extschema@.pgn_games p;

-- The games a user owns (imported) or plays in (with any of their accounts).
CREATE VIEW users_games AS
SELECT p.owner_id AS user_id, p.id AS game_id, 'pgn'::varchar AS kind, p.moves, p.creation_date, p.result, p.metadata
FROM @extschema@.pgn_games p
UNION ALL
SELECT a.user_id, g.id, 'service'::varchar, g.moves, g.creation_date, g.result, g.metadata
FROM @extschema@.service_games g
JOIN @extschema@.service_accounts a
  ON a.service_id = g.service_id AND a.user_id_in_service = g.white_player
WHERE a.user_id IS NOT NULL
UNION ALL
SELECT a.user_id, g.id, 'service'::varchar, g.moves, g.creation_date, g.result, g.metadata
FROM @extschema@.service_games g
JOIN @extschema@.service_accounts a
  ON a.service_id = g.service_id AND a.user_id_in_service = g.black_player
WHERE a.user_id IS NOT NULL AND g.black_player <> g.white_player;

SELECT pg_catalog.pg_extension_config_dump('service_games', '');
SELECT pg_catalog.pg_extension_config_dump('service_games_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('pgn_games', '');
SELECT pg_catalog.pg_extension_config_dump('pgn_games_id_seq', '');

ALTER FUNCTION prevent_service_game_modification() SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION prevent_service_game_deletion() SET search_path = pg_catalog, @extschema@, pg_temp;

COMMENT ON TABLE service_games IS
    'Games of every service (service 1: played here). Cannot be deleted; result type, clock, players, '
    'service and is_ranked cannot change. Ranked local games are rated by the rankings trigger.';
COMMENT ON COLUMN service_games.partial_fens IS
    'Generated: generate_fen_array(starting_position, moves), the start and the position after each move.';
COMMENT ON TABLE pgn_games IS 'Games a user imported from PGN; deleted with their owner.';
COMMENT ON VIEW games IS 'service_games UNION ALL pgn_games; (id, kind) identifies a game.';
COMMENT ON VIEW users_games IS 'Games each user owns (pgn) or plays in with one of their accounts (service).';
COMMENT ON FUNCTION prevent_service_game_modification() IS
    'Trigger: refuses changes of a service game''s result type, clock, players, service or is_ranked.';
COMMENT ON FUNCTION prevent_service_game_deletion() IS 'Trigger: service games are never deleted.';
-- Openings: named positions (partial FENs) of the lichess chess-openings data (CC0).
-- Load with load_lichess_openings(tsv text); detect_opening finds a game's latest named position
-- through a per-backend hash map that the trigger below invalidates on every change.

CREATE TABLE openings (
    id          serial PRIMARY KEY,
    eco         char(3) NOT NULL,
    name        varchar(256) NOT NULL,
    partial_fen varchar UNIQUE NOT NULL
);
SELECT pg_catalog.pg_extension_config_dump('openings', '');
SELECT pg_catalog.pg_extension_config_dump('openings_id_seq', '');

CREATE FUNCTION openings_cache_invalidate(openings oid) RETURNS void
    STRICT VOLATILE PARALLEL UNSAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'openings_cache_invalidate_wrapper';
CREATE FUNCTION openings_cache_loads() RETURNS bigint
    STRICT VOLATILE PARALLEL RESTRICTED
    LANGUAGE c AS 'MODULE_PATHNAME', 'openings_cache_loads_wrapper';
CREATE FUNCTION load_lichess_openings(tsv text) RETURNS bigint
    STRICT VOLATILE PARALLEL UNSAFE
    SET search_path = pg_catalog, @extschema@, pg_temp
    LANGUAGE c AS 'MODULE_PATHNAME', 'load_lichess_openings_wrapper';

CREATE FUNCTION openings_changed() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    PERFORM @extschema@.openings_cache_invalidate(TG_RELID);
    RETURN NULL;
END
$$;

REVOKE ALL ON FUNCTION openings_changed() FROM PUBLIC;

CREATE TRIGGER openings_invalidate_cache
    AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON openings
    FOR EACH STATEMENT EXECUTE FUNCTION openings_changed();

CREATE FUNCTION detect_opening(partial_fens varchar[], OUT opening_id int, OUT move_no int)
    RETURNS record
    STABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'pg_rating_detect_opening';

COMMENT ON TABLE openings IS
    'Named opening positions: ECO code, name, partial FEN (first four FEN fields, legal en passant only). '
    'Fill from the lichess chess-openings TSV files with load_lichess_openings.';
COMMENT ON FUNCTION detect_opening(varchar[]) IS
    'The latest position of a game (an array of partial FENs as generate_fen_array returns) found in openings: '
    '(opening_id, move_no) with move_no its index (0 = start); NULLs when none matches. Uses a per-backend hash '
    'map of openings that is rebuilt after any change to the table.';
COMMENT ON FUNCTION load_lichess_openings(text) IS
    'Loads the text of one or more lichess openings TSV files (eco, name, pgn; headers skipped) into openings, '
    'computing each partial FEN from the pgn; updates eco and name of positions already present. Returns the number '
    'of lines loaded. Errors: a bad line 22P02 naming the line; two lines reaching one position 23505.';
COMMENT ON FUNCTION opening_partial_fen(text) IS
    'The partial FEN after a movetext such as ''1. e4 e5 2. Nf3'' (the pgn column of the lichess files). '
    'Errors: illegal move 22023.';
COMMENT ON FUNCTION openings_cache_invalidate(oid) IS
    'Makes every backend drop its map of openings (called by the openings trigger).';
COMMENT ON FUNCTION openings_cache_loads() IS
    'How many times this backend has loaded the openings map (diagnostics).';
COMMENT ON FUNCTION openings_changed() IS 'Trigger of openings: invalidates the detect_opening map.';
-- games_openings (Random Chess compat): the opening of every game, i.e. the latest of its
-- positions found in openings, and that position's index (0 = start). Games without one are
-- listed with NULLs. detect_opening runs once per game (LATERAL), backed by its in-memory map.
-- Requires the games view (service_games UNION ALL pgn_games): load this file after it.
CREATE VIEW games_openings AS
SELECT g.id AS game_id, g.kind, d.opening_id, d.move_no
FROM @extschema@.games AS g
CROSS JOIN LATERAL @extschema@.detect_opening(g.partial_fens) AS d;

COMMENT ON VIEW games_openings IS
    'The opening of every game: the latest position of the game found in openings (opening_id) and its '
    'index in partial_fens (move_no, 0 = start); NULLs when no position matches.';
-- Rankings of the Random Chess schema. A ranking is a time-control window with a rating
-- system; every ranked local game whose clock falls in the window is rated in it, in
-- (creation_date, id) order, by the Rust trigger rate_service_games (src/ranking/), which hands
-- it to the engine's ledgers' writer. Each ranking is a ledger of the engine: a ledgers row named
-- "random_chess ranking <id>", made and kept at the ranking's settings by pg_rating, whose
-- history is kept here (kept_in = elo_history) and whose lock is its ledger_scopes row.
-- elo_history is the history apps read; ranking_players keeps each player's current standing
-- so that rating a game never scans the history.

CREATE TABLE rankings (
    id                    serial PRIMARY KEY,
    name                  varchar NOT NULL,
    playtime_min          interval NOT NULL CONSTRAINT playtime_min_not_negative CHECK (playtime_min >= interval '0'),
    playtime_max          interval CONSTRAINT playtime_max_positive CHECK (playtime_max > interval '0'),
    extra_move_multiplier int NOT NULL CONSTRAINT extra_move_multiplier_not_negative CHECK (extra_move_multiplier >= 0),
    starting_elo          numeric NOT NULL
        CONSTRAINT starting_elo_positive CHECK (starting_elo > 0 AND starting_elo < 100000),
    include_bots          bool NOT NULL,
    k_factor              numeric NOT NULL
        CONSTRAINT k_factor_finite CHECK (k_factor >= 0 AND k_factor < 100000),
    -- Added by pg_rating: the rating system of the ranking and its parameters.
    rating_system         varchar NOT NULL DEFAULT 'elo'
        CONSTRAINT known_rating_system CHECK (@extschema@.rating_system_known(rating_system)),
    -- Glickman: 0.3 to 1.2 is reasonable; far beyond 10 the volatility of a period falls
    -- below what is stored and the next game could not be rated.
    glicko2_tau           float8 NOT NULL DEFAULT 0.5
        CONSTRAINT glicko2_tau_positive CHECK (glicko2_tau > 0 AND glicko2_tau < 'Infinity')
        CONSTRAINT glicko2_tau_at_most_10 CHECK (glicko2_tau <= 10),
    starting_rd           float8 NOT NULL DEFAULT 350
        CONSTRAINT starting_rd_positive CHECK (starting_rd > 0 AND starting_rd < 'Infinity'),
    starting_volatility   float8 NOT NULL DEFAULT 0.06
        CONSTRAINT starting_volatility_positive CHECK (starting_volatility > 0 AND starting_volatility < 'Infinity')
        -- the smallest volatility kept by the 10 decimals of elo_history.volatility
        CONSTRAINT starting_volatility_stored CHECK (starting_volatility >= 1e-10),
    rating_period         interval
        CONSTRAINT rating_period_positive CHECK (rating_period > interval '0'),
    provisional_rd        float8 NOT NULL DEFAULT 110
        CONSTRAINT provisional_rd_not_negative CHECK (provisional_rd >= 0 AND provisional_rd < 'Infinity'),
    provisional_games     int NOT NULL DEFAULT 0
        CONSTRAINT provisional_games_not_negative CHECK (provisional_games >= 0),
    CONSTRAINT playtime_window CHECK (playtime_max IS NULL OR playtime_min <= playtime_max),
    -- Skèmino's K makes K² − K <= 0 from a mean rating of 721.35 · ln 160 = 3660.98 on: no game
    -- between two players starting there could be rated (pg_rating_core::rating::skemino).
    CONSTRAINT skemino_starting_elo_in_range CHECK (rating_system <> 'skemino' OR starting_elo < 3660.97),
    -- FIDE's table of expected scores reads ratings from 0 to 4000 (pg_rating_core::rating::fide).
    CONSTRAINT fide_starting_elo_in_range CHECK (rating_system <> 'fide' OR starting_elo <= 4000)
);

CREATE TABLE elo_history (
    id                 serial PRIMARY KEY,
    service_id         int NOT NULL DEFAULT 1 CONSTRAINT local_accounts_only CHECK (service_id = 1),
    user_id_in_service varchar NOT NULL,
    -- deleting a ranking deletes its history (and, by forget_deleted_rankings, its standings)
    ranking_id         int NOT NULL REFERENCES rankings ON DELETE CASCADE,
    game_id            int NOT NULL REFERENCES service_games,
    elo                numeric NOT NULL,
    previous_entry     int,
    -- Added by pg_rating: Glicko-2 state (NULL for Elo rankings) and the game's date, the
    -- order of the history.
    rd                 numeric,
    volatility         numeric,
    game_date          timestamptz NOT NULL,
    -- No foreign key to service_accounts: an entry's player is one of its game's players (the
    -- game references both accounts), and a foreign key checked for every entry written would
    -- cost some 6 % of a game's rating. Only pg_rating writes entries (refuse_foreign_write).
    -- Led by game_id, this index also serves the lookups of a game's entries.
    CONSTRAINT one_entry_per_game UNIQUE (game_id, ranking_id, user_id_in_service, service_id),
    -- Deferrable so that a repair can move entries along a chain in one statement. Led by
    -- previous_entry, it also finds an entry's successor.
    CONSTRAINT one_successor_per_entry UNIQUE NULLS NOT DISTINCT (previous_entry, ranking_id, user_id_in_service, service_id)
        DEFERRABLE INITIALLY IMMEDIATE
    -- previous_entry is the id of the same account's earlier entry in the same ranking: pg_rating
    -- writes it so, and no one else writes this table (refuse_foreign_write). No foreign key says
    -- so: a composite one needs a unique index of its own, and even the plain one to
    -- elo_history (id) of 0.2.0 to 0.10.0 was checked for every entry written (six of the 18
    -- foreign-key checks of a game's entries, 5 to 9 % of its time) to guard a rule no writer
    -- can break.
);
CREATE INDEX elo_history_by_player_date ON elo_history (ranking_id, user_id_in_service, game_date, game_id);
CREATE INDEX elo_history_by_ranking_date ON elo_history (ranking_id, game_date, game_id);

CREATE TABLE ranking_players (
    -- No foreign key (it would be checked for every standing written): the rows of a deleted
    -- ranking are removed by the forget_deleted_rankings trigger.
    ranking_id         int NOT NULL,
    service_id         int NOT NULL DEFAULT 1,
    user_id_in_service varchar NOT NULL,
    elo_history_id     int NOT NULL,
    rating             numeric NOT NULL,
    rd                 numeric,
    volatility         numeric,
    games              int NOT NULL,
    wins               int NOT NULL,
    draws              int NOT NULL,
    losses             int NOT NULL,
    peak_rating        numeric NOT NULL,
    last_game_date     timestamptz NOT NULL,
    last_game_id       int NOT NULL,
    PRIMARY KEY (ranking_id, service_id, user_id_in_service)
)
-- Every game rewrites its players' rows: free space on each page keeps those updates HOT (no
-- new index entry), which makes them a third cheaper.
WITH (fillfactor = 50);

-- A ranking's writers take its ledger's ledger_scopes row first (made by the first), in ledger
-- order, so that writers of different rankings never wait for each other and never deadlock.
-- Under REPEATABLE READ a writer whose snapshot missed another writer's commit fails with a
-- serialization error instead of computing from stale ratings.
-- One row: the version of the rankings, set from ranking_versions by every change of rankings
-- (which first takes every ranking's lock), so that a backend may keep the rankings in memory.
CREATE TABLE ranking_writes (
    only_row bool PRIMARY KEY DEFAULT true CONSTRAINT ranking_writes_one_row CHECK (only_row),
    rankings_version bigint NOT NULL DEFAULT 0
);
INSERT INTO ranking_writes DEFAULT VALUES;
-- A sequence, not a counter: a rolled-back change never hands its number to a later one.
CREATE SEQUENCE ranking_versions;

-- Which rankings each game counts in: a ranked local game with a clock whose nominal length
-- (clock_base_time) lies in [playtime_min, playtime_max), and no bot unless the ranking takes bots.
CREATE VIEW games_rankings AS
SELECT g.id AS game_id, r.id AS ranking_id
FROM @extschema@.service_games g
JOIN @extschema@.service_accounts w ON w.service_id = g.service_id AND w.user_id_in_service = g.white_player
JOIN @extschema@.service_accounts b ON b.service_id = g.service_id AND b.user_id_in_service = g.black_player
CROSS JOIN @extschema@.rankings r
WHERE g.service_id = 1
  AND g.is_ranked
  AND (r.include_bots OR NOT (w.is_bot OR b.is_bot))
  AND @extschema@.clock_base_time(g.clock, r.extra_move_multiplier) >= r.playtime_min
  AND (r.playtime_max IS NULL OR @extschema@.clock_base_time(g.clock, r.extra_move_multiplier) < r.playtime_max);

CREATE FUNCTION ranking_at_timestamp(t timestamptz)
RETURNS TABLE (service_id int, user_id_in_service varchar, ranking_id int, elo numeric, elo_history_id int)
LANGUAGE sql STABLE STRICT PARALLEL SAFE
AS $$
SELECT a.service_id, a.user_id_in_service, r.id, coalesce(h.elo, r.starting_elo), h.id
FROM @extschema@.service_accounts a
CROSS JOIN @extschema@.rankings r
LEFT JOIN LATERAL (
    SELECT e.id, e.elo
    FROM @extschema@.elo_history e
    WHERE e.ranking_id = r.id AND e.user_id_in_service = a.user_id_in_service
      AND e.service_id = a.service_id AND e.game_date <= t
    ORDER BY e.game_date DESC, e.game_id DESC
    LIMIT 1
) h ON true
WHERE a.service_id = 1 AND (r.include_bots OR NOT a.is_bot)
$$;

CREATE FUNCTION ranking_with_placement_at_timestamp(t timestamptz, ranking int)
RETURNS TABLE (placement int, service_id int, user_id_in_service varchar, ranking_id int, elo int, elo_history_id int)
LANGUAGE sql STABLE STRICT PARALLEL SAFE
AS $$
SELECT (rank() OVER (ORDER BY s.elo::int DESC))::int, s.service_id, s.user_id_in_service, s.ranking_id,
       s.elo::int, s.elo_history_id
FROM @extschema@.ranking_at_timestamp(t) s
WHERE s.ranking_id = ranking
ORDER BY 1, s.user_id_in_service
$$;

CREATE VIEW current_ranking AS
SELECT * FROM @extschema@.ranking_at_timestamp(CURRENT_TIMESTAMP);

-- Every rating change, with the state before it and the opponent of the game.
CREATE VIEW rating_changes AS
SELECT e.id AS elo_history_id, e.ranking_id, e.game_id, e.game_date, e.service_id, e.user_id_in_service,
       coalesce(p.elo, r.starting_elo) AS rating_before, e.elo AS rating_after,
       e.elo - coalesce(p.elo, r.starting_elo) AS change,
       p.rd AS rd_before, e.rd AS rd_after,
       o.user_id_in_service AS opponent,
       coalesce(op.elo, r.starting_elo) AS opponent_rating_before,
       @extschema@.game_score(g.result, g.white_player = e.user_id_in_service) AS score
FROM @extschema@.elo_history e
JOIN @extschema@.rankings r ON r.id = e.ranking_id
JOIN @extschema@.service_games g ON g.id = e.game_id
LEFT JOIN @extschema@.elo_history p ON p.id = e.previous_entry
JOIN @extschema@.elo_history o
  ON o.game_id = e.game_id AND o.ranking_id = e.ranking_id AND o.user_id_in_service <> e.user_id_in_service
LEFT JOIN @extschema@.elo_history op ON op.id = o.previous_entry;

-- Every ranking's players ordered by rating, with their record.
CREATE VIEW leaderboard AS
SELECT rank() OVER (PARTITION BY p.ranking_id ORDER BY p.rating DESC)::int AS rank,
       p.ranking_id, p.service_id, p.user_id_in_service, a.display_name,
       p.rating, p.rd, p.volatility, p.games, p.wins, p.draws, p.losses, p.peak_rating,
       (p.games < r.provisional_games OR coalesce(p.rd > r.provisional_rd, false)) AS provisional,
       p.last_game_date
FROM @extschema@.ranking_players p
JOIN @extschema@.rankings r ON r.id = p.ranking_id
JOIN @extschema@.service_accounts a ON a.service_id = p.service_id AND a.user_id_in_service = p.user_id_in_service;

CREATE FUNCTION ranking_leaderboard(ranking int, min_games int DEFAULT 0, max_rd float8 DEFAULT NULL,
                                    include_provisional boolean DEFAULT true)
RETURNS TABLE (rank int, service_id int, user_id_in_service varchar, display_name varchar, rating numeric,
               rd numeric, volatility numeric, games int, wins int, draws int, losses int,
               peak_rating numeric, provisional boolean, last_game_date timestamptz)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT (rank() OVER (ORDER BY p.rating DESC))::int, p.service_id, p.user_id_in_service, a.display_name,
       p.rating, p.rd, p.volatility, p.games, p.wins, p.draws, p.losses, p.peak_rating,
       (p.games < r.provisional_games OR coalesce(p.rd > r.provisional_rd, false)), p.last_game_date
FROM @extschema@.ranking_players p
JOIN @extschema@.rankings r ON r.id = p.ranking_id
JOIN @extschema@.service_accounts a ON a.service_id = p.service_id AND a.user_id_in_service = p.user_id_in_service
WHERE p.ranking_id = ranking
  AND p.games >= coalesce(min_games, 0)
  AND (max_rd IS NULL OR p.rd IS NULL OR p.rd <= max_rd)
  AND (coalesce(include_provisional, true)
       OR NOT (p.games < r.provisional_games OR coalesce(p.rd > r.provisional_rd, false)))
ORDER BY p.rating DESC, p.user_id_in_service
$$;

CREATE FUNCTION player_rank(ranking int, player varchar, min_games int DEFAULT 0, max_rd float8 DEFAULT NULL)
RETURNS int
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT (1 + count(*) FILTER (WHERE o.rating > me.rating))::int
FROM @extschema@.ranking_players me
JOIN @extschema@.ranking_players o
  ON o.ranking_id = me.ranking_id
 AND o.games >= coalesce(min_games, 0)
 AND (max_rd IS NULL OR o.rd IS NULL OR o.rd <= max_rd)
WHERE me.ranking_id = ranking AND me.service_id = 1 AND me.user_id_in_service = player
GROUP BY me.rating
$$;

CREATE FUNCTION rebuild_ranking(ranking_id int) RETURNS bigint
    STRICT VOLATILE PARALLEL UNSAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'rebuild_ranking_wrapper';

CREATE PROCEDURE recalculate_ranking(ranking_id int)
LANGUAGE sql
AS $$ SELECT @extschema@.rebuild_ranking(ranking_id) $$;

-- Trigger functions (src/ranking/): each fires only on its own table of pg_rating, and no role
-- may execute them (so none can attach them to a table of its own).
CREATE FUNCTION rate_service_games() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'rate_service_games_wrapper';
CREATE FUNCTION rerate_redated_service_game() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'rerate_redated_service_game_wrapper';
CREATE FUNCTION recalculate_changed_ranking() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'recalculate_changed_ranking_wrapper';
CREATE FUNCTION note_rankings_change() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'note_rankings_change_wrapper';
CREATE FUNCTION forget_deleted_rankings() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'forget_deleted_rankings_wrapper';
REVOKE ALL ON FUNCTION rate_service_games(), rerate_redated_service_game(), recalculate_changed_ranking(),
    note_rankings_change(), forget_deleted_rankings() FROM PUBLIC;

CREATE TRIGGER rate_service_games
    AFTER INSERT ON service_games
    REFERENCING NEW TABLE AS inserted_games
    FOR EACH STATEMENT EXECUTE FUNCTION rate_service_games();
CREATE TRIGGER rerate_redated_service_games
    AFTER UPDATE OF creation_date ON service_games
    FOR EACH ROW WHEN (OLD.creation_date IS DISTINCT FROM NEW.creation_date)
    EXECUTE FUNCTION rerate_redated_service_game();
CREATE TRIGGER recalculate_changed_ranking
    AFTER INSERT OR UPDATE ON rankings
    FOR EACH ROW EXECUTE FUNCTION recalculate_changed_ranking();
CREATE TRIGGER note_rankings_change
    BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON rankings
    FOR EACH STATEMENT EXECUTE FUNCTION note_rankings_change();
CREATE TRIGGER forget_deleted_rankings
    AFTER DELETE OR TRUNCATE ON rankings
    FOR EACH STATEMENT EXECUTE FUNCTION forget_deleted_rankings();

-- The history, the standings and the version are derived: only pg_rating writes them
-- (sql/derived_tables.sql has the guard).
CREATE TRIGGER refuse_foreign_write
    BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON elo_history
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();
CREATE TRIGGER refuse_foreign_write
    BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ranking_players
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();
CREATE TRIGGER refuse_foreign_write
    BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ranking_writes
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();

-- The functions that write the history run as the extension's owner, so applications need no
-- write privilege on elo_history or ranking_players; their search_path is pinned.
ALTER FUNCTION rate_service_games() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp
    SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION rerate_redated_service_game() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION recalculate_changed_ranking() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION rebuild_ranking(int) SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION note_rankings_change() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION forget_deleted_rankings() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
REVOKE ALL ON FUNCTION rebuild_ranking(int) FROM PUBLIC;
REVOKE ALL ON PROCEDURE recalculate_ranking(int) FROM PUBLIC;

SELECT pg_catalog.pg_extension_config_dump('rankings', '');
SELECT pg_catalog.pg_extension_config_dump('rankings_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('elo_history', '');
SELECT pg_catalog.pg_extension_config_dump('elo_history_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('ranking_players', '');

COMMENT ON TABLE rankings IS
    'A time-control window [playtime_min, playtime_max) of clock_base_time(clock, extra_move_multiplier), '
    'with its rating system (elo: starting_elo and k_factor; glicko2: starting_elo, starting_rd, '
    'starting_volatility, glicko2_tau, rating_period; skemino: starting_elo). Inserting or updating one '
    'recalculates its history. Each ranking is the engine''s ledger "random_chess ranking <id>" (ledgers, '
    'kept_in = elo_history), kept at its settings by pg_rating.';
COMMENT ON TABLE elo_history IS
    'Each player''s rating after each game of each ranking, chained by previous_entry, in (game_date, game_id) '
    'order. Written only by pg_rating''s triggers.';
COMMENT ON TABLE ranking_players IS
    'Each player''s current standing in each ranking (latest entry, rating, record, peak), kept by the triggers.';
COMMENT ON TABLE ranking_writes IS
    'One row: rankings_version changes with every change of rankings, which first takes every ranking''s lock.';
COMMENT ON VIEW games_rankings IS 'The (game, ranking) pairs: every ranking each service game counts in.';
COMMENT ON FUNCTION ranking_at_timestamp(timestamptz) IS
    'Every Random Chess account''s rating in every ranking it may take part in, after its latest game dated '
    '<= t (starting_elo and a NULL history id before any).';
COMMENT ON FUNCTION ranking_with_placement_at_timestamp(timestamptz, int) IS
    'One ranking at time t with placements: rank() by elo::int descending.';
COMMENT ON VIEW current_ranking IS 'ranking_at_timestamp(CURRENT_TIMESTAMP).';
COMMENT ON VIEW rating_changes IS
    'Per history entry: rating before and after, the change, RD before and after, the opponent and the '
    'opponent''s rating before the game, and the score.';
COMMENT ON VIEW leaderboard IS
    'Every ranking''s players ranked by current rating, with RD, record, peak rating and the provisional flag.';
COMMENT ON FUNCTION ranking_leaderboard(int, int, float8, boolean) IS
    'One ranking''s leaderboard, filtered by minimum games, maximum RD and provisional players, ranked after filtering.';
COMMENT ON FUNCTION player_rank(int, varchar, int, float8) IS
    'A player''s rank in a ranking (1 + players rated higher, among those passing the filters); NULL if unrated.';
COMMENT ON PROCEDURE recalculate_ranking(int) IS 'Rebuilds one ranking''s history from scratch in (creation_date, id) order.';
COMMENT ON FUNCTION rebuild_ranking(int) IS
    'Rebuilds one ranking''s history from scratch; returns the number of history entries written.';
COMMENT ON FUNCTION rate_service_games() IS
    'Trigger: rates inserted ranked games in every ranking they count in, repairing the later history '
    'when a game is older than games already rated for its players.';
COMMENT ON FUNCTION rerate_redated_service_game() IS
    'Trigger: moves a re-dated game to its new place in the history of its rankings.';
COMMENT ON FUNCTION recalculate_changed_ranking() IS
    'Trigger: makes an inserted ranking''s ledger or brings it to the ranking''s settings, and recalculates the ranking.';
COMMENT ON FUNCTION note_rankings_change() IS
    'Trigger: before a change of rankings, takes every ranking''s lock and records that rankings change '
    '(ranking_writes.rankings_version), so cached rankings are re-read.';
COMMENT ON FUNCTION forget_deleted_rankings() IS
    'Trigger: removes the standings and the ledgers (with their lock rows) of deleted rankings.';
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
                                      forbidden_pairs varchar[] DEFAULT '{}')
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
            CHECK (cardinality(@extschema@.generate_fen_array(starting_position, '{}')) = 1),
    is_ranked         bool NOT NULL DEFAULT true,
    -- NULL: no ratings as of the start (no performance ratings, no requirements by rating)
    ranking_id        int REFERENCES rankings,
    time_control      clock_settings NOT NULL,
    -- Added by pg_rating: the tie-breaks after points, FIDE acronyms in order (C.07 article 5).
    -- The default reproduces Random Chess: points, then performance rating.
    tie_breaks        varchar NOT NULL DEFAULT 'TPR'
        CONSTRAINT tie_breaks_valid CHECK (tie_breaks = @extschema@.tournament_tie_break_order(tie_breaks))
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
    ranking_type   int NOT NULL DEFAULT 1 REFERENCES rankings,
    required_value int NOT NULL CONSTRAINT required_value_positive CHECK (required_value > 0),
    CONSTRAINT one_rating_requirement_per_ranking UNIQUE (tournament_id, ranking_type)
);

CREATE TABLE tournaments_ranked_games_reqs (
    tournament_id int NOT NULL REFERENCES swiss_tournaments ON DELETE CASCADE,
    ranking_type  int NOT NULL DEFAULT 1 REFERENCES rankings,
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
SELECT s.tournament_id, s.user_id_in_service, s.round, s.points_x2 * 0.5 AS points,
       s.tpr::numeric AS performance_rating
FROM @extschema@.swiss_tournament_standings s;

CREATE VIEW swiss_tournaments_round_standings AS
SELECT (row_number() OVER w)::int AS place, s.points_x2 * 0.5 AS points, s.tpr::numeric AS performance_rating,
       s.user_id_in_service, s.tournament_id, s.round
FROM @extschema@.swiss_tournament_standings s
WINDOW w AS (PARTITION BY s.tournament_id, s.round ORDER BY s.tie_rank, s.sort_key DESC, s.player_no);

CREATE VIEW swiss_tournaments_detailed_standings AS
SELECT s.tournament_id, s.round, (row_number() OVER w)::int AS place,
       (rank() OVER (PARTITION BY s.tournament_id, s.round ORDER BY s.tie_rank, s.sort_key DESC))::int AS rank,
       s.user_id_in_service, s.player_no, s.points_x2 * 0.5 AS points, t.tie_breaks,
       s.de, s.bh_x2 * 0.5 AS buchholz, s.bh_c1_x2 * 0.5 AS buchholz_cut1,
       s.sb_x4 * 0.25 AS sonneborn_berger, s.sb_c1_x4 * 0.25 AS sonneborn_berger_cut1,
       s.win AS wins, s.won AS games_won, s.aro, s.aro_c1, s.tpr, s.ptp,
       s.played AS games_played, s.adjusted_x2 * 0.5 AS adjusted_points, e.start_rating,
       s.opponent_no, s.colour, s.result
FROM @extschema@.swiss_tournament_standings s
JOIN @extschema@.swiss_tournaments t ON t.tournament_id = s.tournament_id
JOIN @extschema@.swiss_tournament_entrants e
  ON e.tournament_id = s.tournament_id AND e.user_id_in_service = s.user_id_in_service
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
    WHEN (OLD.result IS DISTINCT FROM NEW.result OR OLD.moves IS DISTINCT FROM NEW.moves
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
CREATE TRIGGER refuse_foreign_write
    BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON swiss_tournament_entrants
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();
CREATE TRIGGER refuse_foreign_write
    BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON swiss_tournament_standings
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();

-- The trigger functions run as the extension's owner (applications need no privilege on the
-- derived tables) with a pinned search_path.
ALTER FUNCTION check_swiss_tournament() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION check_tournament_player() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION check_tournament_game() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION check_bye() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION refresh_standings_of_tournament() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION refresh_standings_of_player() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION refresh_standings_of_game() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION refresh_standings_of_bye() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION refresh_standings_of_service_game() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION rebuild_truncated_tournaments() SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION rebuild_tournament_standings(int, boolean) SECURITY DEFINER SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION tournament_trf(int) SET search_path = pg_catalog, @extschema@, pg_temp;
ALTER FUNCTION tournament_pair_round(int, int, boolean, varchar[]) SET search_path = pg_catalog, @extschema@, pg_temp;
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
COMMENT ON FUNCTION tournament_pair_round(int, int, boolean, varchar[]) IS
    'The FIDE Dutch pairing (C.04.3, 2025 rules) of a tournament''s next round, without writing it: one row per board '
    '(board from 1, white and black user ids), then the pairing-allocated bye, if any, as a row with black NULL. '
    'Players are numbered in FIDE''s initial order: rating as of the start (before the first game: the current rating '
    'in the tournament''s ranking; unrated last), then display name, then user id; the top seed has White in round 1. '
    'The round paired is the one after the last round with a game or a one-point bye; players with a bye of that '
    'round are not paired. baku_acceleration: accelerated rounds by FIDE C.04.5.1 (the first 2 * ceil(n / 4) players '
    'get virtual points: 1 in the first half of the accelerated rounds, the first half of the tournament, 0.5 in the '
    'rest), the same on every call of the tournament. forbidden_pairs: user ids two by two (ARRAY[[''a'', ''b''], '
    '[''c'', ''d'']]), players who must not meet (team-mates, relatives). Errors: unknown tournament 22023, round '
    'already paired 55000, a later round 22023, every round paired 22023, a forbidden pair that is not two different '
    'players of the tournament 22023 (a NULL: 22004), no pairing that meets the absolute criteria 23514.';
COMMENT ON FUNCTION tournament_tie_break_order(text) IS
    'Canonical spelling of a tie-break order (''bh-c1, sb'' -> ''BH-C1, SB''); error 22023 on an unknown or repeated code.';
-- The recommended privileges of the Random Chess application's role: exactly what the app does.
-- It reads every table and view, records games (service and PGN), links accounts of other
-- services and creates tournaments; it writes nothing else. Derived tables (rating history,
-- standings) refuse every write that is not pg_rating's own, whatever a role is granted.

CREATE FUNCTION grant_random_chess_app(app regrole) RETURNS void
LANGUAGE plpgsql VOLATILE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    schema text := '@extschema@';
BEGIN
    EXECUTE format('GRANT USAGE ON SCHEMA %I TO %s', schema, app);
    -- the tables and views it reads
    EXECUTE (
        SELECT format('GRANT SELECT ON %s TO %s', string_agg(c.oid::regclass::text, ', ' ORDER BY c.relname), app)
        FROM pg_class c
        JOIN pg_depend d ON d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e'
        JOIN pg_extension x ON x.oid = d.refobjid AND x.extname = 'pg_rating_random_chess'
        WHERE c.relkind IN ('r', 'v'));
    -- what it records
    EXECUTE format('GRANT INSERT ON %I.service_games, %I.pgn_games, %I.service_accounts, %I.swiss_tournaments TO %s',
                   schema, schema, schema, schema, app);
    EXECUTE format('GRANT UPDATE ON %I.service_accounts TO %s', schema, app);
    EXECUTE format('GRANT USAGE ON SEQUENCE %I.service_games_id_seq, %I.pgn_games_id_seq, '
                   '%I.swiss_tournaments_tournament_id_seq TO %s', schema, schema, schema, app);
    EXECUTE format('GRANT EXECUTE ON FUNCTION %I.ranking_with_placement_at_timestamp(timestamptz, int) TO %s',
                   schema, app);
END
$$;
REVOKE ALL ON FUNCTION grant_random_chess_app(regrole) FROM PUBLIC;

COMMENT ON FUNCTION grant_random_chess_app(regrole) IS
    'Grants an application role what the Random Chess app needs: SELECT on every table and view of the Random Chess schema, '
    'INSERT on service_games, pgn_games, service_accounts and swiss_tournaments, UPDATE on service_accounts, USAGE '
    'on their sequences, EXECUTE on ranking_with_placement_at_timestamp. Run by the extension''s owner.';
-- The rows the Random Chess server looks up at start-up (its original schema script inserted them
-- after creating the tables): the services chess.com (2) and lichess.org (3), the Stockfish and
-- lichess bots, the nine rankings and the admin user (1). One call after CREATE EXTENSION sets
-- them up; it is idempotent (it adds only what is missing), and a dump keeps the rows like any
-- others, so a restored database needs no second call. A function, not rows of the extension
-- script: an extension's rows would come back twice after a restore (once from the script,
-- once from the dump), and an install for other applications would get Random Chess's bots.

CREATE FUNCTION random_chess_day_one() RETURNS void
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, @extschema@, pg_temp
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
END
$$;
REVOKE ALL ON FUNCTION random_chess_day_one() FROM PUBLIC;

COMMENT ON FUNCTION random_chess_day_one() IS
    'Adds the rows the Random Chess server expects on day one (services 2 and 3, the Stockfish and lichess bots, the '
    'nine rankings, the admin user 1) where they are missing; run once after CREATE EXTENSION (idempotent).';
