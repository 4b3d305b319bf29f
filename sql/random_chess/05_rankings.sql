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
        CONSTRAINT starting_elo_positive CHECK (starting_elo > 0::numeric AND starting_elo < 100000::numeric),
    include_bots          bool NOT NULL,
    k_factor              numeric NOT NULL,
    -- Added by pg_rating: the rating system of the ranking and its parameters. Their bounds are
    -- the engine's rule for every rating system's settings, a ledger's too
    -- (pg_rating_core::rating::system, checked when a ranking is written: 23514).
    rating_system         varchar NOT NULL DEFAULT 'elo'
        CONSTRAINT known_rating_system CHECK (@extschema@.rating_system_known(rating_system)),
    glicko2_tau           float8 NOT NULL DEFAULT 0.5,
    starting_rd           float8 NOT NULL DEFAULT 350,
    starting_volatility   float8 NOT NULL DEFAULT 0.06,
    rating_period         interval
        CONSTRAINT rating_period_positive CHECK (rating_period > interval '0'),
    provisional_rd        float8 NOT NULL DEFAULT 110
        CONSTRAINT provisional_rd_not_negative CHECK (provisional_rd >= 0::float8 AND provisional_rd < 'Infinity'),
    provisional_games     int NOT NULL DEFAULT 0
        CONSTRAINT provisional_games_not_negative CHECK (provisional_games >= 0),
    CONSTRAINT playtime_window CHECK (playtime_max IS NULL OR playtime_min <= playtime_max)
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
JOIN @extschema@.service_accounts w
  ON w.service_id = g.service_id AND w.user_id_in_service OPERATOR(pg_catalog.=) g.white_player
JOIN @extschema@.service_accounts b
  ON b.service_id = g.service_id AND b.user_id_in_service OPERATOR(pg_catalog.=) g.black_player
CROSS JOIN @extschema@.rankings r
WHERE g.service_id = 1
  AND g.is_ranked
  AND (r.include_bots OR NOT (w.is_bot OR b.is_bot))
  AND @extschema@.clock_base_time(g.clock, r.extra_move_multiplier) >= r.playtime_min
  AND (r.playtime_max IS NULL OR @extschema@.clock_base_time(g.clock, r.extra_move_multiplier) < r.playtime_max);

-- The SQL functions below are inlined into the caller's query and so resolve names with the
-- caller's search_path: where pg_catalog has no operator for exactly the types compared (varchar
-- = varchar, numeric <= float8) they name pg_catalog's, which no operator of another schema can
-- stand in for.
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
    WHERE e.ranking_id = r.id AND e.user_id_in_service OPERATOR(pg_catalog.=) a.user_id_in_service
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
       @extschema@.game_score(g.result, g.white_player OPERATOR(pg_catalog.=) e.user_id_in_service) AS score
FROM @extschema@.elo_history e
JOIN @extschema@.rankings r ON r.id = e.ranking_id
JOIN @extschema@.service_games g ON g.id = e.game_id
LEFT JOIN @extschema@.elo_history p ON p.id = e.previous_entry
JOIN @extschema@.elo_history o
  ON o.game_id = e.game_id AND o.ranking_id = e.ranking_id
     AND o.user_id_in_service OPERATOR(pg_catalog.<>) e.user_id_in_service
LEFT JOIN @extschema@.elo_history op ON op.id = o.previous_entry;

-- Every ranking's players ordered by rating, with their record.
CREATE VIEW leaderboard AS
SELECT rank() OVER (PARTITION BY p.ranking_id ORDER BY p.rating DESC)::int AS rank,
       p.ranking_id, p.service_id, p.user_id_in_service, a.display_name,
       p.rating, p.rd, p.volatility, p.games, p.wins, p.draws, p.losses, p.peak_rating,
       (p.games < r.provisional_games OR coalesce(p.rd OPERATOR(pg_catalog.>) r.provisional_rd, false)) AS provisional,
       p.last_game_date
FROM @extschema@.ranking_players p
JOIN @extschema@.rankings r ON r.id = p.ranking_id
JOIN @extschema@.service_accounts a
  ON a.service_id = p.service_id AND a.user_id_in_service OPERATOR(pg_catalog.=) p.user_id_in_service;

CREATE FUNCTION ranking_leaderboard(ranking int, min_games int DEFAULT 0, max_rd float8 DEFAULT NULL,
                                    include_provisional boolean DEFAULT true)
RETURNS TABLE (rank int, service_id int, user_id_in_service varchar, display_name varchar, rating numeric,
               rd numeric, volatility numeric, games int, wins int, draws int, losses int,
               peak_rating numeric, provisional boolean, last_game_date timestamptz)
LANGUAGE sql STABLE PARALLEL SAFE
AS $$
SELECT (rank() OVER (ORDER BY p.rating DESC))::int, p.service_id, p.user_id_in_service, a.display_name,
       p.rating, p.rd, p.volatility, p.games, p.wins, p.draws, p.losses, p.peak_rating,
       (p.games < r.provisional_games OR coalesce(p.rd OPERATOR(pg_catalog.>) r.provisional_rd, false)), p.last_game_date
FROM @extschema@.ranking_players p
JOIN @extschema@.rankings r ON r.id = p.ranking_id
JOIN @extschema@.service_accounts a
  ON a.service_id = p.service_id AND a.user_id_in_service OPERATOR(pg_catalog.=) p.user_id_in_service
WHERE p.ranking_id = ranking
  AND p.games >= coalesce(min_games, 0)
  AND (max_rd IS NULL OR p.rd IS NULL OR p.rd OPERATOR(pg_catalog.<=) max_rd)
  AND (coalesce(include_provisional, true)
       OR NOT (p.games < r.provisional_games OR coalesce(p.rd OPERATOR(pg_catalog.>) r.provisional_rd, false)))
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
 AND (max_rd IS NULL OR o.rd IS NULL OR o.rd OPERATOR(pg_catalog.<=) max_rd)
WHERE me.ranking_id = ranking AND me.service_id = 1 AND me.user_id_in_service OPERATOR(pg_catalog.=) player
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
CREATE TRIGGER check_cascaded_delete
    BEFORE DELETE ON elo_history
    FOR EACH ROW EXECUTE FUNCTION check_cascaded_delete();
CREATE TRIGGER refuse_foreign_write
    BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ranking_players
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();
CREATE TRIGGER refuse_foreign_write
    BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ranking_writes
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();

-- The functions that write the history run as the extension's owner, so applications need no
-- write privilege on elo_history or ranking_players; their search_path is pinned.
ALTER FUNCTION rate_service_games() SECURITY DEFINER SET search_path = pg_catalog, pg_temp
    SET plan_cache_mode = force_generic_plan;
ALTER FUNCTION rerate_redated_service_game() SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION recalculate_changed_ranking() SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION rebuild_ranking(int) SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION note_rankings_change() SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION forget_deleted_rankings() SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
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
