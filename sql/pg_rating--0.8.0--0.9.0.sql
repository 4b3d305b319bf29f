-- pg_rating 0.8.0 -> 0.9.0: the guard of the derived tables also guards the Random Chess
-- schema's ranking_locks (pg_rating_random_chess 0.9.0); only its description changes here.

COMMENT ON FUNCTION refuse_foreign_write() IS
    'Trigger of the derived tables (elo_history, ranking_players, ranking_locks, ranking_writes, the '
    'swiss_tournament_* tables and the ledgers'' derived tables): refuses, with 42501, every write that '
    'does not come from pg_rating''s own triggers and functions.';
