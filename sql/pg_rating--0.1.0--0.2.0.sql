-- pg_rating 0.1.0 -> 0.2.0. Run by ALTER EXTENSION pg_rating UPDATE (in one transaction, with the
-- extension's schema first on the search_path).
\echo Use "ALTER EXTENSION pg_rating UPDATE TO '0.2.0'" to load this file. \quit

-- elo_history: the same rows and rules at a lower cost per game rated. The account's foreign
-- key and the composite foreign key of the chain (with the unique key it needed) give way to
-- checks of check_elo_history_entry for writers other than pg_rating; the unique keys lead with
-- game_id and previous_entry, which makes the index by game redundant.
ALTER TABLE elo_history
    DROP CONSTRAINT elo_history_account_fkey,
    DROP CONSTRAINT previous_entry_of_same_chain,
    DROP CONSTRAINT elo_history_chain_key,
    DROP CONSTRAINT one_entry_per_game,
    DROP CONSTRAINT one_successor_per_entry;
DROP INDEX elo_history_by_game;
ALTER TABLE elo_history
    ADD CONSTRAINT one_entry_per_game UNIQUE (game_id, ranking_id, user_id_in_service, service_id),
    ADD CONSTRAINT one_successor_per_entry UNIQUE NULLS NOT DISTINCT (previous_entry, ranking_id, user_id_in_service, service_id)
        DEFERRABLE INITIALLY IMMEDIATE,
    ADD CONSTRAINT previous_entry_fkey FOREIGN KEY (previous_entry) REFERENCES elo_history (id);

-- Room on every page of ranking_players for HOT updates (pages written from now on; run
-- VACUUM FULL ranking_players to repack the existing ones).
ALTER TABLE ranking_players SET (fillfactor = 50);

-- At most 1000 rounds per tournament: a huge round_count made the standings allocate memory
-- for every round (the update fails if a tournament already has more).
ALTER TABLE swiss_tournaments ADD CONSTRAINT round_count_at_most_1000 CHECK (round_count <= 1000);

COMMENT ON FUNCTION check_elo_history_entry() IS
    'Trigger: a history entry written outside pg_rating''s triggers must be a (game, ranking) pair of games_rankings, '
    'belong to one of the game''s two players, and follow an earlier entry of the same account and ranking; an '
    'entry that another entry follows keeps its account and ranking.';
