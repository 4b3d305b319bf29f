-- pg_rating_random_chess 0.10.0 -> 0.11.0 (update pg_rating to 0.11.0 first): elo_history loses the
-- foreign key previous_entry_fkey (previous_entry -> elo_history (id)). previous_entry stays the
-- id of the same account's earlier entry in the same ranking: pg_rating writes it so and no one
-- else writes the table; the key was checked for every entry written, 5 to 9 % of the time a game
-- takes to rate. A catalog change only: no row changes and nothing is scanned.

ALTER TABLE @extschema@.elo_history DROP CONSTRAINT previous_entry_fkey;
