-- A season of every scope (ledger_seasons.every_scope; seed 003, section 13: a site-wide season):
-- it resets every scope of the ledger at its end, the scopes rated for the first time after it
-- was made included, in the writers, the replays, the standings as of now and the seasons' view.
SET client_min_messages = warning;
CREATE FUNCTION pg_temp.same_as_rebuild(l text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE before text; after text;
BEGIN
  SELECT string_agg(format('%s %s %s %s %s %s', scope, player, sort_key, rating, rating_before, games), ','
                    ORDER BY scope, player, game_date, sort_key)
  INTO before FROM ledger_history WHERE ledger = l;
  PERFORM ledger_rebuild(l);
  SELECT string_agg(format('%s %s %s %s %s %s', scope, player, sort_key, rating, rating_before, games), ','
                    ORDER BY scope, player, game_date, sort_key)
  INTO after FROM ledger_history WHERE ledger = l;
  RETURN before IS NOT DISTINCT FROM after;
END $$;
-- Each player's first game after an end in a scope starts from the standing after their last game
-- before it, pulled halfway to the start: true when every such game does.
CREATE FUNCTION pg_temp.starts_reset(l text, ends timestamptz) RETURNS TABLE (scope text, checked bigint, reset boolean)
LANGUAGE sql AS $$
SELECT a.scope, count(*), bool_and(abs(a.rating_before - (1500 + (b.rating - 1500) * 0.5)) < 1e-9)
FROM (SELECT DISTINCT ON (scope, player) * FROM ledger_history
      WHERE ledger = l AND game_date >= ends ORDER BY scope, player, game_date, sort_key) a
JOIN LATERAL (SELECT h.rating FROM ledger_history h
              WHERE h.ledger = l AND h.scope = a.scope AND h.player = a.player AND h.game_date < ends
              ORDER BY h.game_date DESC, h.sort_key DESC LIMIT 1) b ON true
GROUP BY a.scope ORDER BY a.scope
$$;

INSERT INTO ledgers (name, rating_system, k_factor) VALUES ('site', 'elo', 32);
CREATE TABLE plays (id int PRIMARY KEY, at timestamptz NOT NULL, title text NOT NULL, a text, b text, s float8);
SELECT ledger_attach('site', 'plays', 'id', 'at', 'a', 'b', 's', scope_column => 'title');
INSERT INTO plays
SELECT i, timestamptz '2025-01-01' + i * interval '1 day', CASE WHEN i % 2 = 0 THEN 'catan' ELSE 'chess' END,
       'p' || (i % 3), 'p' || ((i + 1) % 3), (i % 3) / 2.0
FROM generate_series(1, 20) i;

-- a season of every scope: both titles are replayed from its end
INSERT INTO ledger_seasons (ledger_id, name, ends_at, rating_pull, every_scope)
SELECT id, 'Season 1', '2025-01-11', 0.5, true FROM ledgers WHERE name = 'site';
SELECT * FROM pg_temp.starts_reset('site', '2025-01-11');
SELECT pg_temp.same_as_rebuild('site') AS same_as_rebuild;

-- a title first played after the season was made: its games after the end start from the reset too
INSERT INTO plays
SELECT 100 + i, timestamptz '2025-01-05' + i * interval '2 days', 'go', 'p' || (i % 2), 'q' || (i % 2), 1
FROM generate_series(1, 6) i;
SELECT * FROM pg_temp.starts_reset('site', '2025-01-11') WHERE scope = 'go';
SELECT pg_temp.same_as_rebuild('site') AS same_with_a_new_title;

-- the seasons' view: the season in every scope; a season of one scope ending later starts there
-- from the season of every scope
INSERT INTO ledger_seasons (ledger_id, scope, name, ends_at, rating_pull)
SELECT id, 'chess', 'Chess spring', '2025-01-18', 0 FROM ledgers WHERE name = 'site';
SELECT scope, season, ends_at, season_starts_at, count(*) AS players, sum(season_games) AS season_games
FROM ledger_season_standings WHERE ledger = 'site' GROUP BY 1, 2, 3, 4 ORDER BY 1, 3;

-- the standings as of now: a season of every scope that ended after everyone's last game
INSERT INTO ledger_seasons (ledger_id, name, ends_at, rating_pull, every_scope)
SELECT id, 'Season 2', '2025-06-01', 1, true FROM ledgers WHERE name = 'site';
SELECT scope, count(*) AS players, bool_and(rating = 1500) AS all_reset FROM ledger_standings_now
WHERE ledger = 'site' GROUP BY scope ORDER BY scope;
SELECT rating FROM ledger_player_standing('site', 'p1'::text, 'go');
SELECT ledger_player_rank('site', 'p1', 'catan') AS rank_after_reset;
SELECT count(*) AS leaderboard_rows, bool_and(rating = 1500) AS all_reset FROM ledger_leaderboard('site', 'chess');

-- one season end at a time in a scope: a season of one scope cannot end with one of every scope
INSERT INTO ledger_seasons (ledger_id, scope, name, ends_at)
SELECT id, 'catan', 'Catan too', '2025-01-11' FROM ledgers WHERE name = 'site';
-- a season of every scope is stored under scope ''
INSERT INTO ledger_seasons (ledger_id, scope, name, ends_at, every_scope)
SELECT id, 'catan', 'Only catan', '2025-02-01', true FROM ledgers WHERE name = 'site';

-- removed: every scope is replayed back; moved to a season of one scope: only that one keeps it
DELETE FROM ledger_seasons WHERE name IN ('Season 2', 'Chess spring');
UPDATE ledger_seasons SET every_scope = false, scope = 'chess' WHERE name = 'Season 1';
SELECT * FROM pg_temp.starts_reset('site', '2025-01-11');
SELECT pg_temp.same_as_rebuild('site') AS same_after_moving_it;
SELECT count(*) AS copies_differing FROM (
    (SELECT * FROM ledger_seasons EXCEPT SELECT * FROM ledger_seasons_in_force)
    UNION ALL (SELECT * FROM ledger_seasons_in_force EXCEPT SELECT * FROM ledger_seasons)) d;
