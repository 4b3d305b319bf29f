-- pg_rating_random_chess 0.7.0 -> 0.8.0: a ranking may use any rating system the engine knows
-- (FIDE's game-by-game rules too, with a starting rating FIDE's table reads); its history is
-- rated by the engine's ledger replay (no change of the rows).

ALTER TABLE rankings DROP CONSTRAINT known_rating_system,
    ADD CONSTRAINT known_rating_system CHECK (@extschema@.rating_system_known(rating_system)),
    ADD CONSTRAINT fide_starting_elo_in_range CHECK (rating_system <> 'fide' OR starting_elo <= 4000);
