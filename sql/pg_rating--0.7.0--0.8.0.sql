-- pg_rating 0.7.0 -> 0.8.0: the rating systems are named in the core alone; the check of
-- ledgers.rating_system asks rating_system_known, so a new system needs no new SQL list.

CREATE FUNCTION rating_system_known(name text) RETURNS boolean
    IMMUTABLE STRICT PARALLEL SAFE
    LANGUAGE c AS 'MODULE_PATHNAME', 'rating_system_known_wrapper';
COMMENT ON FUNCTION rating_system_known(text) IS
    'True when the name is a rating system pg_rating knows (elo, fide, glicko2, skemino): the check of the rating_system column of ledgers and rankings.';

ALTER TABLE ledgers DROP CONSTRAINT ledger_rating_system_known,
    ADD CONSTRAINT ledger_rating_system_known CHECK (@extschema@.rating_system_known(rating_system));
