-- Ranking $1's ledger, made or brought to the ranking's settings, read by src/ranking/store.rs
-- (RankingStore::keep_ledger) when a ranking is inserted or updated: a ledgers row named
-- "random_chess ranking <id>" whose history is kept in elo_history (kept_in), owned by the
-- extension's owner. A ledger of that name left by a dropped Random Chess schema (its kept_in
-- table gone) is taken over; an application's own ledger of that name is not (no row). Updated
-- first, inserted only when missing: an update takes no number from ledgers_id_seq.
WITH r AS (
    SELECT 'random_chess ranking ' || r.id AS name, current_user::regrole AS owner,
           r.rating_system, r.starting_elo::float8 AS starting_rating, r.k_factor::float8 AS k_factor,
           r.starting_rd, r.starting_volatility, r.glicko2_tau AS tau, r.rating_period, r.provisional_games,
           r.provisional_rd, '@extschema@.elo_history'::regclass AS kept_in
    FROM @extschema@.rankings r
    WHERE r.id = $1
), updated AS (
    UPDATE @extschema@.ledgers l
    SET owner = r.owner, rating_system = r.rating_system, starting_rating = r.starting_rating,
        k_factor = r.k_factor, starting_rd = r.starting_rd, starting_volatility = r.starting_volatility,
        tau = r.tau, rating_period = r.rating_period, provisional_games = r.provisional_games,
        provisional_rd = r.provisional_rd, kept_in = r.kept_in
    FROM r
    WHERE l.name = r.name
      AND (l.kept_in = r.kept_in
           OR (l.kept_in IS NOT NULL AND NOT EXISTS (SELECT FROM pg_catalog.pg_class c WHERE c.oid = l.kept_in)))
    RETURNING l.id
), inserted AS (
    INSERT INTO @extschema@.ledgers (name, owner, rating_system, starting_rating, k_factor, starting_rd, starting_volatility,
                         tau, rating_period, provisional_games, provisional_rd, kept_in)
    SELECT r.name, r.owner, r.rating_system, r.starting_rating, r.k_factor, r.starting_rd, r.starting_volatility,
           r.tau, r.rating_period, r.provisional_games, r.provisional_rd, r.kept_in
    FROM r
    WHERE NOT EXISTS (SELECT FROM @extschema@.ledgers l WHERE l.name = r.name)
    RETURNING id
)
SELECT id FROM updated UNION ALL SELECT id FROM inserted
