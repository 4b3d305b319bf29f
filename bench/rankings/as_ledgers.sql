-- Every ranking as a ledger attached to service_games: the ranking's rating settings, its window
-- (and bots) as the filter, the white score a generated column. Used by bench/rankings_as_ledgers.sh
-- and the integration test tests/integration/rankings_as_ledgers.sh, which compares the two.
ALTER TABLE service_games ADD COLUMN white_score float8 GENERATED ALWAYS AS (game_score(result, true)) STORED;
DO $$
DECLARE
    r record;
    filter text;
    no_bot text := 'NOT EXISTS (SELECT FROM service_accounts a WHERE a.service_id = 1 AND a.user_id_in_service = %s '
                   'AND a.is_bot)';
BEGIN
    FOR r IN SELECT * FROM rankings ORDER BY id LOOP
        -- (the rankings rate Glicko-2 by the lichess rule, step 6 skipped)
        INSERT INTO ledgers (name, rating_system, starting_rating, k_factor, tau, starting_rd, starting_volatility,
                             rating_period, glicko2_rule)
        VALUES ('ranking ' || r.id, r.rating_system, r.starting_elo, r.k_factor, r.glicko2_tau, r.starting_rd,
                r.starting_volatility, r.rating_period, 'lichess');
        filter := format('service_id = 1 AND is_ranked AND clock_base_time(clock, %s) >= %L::interval',
                         r.extra_move_multiplier, r.playtime_min);
        IF r.playtime_max IS NOT NULL THEN
            filter := filter || format(' AND clock_base_time(clock, %s) < %L::interval',
                                       r.extra_move_multiplier, r.playtime_max);
        END IF;
        IF NOT r.include_bots THEN
            filter := filter || ' AND ' || format(no_bot, 'white_player') || ' AND ' || format(no_bot, 'black_player');
        END IF;
        PERFORM ledger_attach('ranking ' || r.id, 'service_games', 'id', 'creation_date', 'white_player',
                              'black_player', 'white_score', filter => filter);
    END LOOP;
END $$;
