-- pg_rating_random_chess 0.9.0 -> 0.10.0: each ranking is a ledger of the engine (update
-- pg_rating to 0.10.0 first). Every ranking gets its ledgers row, "random_chess ranking <id>",
-- with the ranking's settings and its history kept in elo_history (kept_in); its writers take
-- that ledger's ledger_scopes row instead of a ranking_locks row, which goes. No row of the
-- history or the standings changes.

INSERT INTO @extschema@.ledgers AS l (name, owner, rating_system, starting_rating, k_factor, starting_rd,
                          starting_volatility, tau, rating_period, provisional_games, provisional_rd, kept_in)
SELECT 'random_chess ranking ' || r.id, current_user::regrole, r.rating_system, r.starting_elo, r.k_factor,
       r.starting_rd, r.starting_volatility, r.glicko2_tau, r.rating_period, r.provisional_games, r.provisional_rd,
       '@extschema@.elo_history'::regclass
FROM @extschema@.rankings r
ORDER BY r.id
ON CONFLICT (name) DO UPDATE
SET owner = EXCLUDED.owner, rating_system = EXCLUDED.rating_system, starting_rating = EXCLUDED.starting_rating,
    k_factor = EXCLUDED.k_factor, starting_rd = EXCLUDED.starting_rd,
    starting_volatility = EXCLUDED.starting_volatility, tau = EXCLUDED.tau, rating_period = EXCLUDED.rating_period,
    provisional_games = EXCLUDED.provisional_games, provisional_rd = EXCLUDED.provisional_rd,
    kept_in = EXCLUDED.kept_in
WHERE l.kept_in = EXCLUDED.kept_in
   OR (l.kept_in IS NOT NULL AND NOT EXISTS (SELECT FROM pg_catalog.pg_class c WHERE c.oid = l.kept_in));
DO $$
BEGIN
    IF EXISTS (SELECT FROM @extschema@.rankings r
               WHERE NOT EXISTS (SELECT FROM @extschema@.ledgers l
                                 WHERE l.name = 'random_chess ranking ' || r.id
                                   AND l.kept_in = '@extschema@.elo_history'::regclass)) THEN
        RAISE EXCEPTION 'a ledger named "random_chess ranking <id>" of a ranking exists already'
            USING ERRCODE = 'unique_violation', HINT = 'Rename that ledger, then update again.';
    END IF;
END
$$;

DROP TABLE ranking_locks;

COMMENT ON TABLE rankings IS
    'A time-control window [playtime_min, playtime_max) of clock_base_time(clock, extra_move_multiplier), '
    'with its rating system (elo: starting_elo and k_factor; glicko2: starting_elo, starting_rd, '
    'starting_volatility, glicko2_tau, rating_period; skemino: starting_elo). Inserting or updating one '
    'recalculates its history. Each ranking is the engine''s ledger "random_chess ranking <id>" (ledgers, '
    'kept_in = elo_history), kept at its settings by pg_rating.';
COMMENT ON FUNCTION recalculate_changed_ranking() IS
    'Trigger: makes an inserted ranking''s ledger or brings it to the ranking''s settings, and recalculates the ranking.';
COMMENT ON FUNCTION forget_deleted_rankings() IS
    'Trigger: removes the standings and the ledgers (with their lock rows) of deleted rankings.';
