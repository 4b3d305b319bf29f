-- Tournament $1's time control and its ranking's window (the core decides whether a ranked
-- tournament's clock falls in it), with the texts an error names. Read by
-- src/tournament/rules.rs (check_tournament).
SELECT t.is_ranked, k.name::text AS ranking_name, t.time_control::text AS time_control,
       (t.time_control).starting_time, (t.time_control).move_increase,
       k.playtime_min, k.playtime_max, k.extra_move_multiplier, k.include_bots,
       k.playtime_min::text AS playtime_min_text,
       coalesce(k.playtime_max::text, 'no limit') AS playtime_max_text,
       k.id AS ranking_id
FROM @extschema@.swiss_tournaments t JOIN @extschema@.rankings k ON k.id = t.ranking_id WHERE t.tournament_id = $1
