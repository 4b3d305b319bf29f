-- Ledgers: ratings for any table of games (src/ledger/, pg_rating_core::ledger). A ledger is a
-- rating system with its rules; attached to an application's own games table, it is kept current
-- by triggers on that table: every INSERT, UPDATE and DELETE of a game makes its history and
-- standings equal to a replay of the table's games in (date, key) order, per scope.
-- Player ids and scopes are kept as text (any id type); game keys as text whose byte order is
-- the games' order (integer keys are written as 20 digits).

CREATE TABLE ledgers (
    id                  serial PRIMARY KEY,
    name                text NOT NULL CONSTRAINT ledger_name_unique UNIQUE,
    -- who may attach it and change it (besides superusers)
    owner               regrole NOT NULL DEFAULT current_user::regrole,
    rating_system       text NOT NULL DEFAULT 'elo'
        CONSTRAINT ledger_rating_system_known CHECK (@extschema@.rating_system_known(rating_system)),
    starting_rating     float8 NOT NULL DEFAULT 1500,
    k_factor            float8 NOT NULL DEFAULT 20,
    starting_rd         float8 NOT NULL DEFAULT 350,
    starting_volatility float8 NOT NULL DEFAULT 0.06,
    tau                 float8 NOT NULL DEFAULT 0.5,
    -- Glicko-2: the RD grows by one period's volatility per rating_period without games
    rating_period       interval,
    max_change          float8,
    rating_floor        float8,
    provisional_games   int NOT NULL DEFAULT 0,
    provisional_rd      float8,
    -- NULL: the history is kept here (ledger_entries, ledger_standings). Else the table of a client
    -- of pg_rating that keeps it (a Random Chess ranking: elo_history); such a ledger is written
    -- only by pg_rating, with its client's settings, and its lock is its ledger_scopes row.
    kept_in             regclass,
    -- a channel that the writers pg_notify with each changed player's standing (JSON), delivered at
    -- commit; NULL: none (since 0.13.0)
    notify_channel      text
        CONSTRAINT ledger_notify_channel_name CHECK (octet_length(notify_channel) BETWEEN 1 AND 63),
    -- Glicko-2: how one game is rated. 'glickman': a full one-game rating period (Glickman's steps
    -- 1-8, step 6 with the new volatility); 'lichess': step 6 skipped (ledgers made before 0.13.0)
    glicko2_rule        text NOT NULL DEFAULT 'glickman'
        CONSTRAINT ledger_glicko2_rule_known CHECK (glicko2_rule IN ('glickman', 'lichess')),
    -- Glicko-2 bounds of every rating (NULL: RD at least 0, at most starting_rd; volatility unbounded)
    min_rd              float8,
    max_rd              float8,
    max_volatility      float8,
    -- Glicko-2 step 5.4's tolerance (NULL: Glickman's 1e-6; glicko2js, seed 000's library: 1e-7)
    volatility_epsilon  float8,
    -- Glicko-2: how the rating periods without games grow the RD. 'elapsed': step 6 for the time
    -- elapsed, fractions included; 'whole_periods': for whole periods; 'whole_periods_rating_scale':
    -- RD² + n σ² in rating points for n whole periods (seed 003 §11 as written)
    rd_growth           text NOT NULL DEFAULT 'elapsed'
        CONSTRAINT ledger_rd_growth_known
        CHECK (rd_growth IN ('elapsed', 'whole_periods', 'whole_periods_rating_scale')),
    -- a player is provisional again after this long without a game (seed 004: "Time Decay",
    -- prolonged inactivity makes a rating uncertain; its "?" mark); NULL: never (since 0.13.0)
    provisional_after   interval
        CONSTRAINT ledger_provisional_after_positive CHECK (provisional_after > interval '0'),
    -- what a rating change above max_change or max_period_change does: 'clamp' cuts it to the bound;
    -- 'reject' makes the game an error, 23514 (seed 000 section 8.2; since 0.13.0)
    max_change_policy   text NOT NULL DEFAULT 'clamp'
        CONSTRAINT ledger_max_change_policy_known CHECK (max_change_policy IN ('clamp', 'reject')),
    -- the largest sum of a player's absolute rating changes within one change_period (consecutive
    -- windows from Monday 2000-01-03 00:00 UTC); both NULL: no cap (since 0.13.0)
    max_period_change   float8,
    change_period       interval
);

-- The games table of each ledger and how to read it. Written only by ledger_attach and
-- ledger_detach.
CREATE TABLE ledger_attachments (
    ledger_id     int PRIMARY KEY REFERENCES ledgers ON DELETE CASCADE,
    games         regclass NOT NULL,
    key_column    name NOT NULL,
    key_type      regtype NOT NULL,
    date_column   text NOT NULL,
    -- every column but the key may be a path through foreign keys (a -> b -> c), as written
    -- the white player's column; the player's column of a participants table
    white_column  text NOT NULL,
    black_column  text,
    result_column text,
    -- NULL: result_column is white's score in [0, 1]; else result value (as text) -> a score,
    -- "unrated" (not rated: a bye) or "double_loss" (both players lose)
    result_map    jsonb,
    scope_column  text,
    filter        text,
    -- a participants table (one row per player per game): the placement (lower is better unless
    -- higher_is_better) and the rule of multiplayer games
    placement_column text,
    higher_is_better boolean,
    multiplayer_rule text CONSTRAINT ledger_multiplayer_rule_known CHECK (multiplayer_rule IN ('period', 'pairwise')),
    -- a boolean column (or path): a game is rated only when it is true
    rated_column  text,
    -- the tables the column paths (a -> b -> c, through foreign keys) reach, whose triggers
    -- ledger_attach created
    related       regclass[],
    CONSTRAINT ledger_attachment_kind CHECK ((multiplayer_rule IS NULL) = (black_column IS NOT NULL AND result_column IS NOT NULL)
                                             AND (multiplayer_rule IS NULL) = (placement_column IS NULL))
);

-- Each player's line of each rated game: the standing before and after it.
-- (No foreign keys to ledgers in the derived tables, checked for every row written: a deleted
-- ledger's rows are deleted by check_ledger.)
CREATE TABLE ledger_entries (
    ledger_id         int NOT NULL,
    scope             text NOT NULL,
    player            text NOT NULL,
    game_date         timestamptz NOT NULL,
    game_key          text COLLATE "C" NOT NULL,
    -- the key as the games table writes it (game_key orders; integer keys differ from it)
    game              text NOT NULL,
    opponent          text NOT NULL,
    score             float8 NOT NULL,
    expected          float8 NOT NULL,
    rating_before     float8 NOT NULL,
    rating            float8 NOT NULL,
    rd_before         float8,
    rd                float8,
    volatility_before float8,
    volatility        float8,
    games             int NOT NULL,
    wins              int NOT NULL,
    draws             int NOT NULL,
    losses            int NOT NULL,
    peak              float8 NOT NULL,
    streak            int NOT NULL,
    best_streak       int NOT NULL,
    opponents_sum     float8 NOT NULL,
    score_sum         float8 NOT NULL,
    PRIMARY KEY (ledger_id, scope, player, game_date, game_key)
);

-- Each player's current standing: the standing after the player's latest entry.
CREATE TABLE ledger_standings (
    ledger_id      int NOT NULL,
    scope          text NOT NULL,
    player         text NOT NULL,
    rating         float8 NOT NULL,
    rd             float8,
    volatility     float8,
    games          int NOT NULL,
    wins           int NOT NULL,
    draws          int NOT NULL,
    losses         int NOT NULL,
    peak           float8 NOT NULL,
    streak         int NOT NULL,
    best_streak    int NOT NULL,
    opponents_sum  float8 NOT NULL,
    score_sum      float8 NOT NULL,
    last_game_date timestamptz NOT NULL,
    last_game_key  text COLLATE "C" NOT NULL,
    PRIMARY KEY (ledger_id, scope, player)
)
-- Every game rewrites its players' rows: free space on each page keeps the new versions on the
-- page of the old ones.
WITH (fillfactor = 50);
-- A leaderboard page reads the scope's best ratings from here instead of sorting the scope.
CREATE INDEX ledger_standings_by_rating ON ledger_standings (ledger_id, scope, rating DESC, player)
    -- (every row has games; the condition keeps the index to the queries that name it, so that the
    -- writers' lookup of a player is never planned on it)
    WHERE games > 0;

-- Starting ratings of players who come with one (imported FIDE, chess.com or lichess ratings,
-- with an offset and an RD): a player's first game starts from the seed instead of the
-- ledger's start. Changing a seed replays the player's scope from the player's first game.
CREATE TABLE ledger_seeds (
    ledger_id  int NOT NULL REFERENCES ledgers ON DELETE CASCADE,
    scope      text NOT NULL DEFAULT '',
    player     text NOT NULL,
    rating     float8 NOT NULL
        CONSTRAINT seed_rating_finite CHECK (rating > '-Infinity' AND rating < 'Infinity'),
    rd         float8 CONSTRAINT seed_rd_positive CHECK (rd > 0::float8 AND rd <= 10000::float8),
    volatility float8 CONSTRAINT seed_volatility_stored CHECK (volatility >= 1e-10::float8 AND volatility <= 10::float8),
    PRIMARY KEY (ledger_id, scope, player)
);
-- Seeded players without games show on the leaderboard: its page reads the scope's best seeds
-- from here, as it reads the standings from ledger_standings_by_rating.
CREATE INDEX ledger_seeds_by_rating ON ledger_seeds (ledger_id, scope, rating DESC, player);
CREATE FUNCTION reseed_ledger() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'reseed_ledger_wrapper';
REVOKE ALL ON FUNCTION reseed_ledger() FROM PUBLIC;
CREATE TRIGGER reseed_ledger AFTER INSERT OR UPDATE OR DELETE ON ledger_seeds
    FOR EACH ROW EXECUTE FUNCTION reseed_ledger();
ALTER FUNCTION reseed_ledger() SET search_path = pg_catalog, pg_temp;
-- The row trigger checks each seed and notes its player; this one replays each scope whose seeds
-- the statement changed, once (an import of many seeds is one replay per scope).
CREATE FUNCTION reseed_ledger_scopes() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'reseed_ledger_scopes_wrapper';
REVOKE ALL ON FUNCTION reseed_ledger_scopes() FROM PUBLIC;
CREATE TRIGGER reseed_ledger_scopes AFTER INSERT OR UPDATE OR DELETE ON ledger_seeds
    FOR EACH STATEMENT EXECUTE FUNCTION reseed_ledger_scopes();
ALTER FUNCTION reseed_ledger_scopes() SET search_path = pg_catalog, pg_temp;

-- Seasons (seed 003, section 13): at a season's end every rating is pulled toward the start by
-- rating_pull (0 keeps it, 1 resets it) and every RD raised to at least rd_floor. The reset is an
-- event of the replay: a player's first game after the end starts from the reset standing, and
-- the standings shown as of now have it for players who have not played since. Adding, changing
-- or removing a season replays the scope from its end.
CREATE TABLE ledger_seasons (
    ledger_id   int NOT NULL REFERENCES ledgers ON DELETE CASCADE,
    scope       text NOT NULL DEFAULT '',
    name        text NOT NULL,
    ends_at     timestamptz NOT NULL CONSTRAINT season_end_finite CHECK (isfinite(ends_at)),
    rating_pull float8 NOT NULL DEFAULT 0 CONSTRAINT season_pull_fraction CHECK (rating_pull BETWEEN 0::float8 AND 1::float8),
    rd_floor    float8 CONSTRAINT season_rd_floor_positive CHECK (rd_floor > 0::float8 AND rd_floor <= 10000::float8),
    -- since 0.13.0: a season of every scope of the ledger (seed 003, section 13: site-wide),
    -- those rated later included; stored under scope ''
    every_scope boolean NOT NULL DEFAULT false
        CONSTRAINT season_of_every_scope_unscoped CHECK (NOT every_scope OR scope OPERATOR(pg_catalog.=) ''::text),
    PRIMARY KEY (ledger_id, scope, name),
    CONSTRAINT one_season_end_at_a_time UNIQUE (ledger_id, scope, ends_at)
);
CREATE FUNCTION reseason_ledger() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'reseason_ledger_wrapper';
REVOKE ALL ON FUNCTION reseason_ledger() FROM PUBLIC;
CREATE TRIGGER reseason_ledger AFTER INSERT OR UPDATE OR DELETE ON ledger_seasons
    FOR EACH ROW EXECUTE FUNCTION reseason_ledger();
ALTER FUNCTION reseason_ledger() SET search_path = pg_catalog, pg_temp;

-- One row per (ledger, scope): the lock its writers take, so that writers of different ledgers
-- and scopes never wait for each other.
CREATE TABLE ledger_scopes (
    ledger_id int NOT NULL,
    scope     text NOT NULL,
    writes    bigint NOT NULL DEFAULT 0,
    PRIMARY KEY (ledger_id, scope)
);

CREATE FUNCTION check_ledger() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'check_ledger_wrapper';
CREATE FUNCTION rebuild_changed_ledger() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'rebuild_changed_ledger_wrapper';
CREATE FUNCTION ledger_games_changed() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'ledger_games_changed_wrapper';
REVOKE ALL ON FUNCTION check_ledger(), rebuild_changed_ledger(), ledger_games_changed() FROM PUBLIC;
CREATE FUNCTION ledger_related_changed() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'ledger_related_changed_wrapper';
REVOKE ALL ON FUNCTION ledger_related_changed() FROM PUBLIC;
ALTER FUNCTION ledger_related_changed() SECURITY DEFINER SET search_path = pg_catalog, pg_temp;

CREATE TRIGGER check_ledger BEFORE INSERT OR UPDATE OR DELETE ON ledgers
    FOR EACH ROW EXECUTE FUNCTION check_ledger();
CREATE TRIGGER rebuild_changed_ledger AFTER UPDATE ON ledgers
    FOR EACH ROW EXECUTE FUNCTION rebuild_changed_ledger();
CREATE TRIGGER refuse_foreign_write BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ledger_attachments
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();
CREATE TRIGGER check_cascaded_delete BEFORE DELETE ON ledger_attachments
    FOR EACH ROW EXECUTE FUNCTION check_cascaded_delete();
CREATE TRIGGER refuse_foreign_write BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ledger_entries
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();
CREATE TRIGGER refuse_foreign_write BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ledger_standings
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();
CREATE TRIGGER refuse_foreign_write BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ledger_scopes
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();

CREATE FUNCTION ledger_attach(ledger text, games regclass, key_column text, date_column text,
                              white_column text, black_column text, result_column text,
                              result_map jsonb DEFAULT NULL, scope_column text DEFAULT NULL,
                              filter text DEFAULT NULL, rated_column text DEFAULT NULL)
    RETURNS bigint VOLATILE LANGUAGE c AS 'MODULE_PATHNAME', 'ledger_attach_0_13_wrapper';
CREATE FUNCTION ledger_attach_multiplayer(ledger text, participants regclass, game_column text, date_column text,
                                          player_column text, placement_column text, rule text DEFAULT 'pairwise',
                                          higher_is_better boolean DEFAULT false, scope_column text DEFAULT NULL,
                                          filter text DEFAULT NULL, rated_column text DEFAULT NULL)
    RETURNS bigint VOLATILE LANGUAGE c AS 'MODULE_PATHNAME', 'ledger_attach_multiplayer_0_13_wrapper';
CREATE FUNCTION ledger_detach(ledger text) RETURNS void
    VOLATILE STRICT LANGUAGE c AS 'MODULE_PATHNAME', 'ledger_detach_wrapper';
CREATE FUNCTION ledger_rebuild(ledger text) RETURNS bigint
    VOLATILE STRICT LANGUAGE c AS 'MODULE_PATHNAME', 'ledger_rebuild_wrapper';

-- A dropped games table takes its ledgers' attachment with it (their history stays, as after
-- ledger_detach): no attachment names a table that is gone, nor, later, another table that
-- PostgreSQL gives the same oid.
CREATE FUNCTION ledger_forget_dropped_tables(tables oid[]) RETURNS void
    VOLATILE STRICT LANGUAGE c AS 'MODULE_PATHNAME', 'ledger_forget_dropped_tables_wrapper';
REVOKE ALL ON FUNCTION ledger_forget_dropped_tables(oid[]) FROM PUBLIC;
ALTER FUNCTION ledger_forget_dropped_tables(oid[]) SET search_path = pg_catalog, pg_temp;
CREATE FUNCTION ledgers_forget_dropped_tables() RETURNS event_trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    dropped oid[];
BEGIN
    -- (nothing to do while pg_rating itself is dropped)
    IF pg_catalog.to_regclass('@extschema@.ledger_attachments') IS NULL THEN
        RETURN;
    END IF;
    SELECT pg_catalog.array_agg(d.objid) INTO dropped
    FROM pg_catalog.pg_event_trigger_dropped_objects() d
    WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid
      AND d.object_type OPERATOR(pg_catalog.=) 'table';
    IF dropped IS NOT NULL THEN
        PERFORM @extschema@.ledger_forget_dropped_tables(dropped);
    END IF;
END
$$;
REVOKE ALL ON FUNCTION ledgers_forget_dropped_tables() FROM PUBLIC;
-- (every command that drops: DROP TYPE ... CASCADE takes a typed table with it, DROP SERVER
-- ... CASCADE a foreign table, DROP ACCESS METHOD ... CASCADE a table of that method)
CREATE EVENT TRIGGER pg_rating_ledgers_forget_dropped_tables ON sql_drop
    EXECUTE FUNCTION ledgers_forget_dropped_tables();
COMMENT ON FUNCTION ledger_forget_dropped_tables(oid[]) IS
    'Detaches the ledgers attached to those of the given tables that no longer exist (their history stays); '
    'called by the event trigger pg_rating_ledgers_forget_dropped_tables.';
COMMENT ON FUNCTION ledgers_forget_dropped_tables() IS
    'Event trigger function of pg_rating_ledgers_forget_dropped_tables: the tables a statement dropped, '
    'passed to ledger_forget_dropped_tables.';
COMMENT ON EVENT TRIGGER pg_rating_ledgers_forget_dropped_tables IS
    'After a statement that drops tables, detaches the ledgers attached to them (ledgers_forget_dropped_tables).';

-- Every function runs with search_path = pg_catalog, pg_temp (no schema a non-superuser can
-- create in) and names pg_rating's objects with their schema. The triggers that derive rows run
-- as the extension's owner (SECURITY DEFINER); the functions that check who acts (attach, detach,
-- rebuild, what-if, the checks of ledgers, seeds and seasons) run as the role that acts and take
-- the owner's rights in the library only after the check. An attached table's filter is read as
-- the table's owner, in a security-restricted operation (src/security.rs).
ALTER FUNCTION check_ledger() SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION rebuild_changed_ledger() SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION ledger_games_changed() SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION ledger_attach(text, regclass, text, text, text, text, text, jsonb, text, text, text)
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION ledger_attach_multiplayer(text, regclass, text, text, text, text, text, boolean, text, text, text)
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION ledger_detach(text) SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION ledger_rebuild(text) SET search_path = pg_catalog, pg_temp;

-- Every rating change.
CREATE VIEW ledger_history AS
SELECT l.name AS ledger, e.scope, e.player, e.game_date, e.game, e.game_key AS sort_key, e.opponent, e.score, e.expected,
       e.rating_before, e.rating, e.rating - e.rating_before AS change, e.rd_before, e.rd,
       e.volatility_before, e.volatility, e.games, e.wins, e.draws, e.losses, e.peak, e.streak, e.best_streak
FROM @extschema@.ledger_entries e JOIN @extschema@.ledgers l ON l.id = e.ledger_id;

-- A player's RD as of now: grown by the rating periods since the last game by the ledger's
-- rd_growth (Glicko-2 with a rating period), within its RD bounds, as its writer grows it before
-- the player's next game (the rule is the library's); without one, or without an RD, as stored.
CREATE FUNCTION ledger_rd_now(rd float8, volatility float8, last_played timestamptz, rating_period interval,
                              min_rd float8, max_rd float8, rd_growth text)
RETURNS float8
    STABLE PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'ledger_rd_now_wrapper';

-- The rest of what the readers derive from a stored standing, each the library's rule
-- (pg_rating_core::ledger::now), called per row: provisional status; the resets of the seasons
-- that ended since the player's last game (the seasons of the player's scope given as arrays),
-- as the player's next game starts from them; the linear performance. (No search_path of their
-- own: they run no SQL, and a SET would cost each row a change of configuration.)
CREATE FUNCTION ledger_is_provisional(games int, rd float8, last_played timestamptz, provisional_games int,
                                      provisional_rd float8, provisional_after interval, now timestamptz)
RETURNS boolean
    STABLE PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'ledger_is_provisional_wrapper';
CREATE FUNCTION ledger_season_rating(rating float8, last_played timestamptz, starting_rating float8,
                                     season_ends timestamptz[], season_pulls float8[], now timestamptz)
RETURNS float8
    IMMUTABLE PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'ledger_season_rating_wrapper';
CREATE FUNCTION ledger_season_rd(rd float8, last_played timestamptz, season_ends timestamptz[],
                                 season_rd_floors float8[], now timestamptz)
RETURNS float8
    IMMUTABLE PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'ledger_season_rd_wrapper';
CREATE FUNCTION ledger_performance(opponents_sum float8, wins int, losses int, games int)
RETURNS float8
    IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'ledger_performance_wrapper';
CREATE FUNCTION ledger_season_start(season_ends timestamptz[], ends_at timestamptz)
RETURNS timestamptz
    IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'ledger_season_start_wrapper';

-- Current standings with what is derived at read time: the RD grown by inactivity as of now
-- (Glicko-2 with a rating period), the provisional flag, opponents' average and performance.
CREATE VIEW ledger_standings_now AS
SELECT l.name AS ledger, s.scope, s.player,
       -- the resets of the seasons that ended since the player's last game, in order
       @extschema@.ledger_season_rating(s.rating, s.last_game_date, l.starting_rating, z.ends, z.pulls, now())
           AS rating,
       @extschema@.ledger_season_rd(@extschema@.ledger_rd_now(s.rd, s.volatility, s.last_game_date, l.rating_period,
                                                              l.min_rd, coalesce(l.max_rd, l.starting_rd), l.rd_growth),
                                    s.last_game_date, z.ends, z.rd_floors, now()) AS rd,
       s.volatility, s.games, s.wins, s.draws, s.losses, s.peak, s.streak, s.best_streak,
       s.last_game_date AS last_played,
       @extschema@.ledger_is_provisional(s.games, s.rd, s.last_game_date, l.provisional_games, l.provisional_rd,
                                         l.provisional_after, now()) AS provisional,
       s.opponents_sum / s.games::float8 AS opponents_average,
       @extschema@.ledger_performance(s.opponents_sum, s.wins, s.losses, s.games) AS performance
FROM @extschema@.ledger_standings s JOIN @extschema@.ledgers l ON l.id = s.ledger_id
-- the seasons of the player's scope (the library applies those that ended since the last game)
LEFT JOIN LATERAL (
    SELECT pg_catalog.array_agg(x.ends_at) AS ends, pg_catalog.array_agg(x.rating_pull) AS pulls,
           pg_catalog.array_agg(x.rd_floor) AS rd_floors
    FROM @extschema@.ledger_seasons x
    WHERE x.ledger_id = s.ledger_id AND (x.scope = s.scope OR x.every_scope)) z ON true
UNION ALL
-- Players with a seed and no games yet: the seed, as their first game starts from it (a seed has
-- no date: no season reset, no RD growth), provisional, without a last game or performance.
SELECT l.name, d.scope, d.player, d.rating,
       CASE WHEN l.rating_system = 'glicko2' THEN coalesce(d.rd, l.starting_rd) END,
       CASE WHEN l.rating_system = 'glicko2' THEN coalesce(d.volatility, l.starting_volatility) END,
       0, 0, 0, 0, d.rating, 0, 0, NULL::timestamptz, true, NULL::float8, NULL::float8
FROM @extschema@.ledger_seeds d JOIN @extschema@.ledgers l ON l.id = d.ledger_id
WHERE NOT EXISTS (SELECT FROM @extschema@.ledger_standings s
                  WHERE s.ledger_id = d.ledger_id AND s.scope = d.scope AND s.player = d.player);
-- Each season's final standings: every player's standing after the last game before its end.
-- The season's own record (since 0.13.0): the games from the scope's previous season end (or the
-- first) to this one, the differences of the record after the season's last game and after the
-- player's last game before it, and the highest rating after a game of the season.
CREATE VIEW ledger_season_standings AS
SELECT l.name AS ledger, z.scope, z.name AS season, z.ends_at, e.player, e.rating, e.rd, e.volatility, e.games,
       e.wins, e.draws, e.losses, e.peak, e.best_streak,
       p.starts_at AS season_starts_at,
       e.games - coalesce(b.games, 0) AS season_games,
       e.wins - coalesce(b.wins, 0) AS season_wins,
       e.draws - coalesce(b.draws, 0) AS season_draws,
       e.losses - coalesce(b.losses, 0) AS season_losses,
       w.peak AS season_peak
FROM (SELECT x.ledger_id, x.scope, x.name, x.ends_at FROM @extschema@.ledger_seasons x WHERE NOT x.every_scope
      UNION ALL
      -- a season of every scope, once in each scope the ledger has rated (since 0.13.0)
      SELECT x.ledger_id, c.scope, x.name, x.ends_at FROM @extschema@.ledger_seasons x
      CROSS JOIN LATERAL (SELECT DISTINCT s.scope FROM @extschema@.ledger_standings s
                          WHERE s.ledger_id = x.ledger_id) c
      WHERE x.every_scope) z
JOIN @extschema@.ledgers l ON l.id = z.ledger_id
CROSS JOIN LATERAL (
    SELECT @extschema@.ledger_season_start(pg_catalog.array_agg(y.ends_at), z.ends_at) AS starts_at
    FROM @extschema@.ledger_seasons y
    WHERE y.ledger_id = z.ledger_id AND (y.scope = z.scope OR y.every_scope)) p
CROSS JOIN LATERAL (
    SELECT DISTINCT ON (x.player) x.*
    FROM @extschema@.ledger_entries x
    WHERE x.ledger_id = z.ledger_id AND x.scope = z.scope AND x.game_date < z.ends_at
    ORDER BY x.player, x.game_date DESC, x.game_key DESC) e
LEFT JOIN LATERAL (
    SELECT x.games, x.wins, x.draws, x.losses
    FROM @extschema@.ledger_entries x
    WHERE x.ledger_id = z.ledger_id AND x.scope = z.scope AND x.player = e.player AND x.game_date < p.starts_at
    ORDER BY x.game_date DESC, x.game_key DESC LIMIT 1) b ON true
CROSS JOIN LATERAL (
    SELECT max(x.rating) AS peak
    FROM @extschema@.ledger_entries x
    WHERE x.ledger_id = z.ledger_id AND x.scope = z.scope AND x.player = e.player AND x.game_date < z.ends_at
      AND (p.starts_at IS NULL OR x.game_date >= p.starts_at)) w;

-- true for a ledger whose history is kept in ledger_entries (or none of that name): the readers
-- of those tables refuse a ledger kept by a client, which would read as one without games.
CREATE FUNCTION ledger_kept_here(ledger text) RETURNS boolean
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    kept regclass;
BEGIN
    SELECT l.kept_in INTO kept FROM @extschema@.ledgers l WHERE l.name = ledger;
    IF kept IS NOT NULL THEN
        RAISE EXCEPTION 'ledger "%" keeps its history in %, not in ledger_entries', ledger, kept
            USING ERRCODE = 'feature_not_supported',
                  HINT = 'Read that table and its client''s views (a Random Chess ranking: elo_history, leaderboard).';
    END IF;
    RETURN true;
END
$$;

-- A value of the user as an error message quotes it: "value", or its first 100 characters, an
-- ellipsis and its length (as pg_rating_core::error::Quoted does).
CREATE FUNCTION ledger_quoted(value text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT CASE WHEN pg_catalog.char_length(value) OPERATOR(pg_catalog.<=) 100
            THEN '"' OPERATOR(pg_catalog.||) value OPERATOR(pg_catalog.||) '"'
            ELSE '"' OPERATOR(pg_catalog.||) pg_catalog.left(value, 100) OPERATOR(pg_catalog.||) pg_catalog.chr(8230)
                 OPERATOR(pg_catalog.||) '" (' OPERATOR(pg_catalog.||) pg_catalog.char_length(value)::text
                 OPERATOR(pg_catalog.||) ' characters)'
       END
$$;

-- The scope of a ledger scoped by several columns, as the writers write it (ROW(a, b)::text:
-- each value quoted as a row's text quotes it); the value itself for one column.
CREATE FUNCTION ledger_scope(VARIADIC scope_values text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
AS $$
SELECT CASE WHEN pg_catalog.cardinality(scope_values) OPERATOR(pg_catalog.<=) 1
            THEN coalesce(scope_values[1], '')
            ELSE '(' OPERATOR(pg_catalog.||)
                 (SELECT pg_catalog.string_agg(
                             CASE WHEN v IS NULL THEN ''
                                  WHEN v OPERATOR(pg_catalog.=) '' OR v OPERATOR(pg_catalog.~) '["\\(),[:space:]]'
                                  THEN '"' OPERATOR(pg_catalog.||)
                                       pg_catalog.replace(pg_catalog.replace(v, '\', '\\'), '"', '""')
                                       OPERATOR(pg_catalog.||) '"'
                                  ELSE v END, ',' ORDER BY i)
                  FROM pg_catalog.unnest(scope_values) WITH ORDINALITY u(v, i))
                 OPERATOR(pg_catalog.||) ')'
       END
$$;

-- The id of a ledger that a reader names, checked: 22023 for a ledger that does not exist (or
-- that row-level security hides), 0A000 for one whose history a client keeps, 22023 for a scope
-- the ledger has no standings in (and for '' in a scoped ledger); 22004 for a NULL ledger, and
-- for a NULL scope unless any_scope (then the scope is not checked). A scope exists when a player
-- has a standing or a seed in it: one probe of each primary key.
CREATE FUNCTION ledger_id_for_read(ledger text, scope text, any_scope boolean DEFAULT false) RETURNS int
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    found_id int;
    kept regclass;
    example text;
BEGIN
    IF ledger IS NULL THEN
        RAISE EXCEPTION 'ledger must not be NULL' USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT l.id, l.kept_in INTO found_id, kept FROM @extschema@.ledgers l WHERE l.name = ledger;
    IF found_id IS NULL THEN
        RAISE EXCEPTION 'ledger % does not exist', @extschema@.ledger_quoted(ledger)
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF kept IS NOT NULL THEN
        PERFORM @extschema@.ledger_kept_here(ledger);
    END IF;
    IF scope IS NULL THEN
        IF any_scope THEN
            RETURN found_id;
        END IF;
        RAISE EXCEPTION 'scope must not be NULL' USING ERRCODE = 'null_value_not_allowed',
            HINT = 'An unscoped ledger''s scope is ''''.';
    END IF;
    IF EXISTS (SELECT FROM @extschema@.ledger_standings s
               WHERE s.ledger_id = found_id AND s.scope = ledger_id_for_read.scope) THEN
        RETURN found_id;
    END IF;
    -- (a scope whose players are seeded and have no games yet)
    IF EXISTS (SELECT FROM @extschema@.ledger_seeds d
               WHERE d.ledger_id = found_id AND d.scope = ledger_id_for_read.scope) THEN
        RETURN found_id;
    END IF;
    -- not found: say what the ledger's scopes look like
    SELECT x.scope INTO example
    FROM (SELECT s.scope FROM @extschema@.ledger_standings s WHERE s.ledger_id = found_id
          UNION ALL
          SELECT d.scope FROM @extschema@.ledger_seeds d WHERE d.ledger_id = found_id) x
    ORDER BY x.scope DESC LIMIT 1;
    IF example IS NULL AND scope = '' THEN
        RETURN found_id; -- a ledger without games yet
    ELSIF example IS NULL THEN
        RAISE EXCEPTION 'ledger % has no scope %: it has no games', @extschema@.ledger_quoted(ledger),
            @extschema@.ledger_quoted(scope) USING ERRCODE = 'invalid_parameter_value';
    ELSIF example = '' THEN
        RAISE EXCEPTION 'ledger % has no scope %', @extschema@.ledger_quoted(ledger), @extschema@.ledger_quoted(scope)
            USING ERRCODE = 'invalid_parameter_value', HINT = 'The ledger is not scoped: its scope is ''''.';
    ELSIF scope = '' AND left(example, 1) = '(' THEN
        RAISE EXCEPTION 'ledger % is scoped: name a scope (such as %)', @extschema@.ledger_quoted(ledger),
            @extschema@.ledger_quoted(example) USING ERRCODE = 'invalid_parameter_value',
            HINT = 'A scope of several columns is their row as text: ledger_scope(value1, value2, ...).';
    ELSIF scope = '' THEN
        RAISE EXCEPTION 'ledger % is scoped: name a scope (such as %)', @extschema@.ledger_quoted(ledger),
            @extschema@.ledger_quoted(example) USING ERRCODE = 'invalid_parameter_value';
    ELSIF left(example, 1) = '(' AND left(scope, 1) <> '(' THEN
        RAISE EXCEPTION 'ledger % has no scope %', @extschema@.ledger_quoted(ledger), @extschema@.ledger_quoted(scope)
            USING ERRCODE = 'invalid_parameter_value',
                  HINT = format('The ledger is scoped by several columns, whose scope is their row as text (such as %s): '
                                'pass ledger_scope(value1, value2, ...).', @extschema@.ledger_quoted(example));
    ELSE
        RAISE EXCEPTION 'ledger % has no scope %', @extschema@.ledger_quoted(ledger), @extschema@.ledger_quoted(scope)
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
END
$$;

CREATE FUNCTION ledger_leaderboard(ledger text, scope text DEFAULT '', min_games int DEFAULT 0,
                                   max_rd float8 DEFAULT NULL, include_provisional boolean DEFAULT true,
                                   page_size int DEFAULT 50, page int DEFAULT 1)
RETURNS TABLE (rank int, player text, rating float8, rd float8, conservative float8, games int, wins int,
               draws int, losses int, peak float8, streak int, provisional boolean, last_played timestamptz)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    l @extschema@.ledgers;
    size int := greatest(page_size, 0);
    upto int := greatest(page_size, 0) * greatest(page, 1);
    -- seeded players without games have 0 games and are provisional
    seeds_shown boolean := coalesce(min_games, 0) <= 0 AND coalesce(include_provisional, true);
    seed_rd float8;
BEGIN
    SELECT * INTO l FROM @extschema@.ledgers x
    WHERE x.id = @extschema@.ledger_id_for_read(ledger_leaderboard.ledger, ledger_leaderboard.scope);
    IF NOT EXISTS (SELECT FROM @extschema@.ledger_seasons z
                   WHERE z.ledger_id = l.id AND (z.scope = ledger_leaderboard.scope OR z.every_scope)
                     AND z.ends_at <= now()) THEN
        -- No season has ended: the ratings are those stored, and a page is read in the order of
        -- ledger_standings_by_rating down to its last row (dense ranks counted from the top), and
        -- the seeds without games in the order of ledger_seeds_by_rating, as far.
        seed_rd := CASE WHEN l.rating_system = 'glicko2' THEN l.starting_rd END;
        RETURN QUERY
        SELECT (dense_rank() OVER (ORDER BY t.rating DESC))::int, t.player, t.rating, t.rd,
               t.rating - 2 * coalesce(t.rd, 0), t.games, t.wins, t.draws, t.losses, t.peak, t.streak,
               t.provisional, t.last_game_date
        FROM ((SELECT s.player, s.rating, n.rd_now AS rd, s.games, s.wins, s.draws, s.losses, s.peak, s.streak,
                      n.provisional, s.last_game_date
               FROM @extschema@.ledger_standings s
               CROSS JOIN LATERAL (SELECT @extschema@.ledger_rd_now(s.rd, s.volatility, s.last_game_date, l.rating_period,
                                                                    l.min_rd, coalesce(l.max_rd, l.starting_rd), l.rd_growth) AS rd_now,
                                          @extschema@.ledger_is_provisional(s.games, s.rd, s.last_game_date,
                                                                            l.provisional_games, l.provisional_rd,
                                                                            l.provisional_after, now()) AS provisional) n
               WHERE s.ledger_id = l.id AND s.scope = ledger_leaderboard.scope AND s.games > 0
                 AND s.games >= coalesce(min_games, 0)
                 AND (max_rd IS NULL OR n.rd_now IS NULL OR n.rd_now <= max_rd)
                 AND (coalesce(include_provisional, true) OR NOT n.provisional)
               ORDER BY s.rating DESC, s.player
               LIMIT upto)
              UNION ALL
              (SELECT d.player, d.rating, r.rd, 0, 0, 0, 0, d.rating, 0, true, NULL::timestamptz
               FROM @extschema@.ledger_seeds d
               CROSS JOIN LATERAL (SELECT CASE WHEN seed_rd IS NOT NULL THEN coalesce(d.rd, seed_rd) END AS rd) r
               WHERE seeds_shown AND d.ledger_id = l.id AND d.scope = ledger_leaderboard.scope
                 AND (max_rd IS NULL OR r.rd IS NULL OR r.rd <= max_rd)
                 AND NOT EXISTS (SELECT FROM @extschema@.ledger_standings s
                                 WHERE s.ledger_id = d.ledger_id AND s.scope = d.scope AND s.player = d.player)
               ORDER BY d.rating DESC, d.player
               LIMIT upto)
              ORDER BY 2 DESC, 1
              LIMIT upto) t
        ORDER BY t.rating DESC, t.player
        OFFSET upto - size;
        RETURN;
    END IF;
    -- Seasons ended: each player's rating is reset by those that ended since the player's last
    -- game, which changes the order; the scope is sorted.
    RETURN QUERY
    SELECT (dense_rank() OVER (ORDER BY s.rating DESC))::int, s.player, s.rating, s.rd,
           s.rating - 2 * coalesce(s.rd, 0), s.games, s.wins, s.draws, s.losses, s.peak, s.streak, s.provisional,
           s.last_played
    FROM @extschema@.ledger_standings_now s
    WHERE s.ledger = ledger_leaderboard.ledger AND s.scope = ledger_leaderboard.scope
      AND s.games >= coalesce(min_games, 0)
      AND (max_rd IS NULL OR s.rd IS NULL OR s.rd <= max_rd)
      AND (coalesce(include_provisional, true) OR NOT s.provisional)
    ORDER BY s.rating DESC, s.player
    LIMIT size OFFSET upto - size;
END
$$;

CREATE FUNCTION ledger_rating_at(ledger text, player text, at timestamptz, scope text DEFAULT '')
RETURNS TABLE (rating float8, rd float8, games int)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
-- before the player's first game: the player's seed, else the ledger's start
SELECT coalesce(e.rating, d.rating, l.starting_rating),
       CASE WHEN l.rating_system = 'glicko2' THEN coalesce(e.rd, d.rd, l.starting_rd) END,
       coalesce(e.games, 0)
FROM @extschema@.ledgers l
LEFT JOIN LATERAL (
    SELECT x.rating, x.rd, x.games FROM @extschema@.ledger_entries x
    WHERE x.ledger_id = l.id AND x.scope = ledger_rating_at.scope AND x.player = ledger_rating_at.player
      AND x.game_date <= at
    ORDER BY x.player DESC, x.game_date DESC, x.game_key DESC LIMIT 1) e ON true
LEFT JOIN @extschema@.ledger_seeds d
    ON e.rating IS NULL AND d.ledger_id = l.id AND d.scope = ledger_rating_at.scope
       AND d.player = ledger_rating_at.player
WHERE l.id = @extschema@.ledger_id_for_read(ledger_rating_at.ledger, ledger_rating_at.scope)
$$;

-- A player's rank on the leaderboard with the same filters: the distinct ratings above the
-- player's among the players the filters keep (read down ledger_standings_by_rating), as
-- ledger_leaderboard ranks them; NULL for a player the filters leave out or without games.
CREATE FUNCTION ledger_player_rank(ledger text, player text, scope text DEFAULT '', min_games int DEFAULT 0,
                                   max_rd float8 DEFAULT NULL, include_provisional boolean DEFAULT true)
RETURNS int
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    l @extschema@.ledgers;
    mine float8;
    above int;
    -- seeded players without games, as ledger_leaderboard shows them
    seeds_shown boolean := coalesce(min_games, 0) <= 0 AND coalesce(include_provisional, true);
    seed_rd float8;
BEGIN
    SELECT * INTO l FROM @extschema@.ledgers x
    WHERE x.id = @extschema@.ledger_id_for_read(ledger_player_rank.ledger, ledger_player_rank.scope);
    IF NOT EXISTS (SELECT FROM @extschema@.ledger_seasons z
                   WHERE z.ledger_id = l.id AND (z.scope = ledger_player_rank.scope OR z.every_scope)
                     AND z.ends_at <= now()) THEN
        seed_rd := CASE WHEN l.rating_system = 'glicko2' THEN l.starting_rd END;
        SELECT s.rating INTO mine
        FROM @extschema@.ledger_standings s
        CROSS JOIN LATERAL (SELECT @extschema@.ledger_rd_now(s.rd, s.volatility, s.last_game_date, l.rating_period,
                                                             l.min_rd, coalesce(l.max_rd, l.starting_rd), l.rd_growth) AS rd_now,
                                   @extschema@.ledger_is_provisional(s.games, s.rd, s.last_game_date, l.provisional_games,
                                                                     l.provisional_rd, l.provisional_after, now()) AS provisional) n
        WHERE s.ledger_id = l.id AND s.scope = ledger_player_rank.scope AND s.player = ledger_player_rank.player
          AND s.games > 0 AND s.games >= coalesce(min_games, 0)
          AND (max_rd IS NULL OR n.rd_now IS NULL OR n.rd_now <= max_rd)
          AND (coalesce(include_provisional, true) OR NOT n.provisional);
        IF mine IS NULL AND seeds_shown THEN
            SELECT d.rating INTO mine
            FROM @extschema@.ledger_seeds d
            CROSS JOIN LATERAL (SELECT CASE WHEN seed_rd IS NOT NULL THEN coalesce(d.rd, seed_rd) END AS rd) r
            WHERE d.ledger_id = l.id AND d.scope = ledger_player_rank.scope AND d.player = ledger_player_rank.player
              AND (max_rd IS NULL OR r.rd IS NULL OR r.rd <= max_rd)
              AND NOT EXISTS (SELECT FROM @extschema@.ledger_standings s
                              WHERE s.ledger_id = d.ledger_id AND s.scope = d.scope AND s.player = d.player);
        END IF;
        IF mine IS NULL THEN
            RETURN NULL;
        END IF;
        SELECT count(DISTINCT u.rating) INTO above
        FROM (SELECT s.rating
              FROM @extschema@.ledger_standings s
              CROSS JOIN LATERAL (SELECT @extschema@.ledger_rd_now(s.rd, s.volatility, s.last_game_date, l.rating_period,
                                                                   l.min_rd, coalesce(l.max_rd, l.starting_rd), l.rd_growth) AS rd_now,
                                         @extschema@.ledger_is_provisional(s.games, s.rd, s.last_game_date,
                                                                           l.provisional_games, l.provisional_rd,
                                                                           l.provisional_after, now()) AS provisional) n
              WHERE s.ledger_id = l.id AND s.scope = ledger_player_rank.scope AND s.games > 0 AND s.rating > mine
                AND s.games >= coalesce(min_games, 0)
                AND (max_rd IS NULL OR n.rd_now IS NULL OR n.rd_now <= max_rd)
                AND (coalesce(include_provisional, true) OR NOT n.provisional)
              UNION ALL
              SELECT d.rating
              FROM @extschema@.ledger_seeds d
              CROSS JOIN LATERAL (SELECT CASE WHEN seed_rd IS NOT NULL THEN coalesce(d.rd, seed_rd) END AS rd) r
              WHERE seeds_shown AND d.ledger_id = l.id AND d.scope = ledger_player_rank.scope AND d.rating > mine
                AND (max_rd IS NULL OR r.rd IS NULL OR r.rd <= max_rd)
                AND NOT EXISTS (SELECT FROM @extschema@.ledger_standings s
                                WHERE s.ledger_id = d.ledger_id AND s.scope = d.scope AND s.player = d.player)) u;
        RETURN above + 1;
    END IF;
    -- seasons ended: the ratings and RDs as ledger_standings_now shows them, as the leaderboard
    SELECT s.rating INTO mine
    FROM @extschema@.ledger_standings_now s
    WHERE s.ledger = ledger_player_rank.ledger AND s.scope = ledger_player_rank.scope
      AND s.player = ledger_player_rank.player AND s.games >= coalesce(min_games, 0)
      AND (max_rd IS NULL OR s.rd IS NULL OR s.rd <= max_rd)
      AND (coalesce(include_provisional, true) OR NOT s.provisional);
    IF mine IS NULL THEN
        RETURN NULL;
    END IF;
    SELECT count(DISTINCT s.rating) INTO above
    FROM @extschema@.ledger_standings_now s
    WHERE s.ledger = ledger_player_rank.ledger AND s.scope = ledger_player_rank.scope AND s.rating > mine
      AND s.games >= coalesce(min_games, 0)
      AND (max_rd IS NULL OR s.rd IS NULL OR s.rd <= max_rd)
      AND (coalesce(include_provisional, true) OR NOT s.provisional);
    RETURN above + 1;
END
$$;

-- One player's history and standing, read through the primary keys (inlined into the caller's
-- query: a LATERAL call per user of a join is one probe each). The player is given in the type of
-- the games table's player column; it is matched as its text, as the writers keep it.
CREATE FUNCTION ledger_typed(value text, type_of anyelement) RETURNS anyelement
    STABLE PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'ledger_typed_wrapper';

CREATE FUNCTION ledger_player_history(ledger text, player anyelement, scope text DEFAULT '',
                                      last_games int DEFAULT NULL)
RETURNS TABLE (scope text, player anyelement, opponent anyelement, game_date timestamptz, game text,
               score float8, expected float8, rating_before float8, rating float8, change float8, rd float8,
               games int)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT e.scope, ledger_player_history.player,
       CASE WHEN a.multiplayer_rule IS NULL THEN @extschema@.ledger_typed(e.opponent, ledger_player_history.player) END,
       e.game_date, e.game, e.score, e.expected, e.rating_before, e.rating,
       e.rating OPERATOR(pg_catalog.-) e.rating_before, e.rd, e.games
FROM @extschema@.ledger_entries e
LEFT JOIN @extschema@.ledger_attachments a ON a.ledger_id OPERATOR(pg_catalog.=) e.ledger_id
WHERE e.ledger_id OPERATOR(pg_catalog.=)
          @extschema@.ledger_id_for_read(ledger_player_history.ledger, ledger_player_history.scope)
  AND e.scope OPERATOR(pg_catalog.=) ledger_player_history.scope
  AND e.player OPERATOR(pg_catalog.=) ledger_player_history.player::text
ORDER BY e.game_date DESC, e.game_key DESC
LIMIT ledger_player_history.last_games
$$;

CREATE FUNCTION ledger_player_standing(ledger text, player anyelement, scope text DEFAULT '')
RETURNS TABLE (scope text, player anyelement, rating float8, rd float8, games int, wins int, draws int,
               losses int, peak float8, streak int, provisional boolean, last_played timestamptz)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
-- ledger_standings_now's columns for one row (the regression test compares them), read with the
-- ledger's id as the index condition: a join by the view's ledger name would make the id a join
-- parameter, and the planner would hash the whole scope for a few users
SELECT s.scope, ledger_player_standing.player,
       @extschema@.ledger_season_rating(s.rating, s.last_game_date, l.starting_rating, z.ends, z.pulls,
                                        pg_catalog.now()),
       @extschema@.ledger_season_rd(@extschema@.ledger_rd_now(s.rd, s.volatility, s.last_game_date, l.rating_period,
                                                              l.min_rd, coalesce(l.max_rd, l.starting_rd), l.rd_growth),
                                    s.last_game_date, z.ends, z.rd_floors, pg_catalog.now()),
       s.games, s.wins, s.draws, s.losses, s.peak, s.streak,
       @extschema@.ledger_is_provisional(s.games, s.rd, s.last_game_date, l.provisional_games, l.provisional_rd,
                                         l.provisional_after, pg_catalog.now()),
       s.last_game_date
FROM @extschema@.ledger_standings s
JOIN @extschema@.ledgers l ON l.id OPERATOR(pg_catalog.=) s.ledger_id
LEFT JOIN LATERAL (
    SELECT pg_catalog.array_agg(x.ends_at) AS ends, pg_catalog.array_agg(x.rating_pull) AS pulls,
           pg_catalog.array_agg(x.rd_floor) AS rd_floors
    FROM @extschema@.ledger_seasons x
    WHERE x.ledger_id OPERATOR(pg_catalog.=) s.ledger_id
      AND (x.scope OPERATOR(pg_catalog.=) s.scope OR x.every_scope)) z ON true
WHERE s.ledger_id OPERATOR(pg_catalog.=)
          @extschema@.ledger_id_for_read(ledger_player_standing.ledger, ledger_player_standing.scope)
  AND s.scope OPERATOR(pg_catalog.=) ledger_player_standing.scope
  AND s.player OPERATOR(pg_catalog.=) ledger_player_standing.player::text
UNION ALL
-- a seeded player without games: the seed, provisional (as ledger_standings_now shows it)
SELECT d.scope, ledger_player_standing.player, d.rating,
       CASE WHEN l.rating_system OPERATOR(pg_catalog.=) 'glicko2' THEN coalesce(d.rd, l.starting_rd) END,
       0, 0, 0, 0, d.rating, 0, true, NULL::timestamptz
FROM @extschema@.ledger_seeds d
JOIN @extschema@.ledgers l ON l.id OPERATOR(pg_catalog.=) d.ledger_id
WHERE d.ledger_id OPERATOR(pg_catalog.=)
          @extschema@.ledger_id_for_read(ledger_player_standing.ledger, ledger_player_standing.scope)
  AND d.scope OPERATOR(pg_catalog.=) ledger_player_standing.scope
  AND d.player OPERATOR(pg_catalog.=) ledger_player_standing.player::text
  AND NOT EXISTS (SELECT FROM @extschema@.ledger_standings s
                  WHERE s.ledger_id OPERATOR(pg_catalog.=) d.ledger_id AND s.scope OPERATOR(pg_catalog.=) d.scope
                    AND s.player OPERATOR(pg_catalog.=) d.player)
$$;

-- A ledger's players as the games table types them (bigint, int, uuid, text, ...): the history
-- and standings of the two functions below join the application's players table without casts.
-- An attached ledger checks the type asked for; a detached one has no table to check against.
CREATE FUNCTION ledger_player_type(ledger text, wanted regtype) RETURNS regtype
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    found_ledger boolean;
    actual regtype;
BEGIN
    SELECT true, a.atttypid::regtype INTO found_ledger, actual
    FROM @extschema@.ledgers l
    LEFT JOIN @extschema@.ledger_attachments t ON t.ledger_id = l.id
    LEFT JOIN pg_attribute a ON a.attrelid = t.games AND a.attname = t.white_column AND NOT a.attisdropped
    WHERE l.name = ledger_player_type.ledger;
    IF found_ledger IS NULL THEN
        RAISE EXCEPTION 'ledger % does not exist', @extschema@.ledger_quoted(ledger)
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF actual IS NOT NULL AND actual <> wanted
       AND NOT (SELECT bool_and(typcategory = 'S') FROM pg_type WHERE oid IN (actual, wanted)) THEN
        RAISE EXCEPTION 'ledger "%" has players of type %, not %', ledger, actual, wanted
            USING ERRCODE = 'datatype_mismatch',
                  HINT = format('Pass NULL::%s as player_type.', actual);
    END IF;
    PERFORM @extschema@.ledger_kept_here(ledger);
    RETURN wanted;
END
$$;

CREATE FUNCTION ledger_history_of(ledger text, player_type anyelement)
RETURNS TABLE (scope text, player anyelement, opponent anyelement, game_date timestamptz, game text,
               score float8, expected float8, rating_before float8, rating float8, change float8, rd float8,
               games int)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    typed regtype := @extschema@.ledger_player_type(ledger, pg_typeof(player_type));
    -- a multiplayer game's entry names several opponents: there is no one opponent to type
    multiplayer boolean := EXISTS (SELECT FROM @extschema@.ledger_attachments t
                                   JOIN @extschema@.ledgers l ON l.id = t.ledger_id
                                   WHERE l.name = ledger_history_of.ledger AND t.multiplayer_rule IS NOT NULL);
BEGIN
    RETURN QUERY EXECUTE format(
        'SELECT h.scope, h.player::%1$s, CASE WHEN $2 THEN NULL ELSE h.opponent END::%1$s,
                h.game_date, h.game, h.score, h.expected, h.rating_before, h.rating, h.change, h.rd, h.games
         FROM @extschema@.ledger_history h WHERE h.ledger = $1 ORDER BY h.scope, h.player, h.game_date, h.sort_key',
        typed)
    USING ledger, multiplayer;
END
$$;

CREATE FUNCTION ledger_standings_of(ledger text, player_type anyelement)
RETURNS TABLE (scope text, player anyelement, rating float8, rd float8, games int, wins int, draws int,
               losses int, peak float8, streak int, provisional boolean, last_played timestamptz)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    RETURN QUERY EXECUTE format(
        'SELECT s.scope, s.player::%1$s, s.rating, s.rd, s.games, s.wins, s.draws, s.losses, s.peak, s.streak,
                s.provisional, s.last_played
         FROM @extschema@.ledger_standings_now s WHERE s.ledger = $1 ORDER BY s.scope, s.player',
        @extschema@.ledger_player_type(ledger, pg_typeof(player_type)))
    USING ledger;
END
$$;

CREATE FUNCTION ledger_prediction_quality(ledger text, scope text DEFAULT NULL, period interval DEFAULT NULL,
                                          rating_band float8 DEFAULT NULL)
RETURNS TABLE (period_start timestamptz, band_low float8, entries bigint, accuracy float8, brier float8,
               log_loss float8, upset_rate float8)
    STABLE LANGUAGE c AS 'MODULE_PATHNAME', 'ledger_prediction_quality_wrapper';
CREATE FUNCTION ledger_what_if(ledger text, k_factors float8[] DEFAULT NULL, taus float8[] DEFAULT NULL)
RETURNS TABLE (k_factor float8, tau float8, entries bigint, accuracy float8, brier float8, log_loss float8,
               upset_rate float8)
    STABLE LANGUAGE c AS 'MODULE_PATHNAME', 'ledger_what_if_wrapper';
ALTER FUNCTION ledger_prediction_quality(text, text, interval, float8) SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION ledger_what_if(text, float8[], float8[])
    SET search_path = pg_catalog, pg_temp;

-- Seed 004's rating categories ("Livelli di Abilità Ufficiali Skèmino"; pools: "Rating Pools &
-- Categories"), as ledger_upset_rate takes them: [{"name", "lower_bound", "upper_bound"}], upper
-- bounds excluded, NULL for none.
CREATE FUNCTION ledger_skemino_categories(pools boolean DEFAULT false) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
SET search_path = pg_catalog, pg_temp
AS $$
SELECT CASE WHEN pools THEN
    '[{"name": "Beginners", "lower_bound": 1000, "upper_bound": 1600},
      {"name": "Intermediate", "lower_bound": 1600, "upper_bound": 2200},
      {"name": "Expert", "lower_bound": 2200, "upper_bound": 2500},
      {"name": "Elite", "lower_bound": 2500, "upper_bound": null}]'::jsonb
ELSE
    '[{"name": "Principiante", "lower_bound": 1000, "upper_bound": 1200},
      {"name": "Dilettante Categoria D", "lower_bound": 1200, "upper_bound": 1400},
      {"name": "Dilettante Categoria C", "lower_bound": 1400, "upper_bound": 1600},
      {"name": "Dilettante Categoria B", "lower_bound": 1600, "upper_bound": 1800},
      {"name": "Dilettante Categoria A", "lower_bound": 1800, "upper_bound": 2000},
      {"name": "Candidato Maestro", "lower_bound": 2000, "upper_bound": 2200},
      {"name": "Maestro", "lower_bound": 2200, "upper_bound": 2400},
      {"name": "Maestro Internazionale", "lower_bound": 2400, "upper_bound": 2500},
      {"name": "Gran Maestro", "lower_bound": 2500, "upper_bound": 2700},
      {"name": "Super Gran Maestro", "lower_bound": 2700, "upper_bound": null}]'::jsonb
END
$$;

-- The upset rate by rating category (seed 004's KPI "Upset Rate: % vittorie underdog per categoria
-- rating"): each player's line of each game counts in the category of the player's rating before
-- it; an underdog win is a win of a player expected to score under half, as ledger_prediction_quality
-- counts it. Reads with the caller's rights.
CREATE FUNCTION ledger_upset_rate(ledger text, categories jsonb DEFAULT NULL, scope text DEFAULT NULL)
RETURNS TABLE (category text, lower_bound float8, upper_bound float8, games bigint, wins bigint,
               underdog_wins bigint, upset_rate float8)
LANGUAGE plpgsql STABLE PARALLEL SAFE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    -- 22023 for a ledger or scope that does not exist (NULL: every scope)
    found_id int := @extschema@.ledger_id_for_read(ledger_upset_rate.ledger, ledger_upset_rate.scope, true);
    wanted jsonb := coalesce(ledger_upset_rate.categories, @extschema@.ledger_skemino_categories());
BEGIN
    IF jsonb_typeof(wanted) IS DISTINCT FROM 'array' OR jsonb_array_length(wanted) = 0 OR EXISTS (
        SELECT FROM jsonb_array_elements(wanted) c(x)
        WHERE jsonb_typeof(c.x) IS DISTINCT FROM 'object'
           OR jsonb_typeof(c.x -> 'name') IS DISTINCT FROM 'string'
           OR jsonb_typeof(c.x -> 'lower_bound') IS DISTINCT FROM 'number'
           OR coalesce(jsonb_typeof(c.x -> 'upper_bound'), 'null') NOT IN ('number', 'null')
           OR (c.x ->> 'lower_bound')::float8 >= (c.x ->> 'upper_bound')::float8) THEN
        RAISE EXCEPTION 'categories must be a non-empty JSON array of {"name": text, "lower_bound": number, '
                        '"upper_bound": number or null} with lower_bound < upper_bound'
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    RETURN QUERY
    SELECT c.name, c.low, c.high, count(e.ledger_id),
           count(e.ledger_id) FILTER (WHERE e.score = 1),
           count(e.ledger_id) FILTER (WHERE e.score = 1 AND e.expected < 0.5),
           (count(e.ledger_id) FILTER (WHERE e.score = 1 AND e.expected < 0.5))::float8
               / nullif(count(e.ledger_id) FILTER (WHERE e.score = 1), 0)
    FROM jsonb_array_elements(wanted) WITH ORDINALITY AS j(x, n)
    CROSS JOIN LATERAL (SELECT j.x ->> 'name' AS name, (j.x ->> 'lower_bound')::float8 AS low,
                               (j.x ->> 'upper_bound')::float8 AS high) c
    LEFT JOIN @extschema@.ledger_entries e
        ON e.ledger_id = found_id
       AND (ledger_upset_rate.scope IS NULL OR e.scope = ledger_upset_rate.scope)
       AND e.rating_before >= c.low AND (c.high IS NULL OR e.rating_before < c.high)
    GROUP BY j.n, c.name, c.low, c.high
    ORDER BY j.n;
END
$$;

-- Seeds by a ledger's name, as the readers name it. Each call is one statement on ledger_seeds,
-- whose statement trigger replays each scope once: the array forms import thousands of seeds for
-- one replay of their scope. SECURITY INVOKER: row-level security and the seeds' trigger check
-- the role that calls.
CREATE FUNCTION ledger_seed(ledger text, players text[], ratings float8[], rds float8[] DEFAULT NULL,
                            volatilities float8[] DEFAULT NULL, scope text DEFAULT '')
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    found_id int;
    found_owner regrole;
    twice text;
    written bigint;
BEGIN
    IF ledger IS NULL OR scope IS NULL OR players IS NULL OR ratings IS NULL THEN
        RAISE EXCEPTION 'ledger, scope, players and ratings must not be NULL' USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT l.id, l.owner INTO found_id, found_owner FROM @extschema@.ledgers l WHERE l.name = ledger;
    IF found_id IS NULL THEN
        RAISE EXCEPTION 'ledger % does not exist', @extschema@.ledger_quoted(ledger)
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    PERFORM @extschema@.ledger_kept_here(ledger);
    IF NOT pg_has_role(found_owner, 'USAGE') THEN
        RAISE EXCEPTION 'permission denied: only a member of the owner of ledger % may seed it',
            @extschema@.ledger_quoted(ledger) USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF cardinality(ratings) <> cardinality(players)
       OR cardinality(rds) <> cardinality(players) OR cardinality(volatilities) <> cardinality(players) THEN
        RAISE EXCEPTION 'players (%), ratings (%), rds (%) and volatilities (%) must have the same length',
            cardinality(players), cardinality(ratings), coalesce(cardinality(rds)::text, 'NULL'),
            coalesce(cardinality(volatilities)::text, 'NULL')
            USING ERRCODE = 'array_subscript_error';
    END IF;
    IF array_position(players, NULL) IS NOT NULL OR array_position(ratings, NULL) IS NOT NULL THEN
        RAISE EXCEPTION 'a player or rating is NULL (at %)',
            coalesce(array_position(players, NULL), array_position(ratings, NULL))
            USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT p INTO twice FROM unnest(players) p GROUP BY p HAVING count(*) > 1 ORDER BY p LIMIT 1;
    IF twice IS NOT NULL THEN
        RAISE EXCEPTION 'player % is seeded twice', @extschema@.ledger_quoted(twice)
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    -- (a seed written again unchanged is left as it is: it replays nothing)
    INSERT INTO @extschema@.ledger_seeds AS d (ledger_id, scope, player, rating, rd, volatility)
    SELECT found_id, ledger_seed.scope, u.player, u.rating, u.rd, u.volatility
    FROM unnest(players, ratings, coalesce(rds, '{}'), coalesce(volatilities, '{}')) u(player, rating, rd, volatility)
    ON CONFLICT ON CONSTRAINT ledger_seeds_pkey DO UPDATE
        SET rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility
        WHERE (d.rating, d.rd, d.volatility) IS DISTINCT FROM (excluded.rating, excluded.rd, excluded.volatility);
    GET DIAGNOSTICS written = ROW_COUNT;
    RETURN written;
END
$$;

CREATE FUNCTION ledger_seed(ledger text, player text, rating float8, rd float8 DEFAULT NULL,
                            volatility float8 DEFAULT NULL, scope text DEFAULT '')
RETURNS boolean
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT @extschema@.ledger_seed(ledger, ARRAY[player], ARRAY[rating], ARRAY[rd], ARRAY[volatility], scope)
       OPERATOR(pg_catalog.>) 0::bigint
$$;

CREATE FUNCTION ledger_unseed(ledger text, players text[], scope text DEFAULT '')
RETURNS bigint
LANGUAGE plpgsql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    found_id int;
    found_owner regrole;
    removed bigint;
BEGIN
    IF ledger IS NULL OR scope IS NULL OR players IS NULL THEN
        RAISE EXCEPTION 'ledger, scope and players must not be NULL' USING ERRCODE = 'null_value_not_allowed';
    END IF;
    SELECT l.id, l.owner INTO found_id, found_owner FROM @extschema@.ledgers l WHERE l.name = ledger;
    IF found_id IS NULL THEN
        RAISE EXCEPTION 'ledger % does not exist', @extschema@.ledger_quoted(ledger)
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    PERFORM @extschema@.ledger_kept_here(ledger);
    IF NOT pg_has_role(found_owner, 'USAGE') THEN
        RAISE EXCEPTION 'permission denied: only a member of the owner of ledger % may seed it',
            @extschema@.ledger_quoted(ledger) USING ERRCODE = 'insufficient_privilege';
    END IF;
    DELETE FROM @extschema@.ledger_seeds d
    WHERE d.ledger_id = found_id AND d.scope = ledger_unseed.scope AND d.player = ANY (players);
    GET DIAGNOSTICS removed = ROW_COUNT;
    RETURN removed;
END
$$;

CREATE FUNCTION ledger_unseed(ledger text, player text, scope text DEFAULT '')
RETURNS boolean
LANGUAGE sql VOLATILE
SET search_path = pg_catalog, pg_temp
AS $$
SELECT @extschema@.ledger_unseed(ledger, ARRAY[player], scope) OPERATOR(pg_catalog.>) 0::bigint
$$;

SELECT pg_catalog.pg_extension_config_dump('ledgers', '');
SELECT pg_catalog.pg_extension_config_dump('ledgers_id_seq', '');
SELECT pg_catalog.pg_extension_config_dump('ledger_attachments', '');
SELECT pg_catalog.pg_extension_config_dump('ledger_entries', '');
SELECT pg_catalog.pg_extension_config_dump('ledger_standings', '');
SELECT pg_catalog.pg_extension_config_dump('ledger_scopes', '');
SELECT pg_catalog.pg_extension_config_dump('ledger_seeds', '');
SELECT pg_catalog.pg_extension_config_dump('ledger_seasons', '');

COMMENT ON TABLE ledgers IS
    'Rating ledgers: a rating system (elo: starting_rating, k_factor; fide: starting_rating, K by FIDE''s rules '
    'from each player''s games and peak; glicko2: starting_rating, starting_rd, starting_volatility, tau, '
    'rating_period, glicko2_rule (glickman: each game a full one-game rating period, the default; lichess: '
    'without step 6, the rule of ledgers made before 0.13.0), bounds min_rd, max_rd (NULL: starting_rd) and '
    'max_volatility, step 5''s tolerance volatility_epsilon (NULL: 1e-6), rd_growth (how inactivity grows the RD); '
    'skemino: starting_rating), limits (max_change per game, max_period_change per change_period, '
    'max_change_policy clamp or reject (23514), rating_floor) and when a player is provisional (fewer than '
    'provisional_games, an RD above provisional_rd, or no game for provisional_after). '
    'Settings are checked when written (23514); changing them rebuilds the ledger. owner may attach and change '
    'it. kept_in: NULL, or the table of a client of pg_rating that keeps the ledger''s history (a Random Chess '
    'ranking: elo_history); such a ledger is written by pg_rating only, with its client''s settings.';
COMMENT ON FUNCTION ledger_kept_here(text) IS
    'true unless the ledger keeps its history in a client''s table (kept_in), where it raises 0A000: the readers of '
    'ledger_entries and ledger_standings call it.';
COMMENT ON TABLE ledger_attachments IS
    'The games table of each ledger and its columns (written by ledger_attach and ledger_detach only).';
COMMENT ON TABLE ledger_entries IS
    'Derived: each player''s line of each rated game, with the standing before and after it; written only by '
    'pg_rating.';
COMMENT ON TABLE ledger_standings IS 'Derived: each player''s current standing per ledger and scope.';
COMMENT ON TABLE ledger_scopes IS 'Derived: the lock row of each (ledger, scope); writes counts its writers.';
COMMENT ON FUNCTION check_ledger() IS
    'Trigger of ledgers: checks the settings (23514) and the owner, and detaches a deleted ledger.';
COMMENT ON FUNCTION rebuild_changed_ledger() IS 'Trigger of ledgers: rebuilds a ledger whose settings changed.';
COMMENT ON FUNCTION ledger_games_changed() IS
    'Trigger of a games table with ledgers attached (one set per table, created by ledger_attach): keeps every '
    'ledger of the table equal to a replay of its games.';
COMMENT ON FUNCTION ledger_related_changed() IS
    'Trigger of a table that ledgers'' column paths reach (one set per table, created by ledger_attach): re-rates '
    'the games whose paths reach the rows a statement changed, as a change of their own table would.';
COMMENT ON FUNCTION ledger_attach(text, regclass, text, text, text, text, text, jsonb, text, text, text) IS
    'Attaches a ledger to a games table: names its key (integer, text or uuid), date, two player columns, result '
    '(a score in [0, 1], or text values mapped by result_map to a score, "unrated" or "double_loss"), optional '
    'scope columns (comma-separated), a filter (a boolean expression over the table''s columns) and a rated_column '
    '(boolean: rated only when true). Any column but the key may be a path a -> b -> c through single-column foreign '
    'keys, whose tables'' changes re-rate what they touch. Checks them (42703, 42804, 22023, 42830, 0A000), '
    'creates the triggers and rates the games already there; returns the entries written. Only for a member of '
    'the table''s owner, of the ledger''s owner and of the owner of each table a path reaches (42501).';
COMMENT ON FUNCTION ledger_detach(text) IS 'Drops the triggers of a ledger''s games table; the history stays.';
COMMENT ON FUNCTION ledger_rebuild(text) IS
    'Replays a ledger from its games table from scratch; returns the number of entries written.';
COMMENT ON VIEW ledger_history IS 'Every rating change of every ledger, with the standing after it.';
COMMENT ON VIEW ledger_standings_now IS
    'Current standings with the RD grown by inactivity as of now (Glicko-2 with a rating period), the provisional '
    'flag, opponents'' average and linear performance (average + 400 (wins - losses) / games); seeded players '
    'without games with their seed, 0 games, provisional, no last game.';
COMMENT ON FUNCTION ledger_leaderboard(text, text, int, float8, boolean, int, int) IS
    'One page of a ledger''s standings in a scope by rating, dense-ranked, with min-games, max-RD and provisional '
    'filters; conservative = rating - 2 RD. Seeded players without games are shown with 0 games, provisional '
    '(min_games 0 and include_provisional, the defaults). Reads only the rows down to the page '
    '(ledger_standings_by_rating, ledger_seeds_by_rating) unless a season of the scope has ended, whose resets '
    'reorder the scope.';
COMMENT ON FUNCTION ledger_player_type(text, regtype) IS
    'The type a ledger''s players have in its games table, checked against wanted (42804 when an attached ledger''s '
    'player column has another type; text and varchar count alike); 22023 for an unknown ledger.';
COMMENT ON FUNCTION ledger_history_of(text, anyelement) IS
    'ledger_history with player and opponent in the type of player_type (e.g. NULL::bigint), to join the '
    'application''s players table without casts; opponent is NULL in a multiplayer ledger. Errors as '
    'ledger_player_type.';
COMMENT ON FUNCTION ledger_standings_of(text, anyelement) IS
    'ledger_standings_now with player in the type of player_type (e.g. NULL::uuid), to join the application''s '
    'players table without casts. Errors as ledger_player_type.';
COMMENT ON FUNCTION ledger_rd_now(float8, float8, timestamptz, interval, float8, float8, text) IS
    'A player''s RD as of now: the stored RD grown by the rating periods since last_played by rd_growth (elapsed, '
    'whole_periods or whole_periods_rating_scale), within [min_rd, max_rd], as the ledger''s writer grows it; the '
    'RD as given without a rating period, RD or last game.';
COMMENT ON FUNCTION ledger_is_provisional(int, float8, timestamptz, int, float8, interval, timestamptz) IS
    'Whether a player is provisional as of now (the library''s rule, as ledger_standings_now shows it): fewer games '
    'than provisional_games, an RD above provisional_rd, or the last game more than provisional_after before now; '
    'NULL only when games or provisional_games is NULL and neither other test holds.';
COMMENT ON FUNCTION ledger_season_rating(float8, timestamptz, float8, timestamptz[], float8[], timestamptz) IS
    'A rating as of now: pulled toward starting_rating by each season (its end and rating_pull, in the arrays) that '
    'ended after last_played and not after now, in order of end, each step at the stored precision, as the '
    'player''s next game starts from it; the rating as given without a last game or season.';
COMMENT ON FUNCTION ledger_season_rd(float8, timestamptz, timestamptz[], float8[], timestamptz) IS
    'An RD as of now after the seasons: rd (grown by inactivity, ledger_rd_now) raised to the rd_floor of each '
    'season (in the arrays) that ended after last_played and not after now; NULL for a NULL rd.';
COMMENT ON FUNCTION ledger_performance(float8, int, int, int) IS
    'The linear performance of a record: opponents_sum / games + 400 (wins - losses) / games; NULL for 0 games.';
COMMENT ON FUNCTION ledger_season_start(timestamptz[], timestamptz) IS
    'Where the season ending at ends_at starts: the latest of season_ends (its scope''s seasons) before it; NULL '
    'for the first season.';
COMMENT ON FUNCTION ledger_rating_at(text, text, timestamptz, text) IS
    'A player''s rating (and RD, games) after the latest game dated <= at; before any, the player''s seed, else '
    'the starting rating (games 0).';
COMMENT ON FUNCTION ledger_quoted(text) IS
    'A value as error messages quote it: "value", or its first 100 characters, an ellipsis and its length.';
COMMENT ON FUNCTION ledger_scope(text[]) IS
    'The scope text of a ledger scoped by several columns, as the writers write it (ROW(a, b)::text), from the '
    'columns'' values as text: ledger_scope(org_id::text, game_type); the value itself for one column.';
COMMENT ON FUNCTION ledger_id_for_read(text, text, boolean) IS
    'The id of a ledger a reader names, checked as the readers check it: 22023 for a ledger that does not exist or '
    'that the reader may not see, for a scope without standings or seeds (a multi-column scope not written as a '
    'row: see ledger_scope) and for '''' in a scoped ledger; 0A000 for a ledger a client keeps; 22004 for a NULL ledger, '
    'or a NULL scope unless any_scope.';
COMMENT ON FUNCTION ledger_typed(text, anyelement) IS
    'value converted to the type of type_of (a NULL of that type) by the type''s input function.';
COMMENT ON FUNCTION ledger_player_history(text, anyelement, text, int) IS
    'One player''s history in a ledger''s scope, newest first (the last last_games games; NULL: all), with player '
    'and opponent in the type of player (the games table''s player column), read through the primary key; '
    'inlined, so a LATERAL call per row of a join is one probe each. Errors as ledger_id_for_read.';
COMMENT ON FUNCTION ledger_player_standing(text, anyelement, text) IS
    'One player''s row of ledger_standings_now in a ledger''s scope (a seeded player without games: the seed, '
    'provisional; none for a player without either), player in its own type, read through the primary keys; '
    'inlined, so a LATERAL call per row of a join is one probe each. Errors as ledger_id_for_read.';
COMMENT ON FUNCTION ledger_player_rank(text, text, text, int, float8, boolean) IS
    'A player''s dense rank in a ledger''s scope by rating among the players that ledger_leaderboard shows with the '
    'same filters (min_games, max_rd, include_provisional): the rank the leaderboard''s page shows; NULL for a '
    'player without games or seed, or left out by the filters. Errors as ledger_id_for_read.';
COMMENT ON COLUMN ledgers.notify_channel IS
    'A channel that the writers pg_notify (at commit) with a JSON payload per player whose standing a statement '
    'changed: {"ledger", "scope", "player", "rating", "rd", "games", "last_played"}; a rebuild sends one '
    '{"ledger", "rebuilt": true}. NULL: no notifications.';
COMMENT ON FUNCTION ledger_prediction_quality(text, text, interval, float8) IS
    'How well a ledger''s ratings predicted its games, over every player''s line of every game: accuracy of the '
    'favourite in decisive games, Brier score, log-loss of the expected scores, upset rate; overall, or by period '
    '(date_bin) and by rating band (of the rating before the game).';
COMMENT ON FUNCTION ledger_skemino_categories(boolean) IS
    'Seed 004''s rating categories as ledger_upset_rate takes them (JSON array of name, lower_bound, upper_bound; '
    'upper bounds excluded, null for none): the ten skill levels from Principiante (1000) to Super Gran Maestro '
    '(2700+), or with pools the four rating pools (Beginners 1000, Intermediate 1600, Expert 2200, Elite 2500+).';
COMMENT ON FUNCTION ledger_upset_rate(text, jsonb, text) IS
    'The upset rate by rating category (seed 004): per category (default: ledger_skemino_categories()), the '
    'players'' lines of games whose rating before the game falls in it, their wins, the wins of a player expected '
    'to score under half (underdog_wins) and underdog_wins / wins (NULL without a win). 22023 for a ledger or '
    'scope that does not exist or categories that are not an array of {name, lower_bound, upper_bound}.';
COMMENT ON FUNCTION ledger_what_if(text, float8[], float8[]) IS
    'The same metrics for the ledger''s own setting (first row) and for other K factors or taus, replayed in memory '
    'over the ledger''s games; nothing is written. A setting that cannot change the ledger''s ratings is refused '
    '(22023): K factors but for elo, taus but for glicko2 by Glickman''s rule, with a rating_period or with the '
    'period rule of multiplayer games.';
COMMENT ON FUNCTION ledger_seed(text, text[], float8[], float8[], float8[], text) IS
    'Seeds players of a ledger''s scope by the ledger''s name (imported ratings, with RDs and volatilities or NULL '
    'for the ledger''s start): inserts or changes their ledger_seeds rows in one statement, so the scope is replayed '
    'once; returns the seeds written (a seed unchanged is not). 22023 for an unknown ledger or a player given twice, '
    '2202E for arrays of different lengths, 22004 for NULLs, 42501 unless a member of the ledger''s owner, 23514 '
    'for a seed out of bounds, 0A000 for a ledger a client keeps.';
COMMENT ON FUNCTION ledger_seed(text, text, float8, float8, float8, text) IS
    'Seeds one player of a ledger''s scope by the ledger''s name (ledger_seed with arrays of one); true when the '
    'seed was written, false when it was there unchanged. Errors as the array form.';
COMMENT ON FUNCTION ledger_unseed(text, text[], text) IS
    'Removes the seeds of players of a ledger''s scope by the ledger''s name, in one statement (one replay of the '
    'scope); returns the seeds removed. Errors as ledger_seed.';
COMMENT ON FUNCTION ledger_unseed(text, text, text) IS
    'Removes one player''s seed by the ledger''s name; true when there was one. Errors as ledger_seed.';
COMMENT ON TABLE ledger_seeds IS
    'Starting ratings (and RD, volatility) of players who come with one; a change replays the player''s scope.';
COMMENT ON FUNCTION reseed_ledger() IS 'Row trigger of ledger_seeds: checks a seed (its ledger''s owner, its bounds) and notes its player for reseed_ledger_scopes.';
COMMENT ON FUNCTION reseed_ledger_scopes() IS 'Statement trigger of ledger_seeds: replays each scope whose seeds the statement changed, once, from the earliest first game of its reseeded players.';
COMMENT ON FUNCTION ledger_attach_multiplayer(text, regclass, text, text, text, text, text, boolean, text, text, text) IS
    'Attaches a ledger to a participants table (one row per player per game: game key, date, player, placement; lower '
    'is better unless higher_is_better). rule pairwise averages the two-player updates against every other player '
    '(any system); period rates each player in one Glicko-2 period against all others. A game is rated once it has '
    'two rated participants; a NULL placement is not rated yet. Columns but the game''s may be paths a -> b -> c through '
    'foreign keys, and rated_column a boolean (or path) that a game must have true to be rated, as in ledger_attach.';
COMMENT ON TABLE ledger_seasons IS
    'Season ends of a ledger''s scope (or, every_scope, of all its scopes): ratings pulled toward the start by '
    'rating_pull and RDs raised to rd_floor at ends_at, as an event of the replay; a change replays the scope (every '
    'scope) from the end.';
COMMENT ON FUNCTION reseason_ledger() IS
    'Trigger of ledger_seasons: replays the scope (every scope of the ledger for a season of every scope) from the '
    'season''s end.';
COMMENT ON VIEW ledger_season_standings IS
    'Each season''s final standings: every player''s standing after the last game before the season''s end '
    '(career record), and the season''s own: season_games, season_wins, season_draws, season_losses and '
    'season_peak over the games from season_starts_at (the scope''s previous season end; NULL: from the first '
    'game) to ends_at (season_peak NULL without a game in the season).';
