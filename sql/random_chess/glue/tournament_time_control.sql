-- Whether tournament $1's time control fits its ranking's window (what a ranked tournament must
-- keep), with the texts an error names. Read by src/tournament/rules.rs (check_tournament).
SELECT t.is_ranked, k.name::text AS ranking_name, t.time_control::text AS time_control,
       coalesce(@extschema@.clock_base_time(t.time_control, k.extra_move_multiplier) >= k.playtime_min
                AND (k.playtime_max IS NULL
                     OR @extschema@.clock_base_time(t.time_control, k.extra_move_multiplier) < k.playtime_max), false)
           AS fits,
       k.playtime_min::text AS playtime_min, coalesce(k.playtime_max::text, 'no limit') AS playtime_max,
       k.id AS ranking_id
FROM @extschema@.swiss_tournaments t JOIN @extschema@.rankings k ON k.id = t.ranking_id WHERE t.tournament_id = $1
