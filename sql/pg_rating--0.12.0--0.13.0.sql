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

-- Glicko-2 as the documents write it (issue 32)
-- A ledger's per-game Glicko-2 rule: existing ledgers keep the lichess rule they rated by (the
-- value their rows get when the column is added), new ledgers take Glickman's full one-game period.
ALTER TABLE ledgers ADD COLUMN glicko2_rule text NOT NULL DEFAULT 'lichess'
    CONSTRAINT ledger_glicko2_rule_known CHECK (glicko2_rule IN ('glickman', 'lichess'));
ALTER TABLE ledgers ALTER COLUMN glicko2_rule SET DEFAULT 'glickman';
ALTER TABLE ledgers ADD COLUMN min_rd float8;
ALTER TABLE ledgers ADD COLUMN max_rd float8;
ALTER TABLE ledgers ADD COLUMN max_volatility float8;
COMMENT ON TABLE ledgers IS
    'Rating ledgers: a rating system (elo: starting_rating, k_factor; fide: starting_rating, K by FIDE''s rules '
    'from each player''s games and peak; glicko2: starting_rating, starting_rd, starting_volatility, tau, '
    'rating_period, glicko2_rule (glickman: each game a full one-game rating period, the default; lichess: '
    'without step 6, the rule of ledgers made before 0.13.0), bounds min_rd, max_rd (NULL: starting_rd) and '
    'max_volatility; skemino: starting_rating), limits (max_change per game, '
    'rating_floor) and when a player is provisional. Settings are checked when written (23514); changing them '
    'rebuilds the ledger. owner may attach and change it. kept_in: NULL, or the table of a client of pg_rating '
    'that keeps the ledger''s history (a Random Chess ranking: elo_history); such a ledger is written by pg_rating '
    'only, with its client''s settings.';
COMMENT ON FUNCTION ledger_what_if(text, float8[], float8[]) IS
    'The same metrics for the ledger''s own setting (first row) and for other K factors or taus, replayed in memory '
    'over the ledger''s games; nothing is written. A setting that cannot change the ledger''s ratings is refused '
    '(22023): K factors but for elo, taus but for glicko2 by Glickman''s rule, with a rating_period or with the '
    'period rule of multiplayer games.';
