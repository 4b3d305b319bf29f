-- pg_rating 0.12.0 -> 0.13.0: several applications in one database (security between apps).

-- Every function runs with search_path = pg_catalog, pg_temp: no schema a non-superuser can
-- create in (the extension's schema is usually public, where a database owner may create) is
-- searched while pg_rating's code runs; its SQL names pg_rating's objects with their schema.
DO $$
DECLARE
    f regprocedure;
BEGIN
    FOR f IN
        SELECT p.oid
        FROM pg_catalog.pg_proc p
        JOIN pg_catalog.pg_depend d ON d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass::pg_catalog.oid
                                   AND d.objid OPERATOR(pg_catalog.=) p.oid AND d.deptype OPERATOR(pg_catalog.=) 'e'
        JOIN pg_catalog.pg_extension x ON x.oid OPERATOR(pg_catalog.=) d.refobjid
        WHERE x.extname OPERATOR(pg_catalog.=) 'pg_rating'
          AND EXISTS (SELECT FROM pg_catalog.unnest(p.proconfig) c WHERE c OPERATOR(pg_catalog.~~) 'search_path=%')
    LOOP
        EXECUTE pg_catalog.format('ALTER FUNCTION %s SET search_path = pg_catalog, pg_temp', f);
    END LOOP;
END
$$;

-- The columns of ledgers of 0.13.0, first: the readers below name them. In the order a fresh
-- install has them.
-- notify_channel: live rating changes (issue 32)
ALTER TABLE ledgers ADD COLUMN notify_channel text
    CONSTRAINT ledger_notify_channel_name CHECK (octet_length(notify_channel) BETWEEN 1 AND 63);
-- Glicko-2 as the documents write it (issue 32): a ledger's per-game Glicko-2 rule (existing ledgers
-- keep the lichess rule they rated by, the value their rows get when the column is added; new
-- ledgers take Glickman's full one-game period), its bounds, step 5's tolerance, its RD growth.
ALTER TABLE ledgers ADD COLUMN glicko2_rule text NOT NULL DEFAULT 'lichess'
    CONSTRAINT ledger_glicko2_rule_known CHECK (glicko2_rule IN ('glickman', 'lichess'));
ALTER TABLE ledgers ALTER COLUMN glicko2_rule SET DEFAULT 'glickman';
ALTER TABLE ledgers ADD COLUMN min_rd float8;
ALTER TABLE ledgers ADD COLUMN max_rd float8;
ALTER TABLE ledgers ADD COLUMN max_volatility float8;
-- Glicko-2 step 5.4's tolerance (NULL: Glickman's 1e-6; glicko2js, seed 000's library: 1e-7)
ALTER TABLE ledgers ADD COLUMN volatility_epsilon float8;
-- Glicko-2: how the rating periods without games grow the RD (seed 003 §11: whole weeks, on the
-- rating scale); existing ledgers keep 'elapsed', the rule so far
ALTER TABLE ledgers ADD COLUMN rd_growth text NOT NULL DEFAULT 'elapsed'
    CONSTRAINT ledger_rd_growth_known
    CHECK (rd_growth IN ('elapsed', 'whole_periods', 'whole_periods_rating_scale'));
-- a player is provisional again after this long without a game (seed 004's "Time Decay": its "?"
-- mark after prolonged inactivity); NULL, as every ledger so far: never
ALTER TABLE ledgers ADD COLUMN provisional_after interval
    CONSTRAINT ledger_provisional_after_positive CHECK (provisional_after > interval '0');

-- A player's RD as of now by the library's rule (the ledger's rd_growth and RD bounds, as the writer
-- grows it), for the readers below; the SQL copy of 0.12.0 (rating_period growth, capped at the
-- starting RD) is dropped at the end of this script, once no reader names it.
CREATE FUNCTION ledger_rd_now(rd float8, volatility float8, last_played timestamptz, rating_period interval,
                              min_rd float8, max_rd float8, rd_growth text)
RETURNS float8
    STABLE PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'ledger_rd_now_wrapper';
COMMENT ON FUNCTION ledger_rd_now(float8, float8, timestamptz, interval, float8, float8, text) IS
    'A player''s RD as of now: the stored RD grown by the rating periods since last_played by rd_growth (elapsed, '
    'whole_periods or whole_periods_rating_scale), within [min_rd, max_rd], as the ledger''s writer grows it; the '
    'RD as given without a rating period, RD or last game.';

-- Seasons of every scope (issue 32, item 4; seed 003, section 13: a site-wide season, titles
-- rated after it was created included). First, as the readers below and the copy
-- ledger_seasons_in_force (LIKE ledger_seasons) name the column.
ALTER TABLE ledger_seasons ADD COLUMN every_scope boolean NOT NULL DEFAULT false
    CONSTRAINT season_of_every_scope_unscoped CHECK (NOT every_scope OR scope OPERATOR(pg_catalog.=) ''::text);
COMMENT ON TABLE ledger_seasons IS
    'Season ends of a ledger''s scope (or, every_scope, of all its scopes): ratings pulled toward the start by '
    'rating_pull and RDs raised to rd_floor at ends_at, as an event of the replay; a change replays the scope (every '
    'scope) from the end.';
COMMENT ON FUNCTION reseason_ledger() IS
    'Trigger of ledger_seasons: replays the scope (every scope of the ledger for a season of every scope) from the '
    'season''s end.';

-- The functions that check who acts run as the role that acts (the library takes the owner's
-- rights for their writes after the check).
ALTER FUNCTION check_ledger() SECURITY INVOKER;
ALTER FUNCTION reseed_ledger() SECURITY INVOKER;
ALTER FUNCTION reseason_ledger() SECURITY INVOKER;
ALTER FUNCTION ledger_attach(text, regclass, text, text, text, text, text, jsonb, text, text) SECURITY INVOKER;
ALTER FUNCTION ledger_attach_multiplayer(text, regclass, text, text, text, text, text, boolean, text, text)
    SECURITY INVOKER;
ALTER FUNCTION ledger_detach(text) SECURITY INVOKER;
ALTER FUNCTION ledger_rebuild(text) SECURITY INVOKER;
ALTER FUNCTION ledger_what_if(text, float8[], float8[]) SECURITY INVOKER;

-- Derived rows of a cascade: deleted only once their parent row is gone.
CREATE FUNCTION check_cascaded_delete() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'check_cascaded_delete_wrapper';
REVOKE ALL ON FUNCTION check_cascaded_delete() FROM PUBLIC;
ALTER FUNCTION check_cascaded_delete() SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION check_cascaded_delete() IS
    'Row trigger (BEFORE DELETE) of the derived tables that a foreign key''s cascade empties with their parent '
    '(ledger_attachments, elo_history, swiss_tournament_progress, swiss_tournament_entrants, '
    'swiss_tournament_standings): outside pg_rating''s own code a row is deleted only once its parent row is gone '
    '(42501 otherwise).';
CREATE TRIGGER check_cascaded_delete BEFORE DELETE ON ledger_attachments
    FOR EACH ROW EXECUTE FUNCTION check_cascaded_delete();

-- Isolation between applications: row-level security on the ledgers' tables, the views read with
-- the reader's privileges (sql/ledger_policies.sql).
ALTER TABLE ledgers ENABLE ROW LEVEL SECURITY;
ALTER TABLE ledger_attachments ENABLE ROW LEVEL SECURITY;
ALTER TABLE ledger_entries ENABLE ROW LEVEL SECURITY;
ALTER TABLE ledger_standings ENABLE ROW LEVEL SECURITY;
ALTER TABLE ledger_scopes ENABLE ROW LEVEL SECURITY;
ALTER TABLE ledger_seeds ENABLE ROW LEVEL SECURITY;
ALTER TABLE ledger_seasons ENABLE ROW LEVEL SECURITY;

-- Whether a role may read the games table of a ledger: what makes a ledger visible to a reader
-- who is not a member of its owner. (SECURITY DEFINER, so that the policy of ledgers needs no
-- privilege on ledger_attachments: it reveals only what has_table_privilege does.)
CREATE FUNCTION ledger_games_readable(ledger_id int, reader name) RETURNS boolean
LANGUAGE sql STABLE PARALLEL SAFE SECURITY DEFINER
SET search_path = pg_catalog, pg_temp
AS $$
SELECT coalesce(pg_catalog.has_table_privilege(reader, a.games::pg_catalog.oid, 'SELECT'), false)
FROM @extschema@.ledger_attachments a
WHERE a.ledger_id OPERATOR(pg_catalog.=) ledger_games_readable.ledger_id
$$;
COMMENT ON FUNCTION ledger_games_readable(int, name) IS
    'Whether the role reader may read the games table ledger ledger_id is attached to (NULL when it is not '
    'attached): the row-level security of ledgers shows a ledger to the members of its owner and to such readers.';

-- An attachment: seen by the roles that may read its games table (a dropped table: by none).
CREATE POLICY games_readable ON ledger_attachments FOR SELECT
    USING (coalesce(pg_catalog.has_table_privilege(games::pg_catalog.oid, 'SELECT'), false));

-- A ledger: seen by the members of its owner and by the roles that see its attachment; changed
-- by the members of its owner (check_ledger says so with 42501 before this hides the row).
CREATE POLICY owner_or_games_readable ON ledgers FOR SELECT
    USING (pg_catalog.pg_has_role(owner, 'USAGE') OR @extschema@.ledger_games_readable(id, CURRENT_USER));
CREATE POLICY owner_inserts ON ledgers FOR INSERT WITH CHECK (pg_catalog.pg_has_role(owner, 'USAGE'));
CREATE POLICY owner_updates ON ledgers FOR UPDATE USING (pg_catalog.pg_has_role(owner, 'USAGE'));
CREATE POLICY owner_deletes ON ledgers FOR DELETE USING (pg_catalog.pg_has_role(owner, 'USAGE'));

-- The derived rows of the ledgers a role sees (they are written by pg_rating only).
CREATE POLICY ledger_visible ON ledger_entries FOR SELECT
    USING (ledger_id IN (SELECT l.id FROM @extschema@.ledgers l));
CREATE POLICY ledger_visible ON ledger_standings FOR SELECT
    USING (ledger_id IN (SELECT l.id FROM @extschema@.ledgers l));
CREATE POLICY ledger_visible ON ledger_scopes FOR SELECT
    USING (ledger_id IN (SELECT l.id FROM @extschema@.ledgers l));

-- Seeds and seasons: seen with their ledger, written by the members of its owner.
CREATE POLICY ledger_visible ON ledger_seeds FOR SELECT
    USING (ledger_id IN (SELECT l.id FROM @extschema@.ledgers l));
CREATE POLICY owner_writes ON ledger_seeds FOR ALL
    USING (ledger_id IN (SELECT l.id FROM @extschema@.ledgers l WHERE pg_catalog.pg_has_role(l.owner, 'USAGE')));
CREATE POLICY ledger_visible ON ledger_seasons FOR SELECT
    USING (ledger_id IN (SELECT l.id FROM @extschema@.ledgers l));
CREATE POLICY owner_writes ON ledger_seasons FOR ALL
    USING (ledger_id IN (SELECT l.id FROM @extschema@.ledgers l WHERE pg_catalog.pg_has_role(l.owner, 'USAGE')));

ALTER VIEW ledger_history SET (security_invoker = true);
ALTER VIEW ledger_standings_now SET (security_invoker = true);
ALTER VIEW ledger_season_standings SET (security_invoker = true);

-- Privileges only a table's owner keeps: TRIGGER, and the writes and locks of derived tables (issue 31)
CREATE FUNCTION restrict_table_privileges() RETURNS void
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    held record;
    revoked text[] := '{}';
BEGIN
    -- Two passes: a privilege that a grantee passed on WITH GRANT OPTION goes with the grantee's
    -- own (CASCADE), which the first pass may meet after the one passed on.
    FOR pass IN 1..2 LOOP
        FOR held IN
            WITH own AS (
                SELECT c.oid, c.relowner, c.relacl, c.relkind, e.extname,
                       EXISTS (SELECT FROM pg_trigger tg
                               WHERE tg.tgrelid = c.oid AND tg.tgname = 'refuse_foreign_write') AS derived,
                       -- (a sequence that no application's table owns: not the ids of Random Chess's
                       -- users or games, say)
                       c.relkind = 'S' AND (e.extname = 'pg_rating' OR NOT EXISTS (
                           SELECT FROM pg_depend o
                           WHERE o.classid = 'pg_class'::regclass AND o.objid = c.oid
                             AND o.refclassid = 'pg_class'::regclass AND o.deptype IN ('a', 'i')
                             AND NOT EXISTS (SELECT FROM pg_trigger tg
                                             WHERE tg.tgrelid = o.refobjid AND tg.tgname = 'refuse_foreign_write')))
                           AS writers_sequence
                FROM pg_depend d
                JOIN pg_extension e ON e.oid = d.refobjid
                JOIN pg_class c ON c.oid = d.objid
                WHERE d.classid = 'pg_class'::regclass AND d.refclassid = 'pg_extension'::regclass
                  AND d.deptype = 'e' AND c.relkind IN ('r', 'v', 'S')
                  AND e.extname IN ('pg_rating', 'pg_rating_random_chess')
            )
            -- privileges on tables, views and sequences
            SELECT t.oid::regclass AS table_name,
                   CASE WHEN t.relkind = 'S' THEN 'SEQUENCE' ELSE 'TABLE' END AS kind,
                   CASE WHEN acl.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(acl.grantee)) END
                       AS grantee,
                   string_agg(acl.privilege_type, ', ' ORDER BY acl.privilege_type) AS privileges
            FROM own t
            CROSS JOIN LATERAL aclexplode(t.relacl) acl
            WHERE acl.grantee <> t.relowner
              AND CASE WHEN t.relkind = 'S' THEN t.writers_sequence AND acl.privilege_type = 'UPDATE'
                  ELSE acl.privilege_type IN ('TRIGGER', 'REFERENCES')
                       OR ((t.derived OR t.relkind = 'v')
                           AND acl.privilege_type IN ('UPDATE', 'DELETE', 'TRUNCATE'))
                       OR (t.extname = 'pg_rating' AND acl.privilege_type = 'TRUNCATE') END
            GROUP BY t.oid, t.relkind, acl.grantee
            UNION ALL
            -- privileges on their columns
            SELECT t.oid::regclass, 'TABLE',
                   CASE WHEN acl.grantee = 0 THEN 'PUBLIC' ELSE quote_ident(pg_get_userbyid(acl.grantee)) END,
                   string_agg(acl.privilege_type || ' (' || quote_ident(a.attname) || ')', ', '
                              ORDER BY acl.privilege_type, a.attnum)
            FROM own t
            JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum > 0 AND a.attacl IS NOT NULL
            CROSS JOIN LATERAL aclexplode(a.attacl) acl
            WHERE acl.grantee <> t.relowner AND t.relkind IN ('r', 'v')
              AND (acl.privilege_type = 'REFERENCES'
                   OR ((t.derived OR t.relkind = 'v') AND acl.privilege_type = 'UPDATE'))
            GROUP BY t.oid, acl.grantee
            ORDER BY 1, 3, 4
        LOOP
            EXECUTE format('REVOKE %s ON %s %s FROM %s CASCADE', held.privileges, held.kind, held.table_name, held.grantee);
            revoked := revoked || format('%s on %s from %s', held.privileges, held.table_name, held.grantee);
        END LOOP;
    END LOOP;
    IF cardinality(revoked) > 0 THEN
        RAISE WARNING 'pg_rating keeps some privileges on its tables to their owner'
            USING DETAIL = 'Revoked ' || array_to_string(revoked, '; ') || '.',
                  HINT = 'TRIGGER, or REFERENCES through a foreign key''s cascade, would run code as the extension''s owner; '
                         'UPDATE, DELETE and TRUNCATE of a derived table or a view would only let a role lock it; '
                         'UPDATE of a sequence of pg_rating''s writers would let a role set it back. '
                         'See "Roles for ledgers" in docs/operations.md.';
    END IF;
END
$$;
REVOKE ALL ON FUNCTION restrict_table_privileges() FROM PUBLIC;

COMMENT ON FUNCTION restrict_table_privileges() IS
    'Revokes from every role but the owner TRIGGER and REFERENCES on the tables of pg_rating and '
    'pg_rating_random_chess, UPDATE, DELETE and TRUNCATE on their derived tables and views, TRUNCATE on the '
    'engine''s other tables, the same privileges granted on columns, and UPDATE on the sequences pg_rating''s '
    'writers use (a WARNING lists what it took back). Run after every GRANT by the event trigger '
    'pg_rating_restrict_table_privileges.';

CREATE FUNCTION restrict_table_privileges_after_grant() RETURNS event_trigger
    LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    PERFORM @extschema@.restrict_table_privileges();
END
$$;
REVOKE ALL ON FUNCTION restrict_table_privileges_after_grant() FROM PUBLIC;

COMMENT ON FUNCTION restrict_table_privileges_after_grant() IS
    'Event trigger function of pg_rating_restrict_table_privileges: calls restrict_table_privileges() '
    'after every GRANT.';

CREATE EVENT TRIGGER pg_rating_restrict_table_privileges ON ddl_command_end
    WHEN TAG IN ('GRANT')
    EXECUTE FUNCTION restrict_table_privileges_after_grant();

COMMENT ON EVENT TRIGGER pg_rating_restrict_table_privileges IS
    'After every GRANT, takes back the privileges that only the owner of a pg_rating table may hold '
    '(restrict_table_privileges).';

SELECT @extschema@.restrict_table_privileges();

-- The one PL/pgSQL function that searched the caller's path (issue 31, hole 1)
ALTER FUNCTION ledger_leaderboard(text, text, int, float8, boolean, int, int) SET search_path = pg_catalog, pg_temp;

-- Seeds: one replay per scope and statement (issue 32)
COMMENT ON FUNCTION reseed_ledger() IS 'Row trigger of ledger_seeds: checks a seed (its ledger''s owner, its bounds) and notes its player for reseed_ledger_scopes.';
CREATE FUNCTION reseed_ledger_scopes() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'reseed_ledger_scopes_wrapper';
REVOKE ALL ON FUNCTION reseed_ledger_scopes() FROM PUBLIC;
CREATE TRIGGER reseed_ledger_scopes AFTER INSERT OR UPDATE OR DELETE ON ledger_seeds
    FOR EACH STATEMENT EXECUTE FUNCTION reseed_ledger_scopes();
ALTER FUNCTION reseed_ledger_scopes() SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION reseed_ledger_scopes() IS 'Statement trigger of ledger_seeds: replays each scope whose seeds the statement changed, once, from the earliest first game of its reseeded players.';

-- the extension's comment, as pg_rating.control now has it: the engine, not the Random Chess schema (issue 35)
COMMENT ON EXTENSION pg_rating IS 'Rating engine: Elo, FIDE, Skemino and Glicko-2 ratings, ledgers kept by triggers on any games table, chess positions and openings, Swiss pairing';

-- Seeded players without games in the standings (issue 32, item 4): ledger_standings_now reads
-- ledger_seeds too, and the readers below read it.
CREATE INDEX ledger_seeds_by_rating ON ledger_seeds (ledger_id, scope, rating DESC, player);

CREATE OR REPLACE VIEW ledger_standings_now AS
SELECT l.name AS ledger, s.scope, s.player,
       -- the resets of the seasons that ended since the player's last game, composed
       CASE WHEN z.keep IS NULL THEN s.rating ELSE l.starting_rating + (s.rating - l.starting_rating) * z.keep END
           AS rating,
       greatest(@extschema@.ledger_rd_now(s.rd, s.volatility, s.last_game_date, l.rating_period, l.min_rd,
                                          coalesce(l.max_rd, l.starting_rd), l.rd_growth),
                CASE WHEN s.rd IS NOT NULL THEN z.rd_floor END) AS rd,
       s.volatility, s.games, s.wins, s.draws, s.losses, s.peak, s.streak, s.best_streak,
       s.last_game_date AS last_played,
       (s.games < l.provisional_games OR coalesce(s.rd > l.provisional_rd, false)
        OR coalesce(s.last_game_date < now() - l.provisional_after, false)) AS provisional,
       s.opponents_sum / s.games::float8 AS opponents_average,
       s.opponents_sum / s.games::float8 + (400.0 * (s.wins - s.losses)::numeric / s.games::numeric)::float8
           AS performance
FROM @extschema@.ledger_standings s JOIN @extschema@.ledgers l ON l.id = s.ledger_id
LEFT JOIN LATERAL (
    SELECT CASE WHEN bool_or(x.rating_pull = 1::float8) THEN 0::float8
                ELSE exp(sum(ln(nullif(1::float8 - x.rating_pull, 0::float8)))) END AS keep,
           max(x.rd_floor) AS rd_floor
    FROM @extschema@.ledger_seasons x
    WHERE x.ledger_id = s.ledger_id AND (x.scope = s.scope OR x.every_scope) AND x.ends_at > s.last_game_date
      AND x.ends_at <= now()
    HAVING count(*) > 0) z ON true
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
-- (CREATE OR REPLACE VIEW sets the view's options anew)
ALTER VIEW ledger_standings_now SET (security_invoker = true);

-- Reads that fail loudly and are fast for one player (issue 32): the readers check the ledger and
-- scope they are given (22023), ledger_scope() writes a scope of several columns, one player's
-- history and standing are read through the primary keys, ledger_player_rank takes the
-- leaderboard's filters, ledger_history.game_key is named sort_key, and a ledger may notify a
-- channel of its changed players.
-- (the column notify_channel is added at the top of this script)
ALTER VIEW ledger_history RENAME COLUMN game_key TO sort_key;

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

CREATE OR REPLACE FUNCTION ledger_leaderboard(ledger text, scope text DEFAULT '', min_games int DEFAULT 0,
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
                      (s.games < l.provisional_games OR coalesce(s.rd > l.provisional_rd, false)
                       OR coalesce(s.last_game_date < now() - l.provisional_after, false)) AS provisional,
                      s.last_game_date
               FROM @extschema@.ledger_standings s
               CROSS JOIN LATERAL (SELECT @extschema@.ledger_rd_now(s.rd, s.volatility, s.last_game_date, l.rating_period,
                                                                    l.min_rd, coalesce(l.max_rd, l.starting_rd), l.rd_growth) AS rd_now) n
               WHERE s.ledger_id = l.id AND s.scope = ledger_leaderboard.scope AND s.games > 0
                 AND s.games >= coalesce(min_games, 0)
                 AND (max_rd IS NULL OR n.rd_now IS NULL OR n.rd_now <= max_rd)
                 AND (coalesce(include_provisional, true)
                      OR NOT (s.games < l.provisional_games OR coalesce(s.rd > l.provisional_rd, false)
                              OR coalesce(s.last_game_date < now() - l.provisional_after, false)))
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

CREATE OR REPLACE FUNCTION ledger_rating_at(ledger text, player text, at timestamptz, scope text DEFAULT '')
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
DROP FUNCTION ledger_player_rank(text, text, text);
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
                                                             l.min_rd, coalesce(l.max_rd, l.starting_rd), l.rd_growth) AS rd_now) n
        WHERE s.ledger_id = l.id AND s.scope = ledger_player_rank.scope AND s.player = ledger_player_rank.player
          AND s.games > 0 AND s.games >= coalesce(min_games, 0)
          AND (max_rd IS NULL OR n.rd_now IS NULL OR n.rd_now <= max_rd)
          AND (coalesce(include_provisional, true)
               OR NOT (s.games < l.provisional_games OR coalesce(s.rd > l.provisional_rd, false)
                       OR coalesce(s.last_game_date < now() - l.provisional_after, false)));
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
                                                                   l.min_rd, coalesce(l.max_rd, l.starting_rd), l.rd_growth) AS rd_now) n
              WHERE s.ledger_id = l.id AND s.scope = ledger_player_rank.scope AND s.games > 0 AND s.rating > mine
                AND s.games >= coalesce(min_games, 0)
                AND (max_rd IS NULL OR n.rd_now IS NULL OR n.rd_now <= max_rd)
                AND (coalesce(include_provisional, true)
                     OR NOT (s.games < l.provisional_games OR coalesce(s.rd > l.provisional_rd, false)
                             OR coalesce(s.last_game_date < now() - l.provisional_after, false)))
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
       CASE WHEN z.keep IS NULL THEN s.rating
            -- (operators written OPERATOR(...) share one precedence: parenthesised)
            ELSE l.starting_rating OPERATOR(pg_catalog.+)
                 ((s.rating OPERATOR(pg_catalog.-) l.starting_rating) OPERATOR(pg_catalog.*) z.keep) END,
       greatest(@extschema@.ledger_rd_now(s.rd, s.volatility, s.last_game_date, l.rating_period, l.min_rd,
                                          coalesce(l.max_rd, l.starting_rd), l.rd_growth),
                CASE WHEN s.rd IS NOT NULL THEN z.rd_floor END),
       s.games, s.wins, s.draws, s.losses, s.peak, s.streak,
       (s.games OPERATOR(pg_catalog.<) l.provisional_games
        OR coalesce(s.rd OPERATOR(pg_catalog.>) l.provisional_rd, false)
        OR coalesce(s.last_game_date OPERATOR(pg_catalog.<)
                    (pg_catalog.now() OPERATOR(pg_catalog.-) l.provisional_after), false)),
       s.last_game_date
FROM @extschema@.ledger_standings s
JOIN @extschema@.ledgers l ON l.id OPERATOR(pg_catalog.=) s.ledger_id
LEFT JOIN LATERAL (
    SELECT CASE WHEN pg_catalog.bool_or(x.rating_pull OPERATOR(pg_catalog.=) 1::float8) THEN 0::float8
                ELSE pg_catalog.exp(pg_catalog.sum(pg_catalog.ln(
                         nullif(1::float8 OPERATOR(pg_catalog.-) x.rating_pull, 0::float8)))) END AS keep,
           pg_catalog.max(x.rd_floor) AS rd_floor
    FROM @extschema@.ledger_seasons x
    WHERE x.ledger_id OPERATOR(pg_catalog.=) s.ledger_id
      AND (x.scope OPERATOR(pg_catalog.=) s.scope OR x.every_scope)
      AND x.ends_at OPERATOR(pg_catalog.>) s.last_game_date AND x.ends_at OPERATOR(pg_catalog.<=) pg_catalog.now()
    HAVING pg_catalog.count(*) OPERATOR(pg_catalog.>) 0::bigint) z ON true
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

CREATE OR REPLACE FUNCTION ledger_player_type(ledger text, wanted regtype) RETURNS regtype
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

CREATE OR REPLACE FUNCTION ledger_history_of(ledger text, player_type anyelement)
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


COMMENT ON FUNCTION ledger_quoted(text) IS
    'A value as error messages quote it: "value", or its first 100 characters, an ellipsis and its length.';
COMMENT ON FUNCTION ledger_scope(text[]) IS
    'The scope text of a ledger scoped by several columns, as the writers write it (ROW(a, b)::text), from the '
    'columns'' values as text: ledger_scope(org_id::text, game_type); the value itself for one column.';
COMMENT ON FUNCTION ledger_id_for_read(text, text, boolean) IS
    'The id of a ledger a reader names, checked as the readers check it: 22023 for a ledger that does not exist or '
    'that the reader may not see, for a scope without standings (a multi-column scope not written as a row: see '
    'ledger_scope) and for '''' in a scoped ledger; 0A000 for a ledger a client keeps; 22004 for a NULL ledger, '
    'or a NULL scope unless any_scope.';
COMMENT ON FUNCTION ledger_typed(text, anyelement) IS
    'value converted to the type of type_of (a NULL of that type) by the type''s input function.';
COMMENT ON FUNCTION ledger_player_history(text, anyelement, text, int) IS
    'One player''s history in a ledger''s scope, newest first (the last last_games games; NULL: all), with player '
    'and opponent in the type of player (the games table''s player column), read through the primary key; '
    'inlined, so a LATERAL call per row of a join is one probe each. Errors as ledger_id_for_read.';
COMMENT ON FUNCTION ledger_player_standing(text, anyelement, text) IS
    'One player''s row of ledger_standings_now in a ledger''s scope (none without games), player in its own type, '
    'read through the primary key; inlined, so a LATERAL call per row of a join is one probe each. Errors as '
    'ledger_id_for_read.';
COMMENT ON FUNCTION ledger_player_rank(text, text, text, int, float8, boolean) IS
    'A player''s dense rank in a ledger''s scope by rating among the players that ledger_leaderboard shows with the '
    'same filters (min_games, max_rd, include_provisional): the rank the leaderboard''s page shows; NULL for a '
    'player without games or left out by the filters. Errors as ledger_id_for_read.';
COMMENT ON COLUMN ledgers.notify_channel IS
    'A channel that the writers pg_notify (at commit) with a JSON payload per player whose standing a statement '
    'changed: {"ledger", "scope", "player", "rating", "rd", "games", "last_played"}; a rebuild sends one '
    '{"ledger", "rebuilt": true}. NULL: no notifications.';

-- Glicko-2 as the documents write it (issue 32)
-- A ledger's per-game Glicko-2 rule: existing ledgers keep the lichess rule they rated by (the
-- value their rows get when the column is added), new ledgers take Glickman's full one-game period.
-- (the columns are added at the top of this script)
COMMENT ON TABLE ledgers IS
    'Rating ledgers: a rating system (elo: starting_rating, k_factor; fide: starting_rating, K by FIDE''s rules '
    'from each player''s games and peak; glicko2: starting_rating, starting_rd, starting_volatility, tau, '
    'rating_period, glicko2_rule (glickman: each game a full one-game rating period, the default; lichess: '
    'without step 6, the rule of ledgers made before 0.13.0), bounds min_rd, max_rd (NULL: starting_rd) and '
    'max_volatility, step 5''s tolerance volatility_epsilon (NULL: 1e-6), rd_growth (how inactivity grows the RD); '
    'skemino: starting_rating), limits '
    '(max_change per game, '
    'rating_floor) and when a player is provisional. Settings are checked when written (23514); changing them '
    'rebuilds the ledger. owner may attach and change it. kept_in: NULL, or the table of a client of pg_rating '
    'that keeps the ledger''s history (a Random Chess ranking: elo_history); such a ledger is written by pg_rating '
    'only, with its client''s settings.';
COMMENT ON FUNCTION ledger_what_if(text, float8[], float8[]) IS
    'The same metrics for the ledger''s own setting (first row) and for other K factors or taus, replayed in memory '
    'over the ledger''s games; nothing is written. A setting that cannot change the ledger''s ratings is refused '
    '(22023): K factors but for elo, taus but for glicko2 by Glickman''s rule, with a rating_period or with the '
    'period rule of multiplayer games.';

-- The settings, seeds and seasons in force (issue 31: a role that may lock ledgers, ledger_seeds
-- or ledger_seasons, as UPDATE or DELETE lets it, held off every application's writers): the
-- writers read pg_rating's own copies of them (sql/ledger_copies.sql).
CREATE TABLE ledgers_in_force (LIKE ledgers, PRIMARY KEY (id));
CREATE TABLE ledger_seeds_in_force (LIKE ledger_seeds, PRIMARY KEY (ledger_id, scope, player));
CREATE TABLE ledger_seasons_in_force (LIKE ledger_seasons, PRIMARY KEY (ledger_id, scope, name));

-- (filled from the tables as they are now; from here on the triggers keep them equal)
INSERT INTO ledgers_in_force SELECT * FROM ledgers;
INSERT INTO ledger_seeds_in_force SELECT * FROM ledger_seeds;
INSERT INTO ledger_seasons_in_force SELECT * FROM ledger_seasons;

CREATE TRIGGER refuse_foreign_write BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ledgers_in_force
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();
CREATE TRIGGER refuse_foreign_write BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ledger_seeds_in_force
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();
CREATE TRIGGER refuse_foreign_write BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON ledger_seasons_in_force
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_foreign_write();

CREATE FUNCTION copy_ledger() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'copy_ledger_wrapper';
REVOKE ALL ON FUNCTION copy_ledger() FROM PUBLIC;
ALTER FUNCTION copy_ledger() SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
-- (named to fire before rebuild_changed_ledger, which rebuilds by the copy)
CREATE TRIGGER copy_ledger AFTER INSERT OR UPDATE OR DELETE ON ledgers
    FOR EACH ROW EXECUTE FUNCTION copy_ledger();

-- A TRUNCATE fires no row trigger: it would replay nothing and leave the copies as they were.
CREATE FUNCTION refuse_truncate() RETURNS trigger LANGUAGE c AS 'MODULE_PATHNAME', 'refuse_truncate_wrapper';
REVOKE ALL ON FUNCTION refuse_truncate() FROM PUBLIC;
ALTER FUNCTION refuse_truncate() SET search_path = pg_catalog, pg_temp;
CREATE TRIGGER refuse_truncate BEFORE TRUNCATE ON ledger_seeds
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_truncate();
CREATE TRIGGER refuse_truncate BEFORE TRUNCATE ON ledger_seasons
    FOR EACH STATEMENT EXECUTE FUNCTION refuse_truncate();

-- Seen as their tables are (ledger_policies.sql); nobody is granted them.
ALTER TABLE ledgers_in_force ENABLE ROW LEVEL SECURITY;
ALTER TABLE ledger_seeds_in_force ENABLE ROW LEVEL SECURITY;
ALTER TABLE ledger_seasons_in_force ENABLE ROW LEVEL SECURITY;
CREATE POLICY ledger_visible ON ledgers_in_force FOR SELECT
    USING (id IN (SELECT l.id FROM @extschema@.ledgers l));
CREATE POLICY ledger_visible ON ledger_seeds_in_force FOR SELECT
    USING (ledger_id IN (SELECT l.id FROM @extschema@.ledgers l));
CREATE POLICY ledger_visible ON ledger_seasons_in_force FOR SELECT
    USING (ledger_id IN (SELECT l.id FROM @extschema@.ledgers l));

SELECT pg_catalog.pg_extension_config_dump('ledgers_in_force', '');
SELECT pg_catalog.pg_extension_config_dump('ledger_seeds_in_force', '');
SELECT pg_catalog.pg_extension_config_dump('ledger_seasons_in_force', '');

COMMENT ON TABLE ledgers_in_force IS
    'Derived: a copy of ledgers (same columns) that pg_rating''s writers read, so that a role that may lock '
    'ledgers holds off no writer; kept equal by the trigger copy_ledger.';
COMMENT ON TABLE ledger_seeds_in_force IS
    'Derived: a copy of ledger_seeds that pg_rating''s writers read; copied again per changed scope before the '
    'scope is replayed.';
COMMENT ON TABLE ledger_seasons_in_force IS
    'Derived: a copy of ledger_seasons that pg_rating''s writers read; copied again per changed scope before the '
    'scope is replayed.';
COMMENT ON FUNCTION refuse_truncate() IS
    'Trigger of ledger_seeds and ledger_seasons: refuses TRUNCATE (0A000), which would replay no ledger; DELETE '
    'replays each scope it changes.';
COMMENT ON FUNCTION copy_ledger() IS
    'Trigger of ledgers: keeps ledgers_in_force, the copy the writers read, equal to ledgers.';

-- Seeds by a ledger's name, as the readers name it (issue 32, item 4; the readers that see seeds
-- are above). Each call is one statement on ledger_seeds, whose statement trigger replays each
-- scope once: the array forms import thousands of seeds for one replay of their scope. SECURITY INVOKER: row-level security and the seeds' trigger check
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
COMMENT ON FUNCTION ledger_rating_at(text, text, timestamptz, text) IS
    'A player''s rating (and RD, games) after the latest game dated <= at; before any, the player''s seed, else '
    'the starting rating (games 0).';
COMMENT ON FUNCTION ledger_id_for_read(text, text, boolean) IS
    'The id of a ledger a reader names, checked as the readers check it: 22023 for a ledger that does not exist or '
    'that the reader may not see, for a scope without standings or seeds (a multi-column scope not written as a '
    'row: see ledger_scope) and for '''' in a scoped ledger; 0A000 for a ledger a client keeps; 22004 for a NULL ledger, '
    'or a NULL scope unless any_scope.';
COMMENT ON FUNCTION ledger_player_standing(text, anyelement, text) IS
    'One player''s row of ledger_standings_now in a ledger''s scope (a seeded player without games: the seed, '
    'provisional; none for a player without either), player in its own type, read through the primary keys; '
    'inlined, so a LATERAL call per row of a join is one probe each. Errors as ledger_id_for_read.';
COMMENT ON FUNCTION ledger_player_rank(text, text, text, int, float8, boolean) IS
    'A player''s dense rank in a ledger''s scope by rating among the players that ledger_leaderboard shows with the '
    'same filters (min_games, max_rd, include_provisional): the rank the leaderboard''s page shows; NULL for a '
    'player without games or seed, or left out by the filters. Errors as ledger_id_for_read.';
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
-- Pairing from an application's own tables (issue 34): tournament_pairings_from_tables, tournament_pair_into
CREATE FUNCTION tournament_pairings_from_tables(
    players regclass, games regclass, rounds integer, round integer DEFAULT NULL,
    player_column text DEFAULT 'id', rating_column text DEFAULT 'rating', name_column text DEFAULT NULL,
    initial_order_column text DEFAULT NULL, withdrawn_column text DEFAULT NULL,
    round_column text DEFAULT 'round', white_column text DEFAULT 'white', black_column text DEFAULT 'black',
    result_column text DEFAULT 'result', forfeit_column text DEFAULT NULL, result_map jsonb DEFAULT NULL,
    tournament_column text DEFAULT NULL, tournament text DEFAULT NULL,
    forbidden_pairs text[] DEFAULT '{}', baku_acceleration boolean DEFAULT false,
    first_colour_white boolean DEFAULT true, system text DEFAULT 'dutch')
RETURNS TABLE (board integer, white text, black text)
STABLE PARALLEL RESTRICTED SET search_path = pg_catalog, pg_temp
LANGUAGE c AS 'MODULE_PATHNAME', 'tournament_pairings_from_tables_wrapper';

CREATE FUNCTION tournament_pair_into(
    pending regclass, players regclass, games regclass, rounds integer, round integer DEFAULT NULL,
    player_column text DEFAULT 'id', rating_column text DEFAULT 'rating', name_column text DEFAULT NULL,
    initial_order_column text DEFAULT NULL, withdrawn_column text DEFAULT NULL,
    round_column text DEFAULT 'round', white_column text DEFAULT 'white', black_column text DEFAULT 'black',
    result_column text DEFAULT 'result', forfeit_column text DEFAULT NULL, result_map jsonb DEFAULT NULL,
    tournament_column text DEFAULT NULL, tournament text DEFAULT NULL,
    forbidden_pairs text[] DEFAULT '{}', baku_acceleration boolean DEFAULT false,
    first_colour_white boolean DEFAULT true,
    pending_white_column text DEFAULT 'white', pending_black_column text DEFAULT 'black',
    pending_round_column text DEFAULT NULL, pending_board_column text DEFAULT NULL,
    pending_values jsonb DEFAULT '{}', pending_bye_values jsonb DEFAULT '{}', system text DEFAULT 'dutch')
RETURNS TABLE (board integer, white text, black text)
VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp
LANGUAGE c AS 'MODULE_PATHNAME', 'tournament_pair_into_wrapper';

COMMENT ON FUNCTION tournament_pairings_from_tables(regclass, regclass, integer, integer, text, text, text, text,
                                                    text, text, text, text, text, text, jsonb, text, text, text[],
                                                    boolean, boolean, text) IS
    'The pairing of the next round of an application''s own tables by the FIDE Dutch system (C.04.3, 2025 rules), '
    'or by the Burstein system (C.04.4.2, as bbpPairings reads it) when system is ''burstein'', '
    'as tournament_pairings_from_trf pairs a TRF: players (player_column, rating_column, optional name_column, '
    'initial_order_column, withdrawn_column) and games (round_column, white_column, black_column, result_column, '
    'optional forfeit_column; a row without Black is a bye) read by column name with the caller''s rights, '
    'restricted to the rows whose tournament_column equals tournament when given. Results 1-0, 0-1, 1/2-1/2, '
    '+-, -+ (forfeits), bye, NULL (no result yet), or what result_map says a value means. Players in FIDE''s '
    'initial order (rating, then name, then id) unless initial_order_column gives it. One row per board (white '
    'and black are the application''s ids as text), then the pairing-allocated bye with black NULL. Errors: '
    'a missing column 42703, a column of the wrong type 42804, a NULL argument 22004, a player id twice, a game '
    'naming no player, a round outside 1..rounds, round not the next round 22023, round already paired or a game '
    'without result 55000, two games of a player in a round 23514, no valid pairing 23514, no SELECT privilege '
    '42501, a system other than dutch or burstein 22023.';
COMMENT ON FUNCTION tournament_pair_into(regclass, regclass, regclass, integer, integer, text, text, text, text,
                                         text, text, text, text, text, text, jsonb, text, text, text[], boolean,
                                         boolean, text, text, text, text, jsonb, jsonb, text) IS
    'tournament_pairings_from_tables, and its rows inserted into the table pending (as the caller, in the '
    'caller''s transaction): pending_white_column and pending_black_column get the ids (black NULL for the bye), '
    'pending_round_column the round and pending_board_column the board when given, and every row the values of '
    'pending_values (the bye''s row also those of pending_bye_values), a JSON object of column names. Returns the '
    'pairing. Errors as tournament_pairings_from_tables, and those of the INSERT (42501 without its privilege).';

-- Season standings count the season's own games and peak (issue 32, item 4: seed 003 section 13)
CREATE FUNCTION ledger_season_start(season_ends timestamptz[], ends_at timestamptz)
RETURNS timestamptz
    IMMUTABLE STRICT PARALLEL SAFE LANGUAGE c AS 'MODULE_PATHNAME', 'ledger_season_start_wrapper';
CREATE OR REPLACE VIEW ledger_season_standings AS
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
ALTER VIEW ledger_season_standings SET (security_invoker = true);
COMMENT ON VIEW ledger_season_standings IS
    'Each season''s final standings: every player''s standing after the last game before the season''s end '
    '(career record), and the season''s own: season_games, season_wins, season_draws, season_losses and '
    'season_peak over the games from season_starts_at (the scope''s previous season end; NULL: from the first '
    'game) to ends_at (season_peak NULL without a game in the season).';


-- attach through foreign keys (issue 32)
-- (the columns hold paths, longer than a name's 63 bytes)
ALTER TABLE ledger_attachments ALTER COLUMN date_column TYPE text, ALTER COLUMN white_column TYPE text,
    ALTER COLUMN black_column TYPE text, ALTER COLUMN result_column TYPE text, ALTER COLUMN scope_column TYPE text,
    ALTER COLUMN placement_column TYPE text, ADD COLUMN rated_column text, ADD COLUMN related regclass[];
CREATE FUNCTION ledger_related_changed() RETURNS trigger
    LANGUAGE c AS 'MODULE_PATHNAME', 'ledger_related_changed_wrapper';
REVOKE ALL ON FUNCTION ledger_related_changed() FROM PUBLIC;
ALTER FUNCTION ledger_related_changed() SECURITY DEFINER SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION ledger_related_changed() IS
    'Trigger of a table that ledgers'' column paths reach (one set per table, created by ledger_attach): re-rates '
    'the games whose paths reach the rows a statement changed, as a change of their own table would.';
DROP FUNCTION ledger_attach(text, regclass, text, text, text, text, text, jsonb, text, text);
DROP FUNCTION ledger_attach_multiplayer(text, regclass, text, text, text, text, text, boolean, text, text);
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
ALTER FUNCTION ledger_attach(text, regclass, text, text, text, text, text, jsonb, text, text, text)
    SET search_path = pg_catalog, pg_temp;
ALTER FUNCTION ledger_attach_multiplayer(text, regclass, text, text, text, text, text, boolean, text, text, text)
    SET search_path = pg_catalog, pg_temp;
COMMENT ON FUNCTION ledger_attach(text, regclass, text, text, text, text, text, jsonb, text, text, text) IS
    'Attaches a ledger to a games table: names its key (integer, text or uuid), date, two player columns, result '
    '(a score in [0, 1], or text values mapped by result_map to a score, "unrated" or "double_loss"), optional '
    'scope columns (comma-separated), a filter (a boolean expression over the table''s columns) and a rated_column '
    '(boolean: rated only when true). Any column but the key may be a path a -> b -> c through single-column foreign '
    'keys, whose tables'' changes re-rate what they touch. Checks them (42703, 42804, 22023, 42830, 0A000), '
    'creates the triggers and rates the games already there; returns the entries written. Only for a member of '
    'the table''s owner, of the ledger''s owner and of the owner of each table a path reaches (42501).';
COMMENT ON FUNCTION ledger_attach_multiplayer(text, regclass, text, text, text, text, text, boolean, text, text, text) IS
    'Attaches a ledger to a participants table (one row per player per game: game key, date, player, placement; lower '
    'is better unless higher_is_better). rule pairwise averages the two-player updates against every other player '
    '(any system); period rates each player in one Glicko-2 period against all others. A game is rated once it has '
    'two rated participants; a NULL placement is not rated yet. Columns but the game''s may be paths a -> b -> c through '
    'foreign keys, and rated_column a boolean (or path) that a game must have true to be rated, as in ledger_attach.';

-- rating policies (issue 32)
-- A change above a bound clamped (as before) or refused, and a cap per period on a player's total
-- change (seed 000 section 8.2). Existing ledgers keep their numbers: 'clamp', no cap. The copy
-- has the columns of ledgers in the same order, without defaults (LIKE).
ALTER TABLE ledgers ADD COLUMN max_change_policy text NOT NULL DEFAULT 'clamp'
    CONSTRAINT ledger_max_change_policy_known CHECK (max_change_policy IN ('clamp', 'reject'));
ALTER TABLE ledgers ADD COLUMN max_period_change float8;
ALTER TABLE ledgers ADD COLUMN change_period interval;
ALTER TABLE ledgers_in_force ADD COLUMN max_change_policy text NOT NULL DEFAULT 'clamp';
ALTER TABLE ledgers_in_force ALTER COLUMN max_change_policy DROP DEFAULT;
ALTER TABLE ledgers_in_force ADD COLUMN max_period_change float8;
ALTER TABLE ledgers_in_force ADD COLUMN change_period interval;
COMMENT ON TABLE ledgers IS
    'Rating ledgers: a rating system (elo: starting_rating, k_factor; fide: starting_rating, K by FIDE''s rules '
    'from each player''s games and peak; glicko2: starting_rating, starting_rd, starting_volatility, tau, '
    'rating_period, glicko2_rule (glickman: each game a full one-game rating period, the default; lichess: '
    'without step 6, the rule of ledgers made before 0.13.0), bounds min_rd, max_rd (NULL: starting_rd) and '
    'max_volatility, step 5''s tolerance volatility_epsilon (NULL: 1e-6), rd_growth (how inactivity grows the RD); '
    'skemino: starting_rating), limits (max_change per game, max_period_change per '
    'change_period, max_change_policy clamp or reject (23514), rating_floor) and when a player is provisional '
    '(fewer than provisional_games, an RD above provisional_rd, or no game for provisional_after). '
    'Settings are checked when written (23514); changing them rebuilds the ledger. owner may attach and change '
    'it. kept_in: NULL, or the table of a client of pg_rating that keeps the ledger''s history (a Random Chess '
    'ranking: elo_history); such a ledger is written by pg_rating only, with its client''s settings.';

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
COMMENT ON FUNCTION ledger_skemino_categories(boolean) IS
    'Seed 004''s rating categories as ledger_upset_rate takes them (JSON array of name, lower_bound, upper_bound; '
    'upper bounds excluded, null for none): the ten skill levels from Principiante (1000) to Super Gran Maestro '
    '(2700+), or with pools the four rating pools (Beginners 1000, Intermediate 1600, Expert 2200, Elite 2500+).';
COMMENT ON FUNCTION ledger_upset_rate(text, jsonb, text) IS
    'The upset rate by rating category (seed 004): per category (default: ledger_skemino_categories()), the '
    'players'' lines of games whose rating before the game falls in it, their wins, the wins of a player expected '
    'to score under half (underdog_wins) and underdog_wins / wins (NULL without a win). 22023 for a ledger or '
    'scope that does not exist or categories that are not an array of {name, lower_bound, upper_bound}.';


-- Burstein pairing (issue 34): tournament_pairings_from_trf takes the pairing system (the tables'
-- functions above take it too: they are new in 0.13.0).
DROP FUNCTION tournament_pairings_from_trf(text, int[]);
CREATE FUNCTION tournament_pairings_from_trf(trf text, forbidden_pairs int[] DEFAULT '{}',
                                             system text DEFAULT 'dutch')
RETURNS TABLE (board int, white int, black int)
IMMUTABLE STRICT PARALLEL SAFE
LANGUAGE c AS 'MODULE_PATHNAME', 'tournament_pairings_from_trf_wrapper';
COMMENT ON FUNCTION tournament_pairings_from_trf(text, int[], text) IS
    'The pairing of the round after the rounds in a TRF-16 text by the FIDE Dutch system (C.04.3, 2025 rules), or '
    'by the Burstein system (C.04.4.2, as bbpPairings v6.0.0 reads it) when system is ''burstein'': '
    'one row per board (board from 1, white and black by starting rank), then the pairing-allocated bye, if any, '
    'as a row with black NULL. The round paired is the one after the last round with a game, a forfeit or a '
    'pairing-allocated bye; players whose line already has an entry for it (a requested bye, 0000 - Z for an '
    'absence) are not paired. XXR gives the number of rounds, XXC white1/black1 the top seed''s colour in round 1 '
    '(default white1); accelerated rounds from XXA lines (virtual points per round) or, without them, a '
    '192 FIDE_DUTCH_BAKU line (Baku acceleration, FIDE C.04.5.1), as bbpPairings reads them; without either, the '
    'Burstein system accelerates rounds 1 and 2 (one virtual point for the upper half). Nothing is '
    'written. forbidden_pairs: starting ranks two by two (ARRAY[[1, 5], [2, 7]]), players who must not meet. '
    'Errors: malformed TRF 22023, every round paired 22023, a forbidden pair that is not two different players of '
    'the file 22023 (a NULL: 22004), a system other than dutch or burstein 22023, no pairing that meets the '
    'absolute criteria 23514.';


-- rules once: readers call the core (issue 33). What the readers derive from a stored standing
-- (provisional status, the seasons' resets, the performance) is the library's rule, called per
-- row (no search_path of their own: they run no SQL); the readers keep their columns.
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
CREATE OR REPLACE VIEW ledger_standings_now AS
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
ALTER VIEW ledger_standings_now SET (security_invoker = true);
CREATE OR REPLACE FUNCTION ledger_leaderboard(ledger text, scope text DEFAULT '', min_games int DEFAULT 0,
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
CREATE OR REPLACE FUNCTION ledger_player_rank(ledger text, player text, scope text DEFAULT '', min_games int DEFAULT 0,
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
CREATE OR REPLACE FUNCTION ledger_player_standing(ledger text, player anyelement, scope text DEFAULT '')
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


-- pairing colours and points (issue 34)
-- The initial colour (C.04.3 5.2.5, drawn by lot): first_colour_white NULL (the default) takes
-- the colour the stored rounds show, as a TRF without XXC, else White (pg_rating_core::tournament::
-- initial_colour); true or false as before. virtual_points: accelerated rounds (C.04.5) by player
-- id, as a TRF's XXA lines (pg_rating_core::tournament::virtual_points). The tables' functions are
-- new in 0.13.0 (created above): a new argument, so dropped and created again.
DROP FUNCTION tournament_pairings_from_tables(regclass, regclass, integer, integer, text, text, text, text, text,
                                              text, text, text, text, text, jsonb, text, text, text[], boolean,
                                              boolean, text);
DROP FUNCTION tournament_pair_into(regclass, regclass, regclass, integer, integer, text, text, text, text, text,
                                   text, text, text, text, text, jsonb, text, text, text[], boolean, boolean, text,
                                   text, text, text, jsonb, jsonb, text);
CREATE FUNCTION tournament_pairings_from_tables(
    players regclass, games regclass, rounds integer, round integer DEFAULT NULL,
    player_column text DEFAULT 'id', rating_column text DEFAULT 'rating', name_column text DEFAULT NULL,
    initial_order_column text DEFAULT NULL, withdrawn_column text DEFAULT NULL,
    round_column text DEFAULT 'round', white_column text DEFAULT 'white', black_column text DEFAULT 'black',
    result_column text DEFAULT 'result', forfeit_column text DEFAULT NULL, result_map jsonb DEFAULT NULL,
    tournament_column text DEFAULT NULL, tournament text DEFAULT NULL,
    forbidden_pairs text[] DEFAULT '{}', baku_acceleration boolean DEFAULT false,
    first_colour_white boolean DEFAULT NULL, system text DEFAULT 'dutch', virtual_points jsonb DEFAULT NULL)
RETURNS TABLE (board integer, white text, black text)
STABLE PARALLEL RESTRICTED SET search_path = pg_catalog, pg_temp
LANGUAGE c AS 'MODULE_PATHNAME', 'tournament_pairings_from_tables_wrapper';

CREATE FUNCTION tournament_pair_into(
    pending regclass, players regclass, games regclass, rounds integer, round integer DEFAULT NULL,
    player_column text DEFAULT 'id', rating_column text DEFAULT 'rating', name_column text DEFAULT NULL,
    initial_order_column text DEFAULT NULL, withdrawn_column text DEFAULT NULL,
    round_column text DEFAULT 'round', white_column text DEFAULT 'white', black_column text DEFAULT 'black',
    result_column text DEFAULT 'result', forfeit_column text DEFAULT NULL, result_map jsonb DEFAULT NULL,
    tournament_column text DEFAULT NULL, tournament text DEFAULT NULL,
    forbidden_pairs text[] DEFAULT '{}', baku_acceleration boolean DEFAULT false,
    first_colour_white boolean DEFAULT NULL,
    pending_white_column text DEFAULT 'white', pending_black_column text DEFAULT 'black',
    pending_round_column text DEFAULT NULL, pending_board_column text DEFAULT NULL,
    pending_values jsonb DEFAULT '{}', pending_bye_values jsonb DEFAULT '{}', system text DEFAULT 'dutch',
    virtual_points jsonb DEFAULT NULL)
RETURNS TABLE (board integer, white text, black text)
VOLATILE PARALLEL UNSAFE SET search_path = pg_catalog, pg_temp
LANGUAGE c AS 'MODULE_PATHNAME', 'tournament_pair_into_wrapper';

COMMENT ON FUNCTION tournament_pairings_from_tables(regclass, regclass, integer, integer, text, text, text, text,
                                                    text, text, text, text, text, text, jsonb, text, text, text[],
                                                    boolean, boolean, text, jsonb) IS
    'The pairing of the next round of an application''s own tables by the FIDE Dutch system (C.04.3, 2025 rules), '
    'or by the Burstein system (C.04.4.2, as bbpPairings reads it) when system is ''burstein'', '
    'as tournament_pairings_from_trf pairs a TRF: players (player_column, rating_column, optional name_column, '
    'initial_order_column, withdrawn_column) and games (round_column, white_column, black_column, result_column, '
    'optional forfeit_column; a row without Black is a bye) read by column name with the caller''s rights, '
    'restricted to the rows whose tournament_column equals tournament when given. Results 1-0, 0-1, 1/2-1/2, '
    '+-, -+ (forfeits), bye, NULL (no result yet), or what result_map says a value means. Players in FIDE''s '
    'initial order (rating, then name, then id) unless initial_order_column gives it. first_colour_white: the top '
    'seed''s colour in round 1 (C.04.3 5.2.5, true White, false Black; NULL: the colour the stored rounds show, '
    'as a TRF without XXC, else White). virtual_points: accelerated rounds (C.04.5) as XXA lines give them, a JSON '
    'object of player ids and their virtual points per round from round 1 ({"a": [1, 1, 0.5]}; not with '
    'baku_acceleration). One row per board (white '
    'and black are the application''s ids as text), then the pairing-allocated bye with black NULL. Errors: '
    'a missing column 42703, a column of the wrong type 42804, a NULL argument 22004, a player id twice, a game '
    'naming no player, a round outside 1..rounds, round not the next round 22023, round already paired or a game '
    'without result 55000, two games of a player in a round 23514, no valid pairing 23514, no SELECT privilege '
    '42501, a system other than dutch or burstein 22023, virtual_points not an object of arrays of whole or half '
    'points from 0 to 1000, naming no player, longer than the rounds, or with baku_acceleration '
    '22023.';
COMMENT ON FUNCTION tournament_pair_into(regclass, regclass, regclass, integer, integer, text, text, text, text,
                                         text, text, text, text, text, text, jsonb, text, text, text[], boolean,
                                         boolean, text, text, text, text, jsonb, jsonb, text, jsonb) IS
    'tournament_pairings_from_tables, and its rows inserted into the table pending (as the caller, in the '
    'caller''s transaction): pending_white_column and pending_black_column get the ids (black NULL for the bye), '
    'pending_round_column the round and pending_board_column the board when given, and every row the values of '
    'pending_values (the bye''s row also those of pending_bye_values), a JSON object of column names. Returns the '
    'pairing. Errors as tournament_pairings_from_tables, and those of the INSERT (42501 without its privilege).';
COMMENT ON FUNCTION tournament_pairings_from_trf(text, int[], text) IS
    'The pairing of the round after the rounds in a TRF-16 text by the FIDE Dutch system (C.04.3, 2025 rules), or '
    'by the Burstein system (C.04.4.2, as bbpPairings v6.0.0 reads it) when system is ''burstein'': '
    'one row per board (board from 1, white and black by starting rank), then the pairing-allocated bye, if any, '
    'as a row with black NULL. The round paired is the one after the last round with a game, a forfeit or a '
    'pairing-allocated bye; players whose line already has an entry for it (a requested bye, 0000 - Z for an '
    'absence) are not paired. XXR gives the number of rounds, XXC white1/black1 the top seed''s colour in round 1 '
    '(without XXC: the colour the file''s first round with a colour shows, else white1); accelerated rounds from XXA lines (virtual points per round) or, without them, a '
    '192 FIDE_DUTCH_BAKU line (Baku acceleration, FIDE C.04.5.1), as bbpPairings reads them; without either, the '
    'Burstein system accelerates rounds 1 and 2 (one virtual point for the upper half). Nothing is '
    'written. forbidden_pairs: starting ranks two by two (ARRAY[[1, 5], [2, 7]]), players who must not meet. '
    'Errors: malformed TRF 22023, every round paired 22023, a forbidden pair that is not two different players of '
    'the file 22023 (a NULL: 22004), a system other than dutch or burstein 22023, no pairing that meets the '
    'absolute criteria 23514.';

-- The SQL copy of the RD growth of 0.12.0 (see ledger_rd_now above): no reader names it now.
DROP FUNCTION ledger_rd_now(float8, float8, float8, timestamptz, interval, float8);

-- The schema that holds pg_rating (and pg_rating_random_chess, created in it) keeps its name. The
-- SQL and PL/pgSQL bodies of both extensions name it as text (@extschema@), looked up again at
-- every call: were it renamed, a schema then made under the old name by a role that may create
-- one (on PostgreSQL 15 the database's owner owns public) would receive those calls, SECURITY
-- DEFINER functions' included, and its objects would run with the rights of their callers,
-- the extension's owner among them. Its owner may still change (ALTER SCHEMA ... OWNER TO).
CREATE FUNCTION refuse_extension_schema_rename() RETURNS event_trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    renamed record;
BEGIN
    FOR renamed IN
        SELECT c.object_identity
        FROM pg_catalog.pg_event_trigger_ddl_commands() c
        JOIN pg_catalog.pg_extension x ON x.extnamespace OPERATOR(pg_catalog.=) c.objid
        WHERE c.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_namespace'::pg_catalog.regclass::pg_catalog.oid
          AND x.extname OPERATOR(pg_catalog.=) 'pg_rating'
          AND c.object_identity OPERATOR(pg_catalog.<>) '@extschema@'
    LOOP
        RAISE EXCEPTION 'schema @extschema@ holds pg_rating and cannot be renamed'
            USING ERRCODE = '0A000',
                  DETAIL = 'Its functions name the schema @extschema@; renamed to ' OPERATOR(pg_catalog.||)
                           renamed.object_identity OPERATOR(pg_catalog.||)
                           ', another schema of that name would receive their calls.';
    END LOOP;
END
$$;
REVOKE ALL ON FUNCTION refuse_extension_schema_rename() FROM PUBLIC;

COMMENT ON FUNCTION refuse_extension_schema_rename() IS
    'Event trigger function of pg_rating_keep_schema_name: refuses (0A000) to rename the schema that holds '
    'pg_rating, whose functions name it.';

CREATE EVENT TRIGGER pg_rating_keep_schema_name ON ddl_command_end
    WHEN TAG IN ('ALTER SCHEMA')
    EXECUTE FUNCTION refuse_extension_schema_rename();

COMMENT ON EVENT TRIGGER pg_rating_keep_schema_name IS
    'Refuses to rename the schema that holds pg_rating (refuse_extension_schema_rename).';

-- Nobody makes a function, procedure or aggregate in that schema with the name of one of pg_rating's
-- (or pg_rating_random_chess's), nor an operator there on one of their types. Calls name
-- pg_rating's functions with its schema, from its own bodies (inlined into the caller's query) and
-- from applications; PostgreSQL resolves such a call among every function of that name in the
-- schema, and one with argument types nearer the call's wins (a `ledger_typed(text, text)` beside
-- pg_rating's `ledger_typed(text, anyelement)`; the constructor of a range type of that name), or
-- makes the call ambiguous. Likewise no built-in operator takes pg_rating's types exactly (only
-- `record = record`), so an operator on them in the schema would receive every comparison of them.
-- On PostgreSQL 15 a database's owner owns public and may create there: its namesake would run with
-- the rights of every caller, a superuser's included.
CREATE FUNCTION extension_namesakes(procs oid[], operators oid[]) RETURNS text
    LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp
AS $$
-- (each object looked up by its indexes: the event trigger below runs this for every function
-- and operator any command of the database makes)
WITH ours AS (SELECT array_agg(x.oid) AS extensions, min(x.extnamespace) FILTER (WHERE x.extname = 'pg_rating') AS schema
              FROM pg_extension x WHERE x.extname IN ('pg_rating', 'pg_rating_random_chess'))
SELECT string_agg(found, ', ' ORDER BY found)
FROM (SELECT p.oid::regprocedure::text AS found
      FROM ours, pg_proc p
      WHERE (procs IS NULL OR p.oid = ANY (procs)) AND p.pronamespace = ours.schema
        AND NOT EXISTS (SELECT FROM pg_depend d
                        WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.objsubid = 0
                          AND d.deptype = 'e' AND d.refobjid = ANY (ours.extensions))
        AND EXISTS (SELECT FROM pg_proc m JOIN pg_depend d
                           ON d.classid = 'pg_proc'::regclass AND d.objid = m.oid AND d.objsubid = 0
                          AND d.deptype = 'e' AND d.refobjid = ANY (ours.extensions)
                    WHERE m.proname = p.proname AND m.pronamespace = p.pronamespace)
      UNION ALL
      SELECT 'operator ' || o.oid::regoperator::text
      FROM ours, pg_operator o
      WHERE (operators IS NULL OR o.oid = ANY (operators)) AND o.oprnamespace = ours.schema
        AND NOT EXISTS (SELECT FROM pg_depend d
                        WHERE d.classid = 'pg_operator'::regclass AND d.objid = o.oid AND d.objsubid = 0
                          AND d.deptype = 'e' AND d.refobjid = ANY (ours.extensions))
        AND EXISTS (SELECT FROM pg_type t
                    WHERE t.oid IN (o.oprleft, o.oprright)
                      AND (EXISTS (SELECT FROM pg_depend d
                                   WHERE d.classid = 'pg_type'::regclass AND d.objid = t.oid AND d.objsubid = 0
                                     AND d.deptype = 'e' AND d.refobjid = ANY (ours.extensions))
                           -- (the row type of one of their tables)
                           OR EXISTS (SELECT FROM pg_depend d
                                      WHERE d.classid = 'pg_class'::regclass AND d.objid = t.typrelid
                                        AND d.objsubid = 0 AND d.deptype = 'e'
                                        AND d.refobjid = ANY (ours.extensions))))) f
$$;

COMMENT ON FUNCTION extension_namesakes(oid[], oid[]) IS
    'Those of the given functions and operators (NULL: every one) that are not of pg_rating or '
    'pg_rating_random_chess but, in the schema that holds them, have the name of one of their functions or '
    'take one of their types; NULL when none.';

CREATE FUNCTION refuse_function_namesakes() RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    -- (typed: an untyped NULL would prefer a function of text arguments of that name, made before
    -- pg_rating by anyone who may create in the schema, and run it with the installer's rights)
    PERFORM @extschema@.refuse_namesakes_found(
        @extschema@.extension_namesakes(NULL::pg_catalog.oid[], NULL::pg_catalog.oid[]));
END
$$;

COMMENT ON FUNCTION refuse_function_namesakes() IS
    'Refuses (42723) while the schema that holds pg_rating has a function, procedure or aggregate that is '
    'not of pg_rating or pg_rating_random_chess with the name of one of theirs, or an operator on one of '
    'their types; run at the end of the install and update scripts.';

CREATE FUNCTION refuse_namesakes_found(namesakes text) RETURNS void
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
BEGIN
    IF namesakes IS NOT NULL THEN
        RAISE EXCEPTION 'schema @extschema@ holds pg_rating: no function of another there may have the name of one of pg_rating''s, nor an operator take one of its types'
            USING ERRCODE = '42723',
                  DETAIL = 'Found: ' || namesakes || '. Calls of pg_rating''s functions (its own bodies'' among '
                           'them) and comparisons of its types would reach it, with the rights of each caller.',
                  HINT = 'Give it another name, or create it in another schema.';
    END IF;
END
$$;

COMMENT ON FUNCTION refuse_namesakes_found(text) IS
    'Raises 42723 naming the functions and operators found by extension_namesakes, if any.';

-- (the objects of the command only: one made before, however, locks no other command out)
CREATE FUNCTION refuse_function_namesakes_after_ddl() RETURNS event_trigger
    LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp
AS $$
DECLARE
    made record;
    procs oid[] := '{}';
    operators oid[] := '{}';
BEGIN
    FOR made IN SELECT c.classid, c.objid FROM pg_event_trigger_ddl_commands() c LOOP
        IF made.classid = 'pg_proc'::regclass THEN
            procs := procs || made.objid;
        ELSIF made.classid = 'pg_operator'::regclass THEN
            operators := operators || made.objid;
        ELSIF made.classid = 'pg_type'::regclass THEN
            -- a type's own functions (a range type's constructors, and its multirange type's),
            -- which depend on it
            procs := procs || ARRAY(
                SELECT d.objid FROM pg_depend d
                WHERE d.refclassid = 'pg_type'::regclass AND d.classid = 'pg_proc'::regclass
                  AND (d.refobjid = made.objid
                       OR d.refobjid IN (SELECT t.objid FROM pg_depend t
                                         WHERE t.refclassid = 'pg_type'::regclass AND t.refobjid = made.objid
                                           AND t.classid = 'pg_type'::regclass)));
        ELSIF made.classid = 'pg_extension'::regclass THEN
            procs := procs || ARRAY(SELECT d.objid FROM pg_depend d
                                    WHERE d.refclassid = 'pg_extension'::regclass AND d.refobjid = made.objid
                                      AND d.classid = 'pg_proc'::regclass AND d.deptype = 'e');
            operators := operators || ARRAY(SELECT d.objid FROM pg_depend d
                                            WHERE d.refclassid = 'pg_extension'::regclass
                                              AND d.refobjid = made.objid
                                              AND d.classid = 'pg_operator'::regclass AND d.deptype = 'e');
        END IF;
    END LOOP;
    IF cardinality(procs) > 0 OR cardinality(operators) > 0 THEN
        PERFORM @extschema@.refuse_namesakes_found(@extschema@.extension_namesakes(procs, operators));
    END IF;
END
$$;
REVOKE ALL ON FUNCTION refuse_function_namesakes_after_ddl() FROM PUBLIC;

COMMENT ON FUNCTION refuse_function_namesakes_after_ddl() IS
    'Event trigger function of pg_rating_keep_function_names: refuses (42723) the functions and operators a '
    'command made or changed that extension_namesakes finds.';

CREATE EVENT TRIGGER pg_rating_keep_function_names ON ddl_command_end
    WHEN TAG IN ('CREATE FUNCTION', 'ALTER FUNCTION', 'CREATE PROCEDURE', 'ALTER PROCEDURE',
                 'ALTER ROUTINE', 'CREATE AGGREGATE', 'ALTER AGGREGATE', 'CREATE TYPE', 'ALTER TYPE',
                 'CREATE OPERATOR', 'ALTER OPERATOR', 'CREATE EXTENSION', 'ALTER EXTENSION')
    EXECUTE FUNCTION refuse_function_namesakes_after_ddl();

COMMENT ON EVENT TRIGGER pg_rating_keep_function_names IS
    'Refuses a function, procedure or aggregate in the schema that holds pg_rating with the name of one of '
    'pg_rating''s, and an operator there on one of its types (refuse_function_namesakes_after_ddl).';


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

-- attachments left by tables dropped before this update
SELECT @extschema@.ledger_forget_dropped_tables(pg_catalog.array_agg(a.games::pg_catalog.oid))
FROM @extschema@.ledger_attachments a HAVING pg_catalog.count(*) OPERATOR(pg_catalog.>) 0;

-- A foreign key of another role's table to a table of either extension (REFERENCES was theirs
-- to hold before 0.13.0): its referential action would make pg_rating's writers, which run as the
-- extension's owner, change that table's rows and fire its triggers with the owner's rights. The
-- update stops until such keys are gone (a superuser's own tables excepted).
DO $$
DECLARE
    found text;
BEGIN
    SELECT pg_catalog.string_agg(pg_catalog.format('%I on %s (owned by %I) references %s', k.conname,
                                                   k.conrelid::pg_catalog.regclass, r.rolname,
                                                   k.confrelid::pg_catalog.regclass), '; ')
    INTO found
    FROM pg_catalog.pg_constraint k
    JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) k.conrelid
    JOIN pg_catalog.pg_roles r ON r.oid OPERATOR(pg_catalog.=) c.relowner
    WHERE k.contype OPERATOR(pg_catalog.=) 'f' AND NOT r.rolsuper
      AND k.confrelid OPERATOR(pg_catalog.=) ANY (ARRAY(SELECT d.objid FROM pg_catalog.pg_depend d
                          JOIN pg_catalog.pg_extension x ON x.oid OPERATOR(pg_catalog.=) d.refobjid
                          WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid
                            AND d.deptype OPERATOR(pg_catalog.=) 'e'
                            AND x.extname OPERATOR(pg_catalog.=)
                                ANY ('{pg_rating,pg_rating_random_chess}'::pg_catalog.name[])))
      AND NOT k.conrelid OPERATOR(pg_catalog.=) ANY (ARRAY(SELECT d.objid FROM pg_catalog.pg_depend d
                             WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass::pg_catalog.oid
                               AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass::pg_catalog.oid
                               AND d.deptype OPERATOR(pg_catalog.=) 'e'));
    IF found IS NOT NULL THEN
        RAISE EXCEPTION 'pg_rating 0.13.0 allows no foreign key of another role''s table to its tables'
            USING ERRCODE = '42501', DETAIL = 'Found: ' OPERATOR(pg_catalog.||) found OPERATOR(pg_catalog.||) '.',
                  HINT = 'pg_rating''s writers run as the extension''s owner: a referential action would fire the '
                         'table''s triggers with those rights. Drop these constraints, then update again.';
    END IF;
END
$$;

-- no function made in the schema before this update has the name of one of pg_rating's (see
-- refuse_function_namesakes above)
SELECT @extschema@.refuse_function_namesakes();

-- the privileges only a table's owner keeps, on the tables made since (default privileges)
SELECT @extschema@.restrict_table_privileges();
