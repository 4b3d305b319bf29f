-- One statement on a table of two ledgers where one appends and the other replays (issue 33's
-- sans-IO writer: reads batched over both, the appended rows flushed after the replay's): both
-- equal a rebuild, a capped one too.
CREATE FUNCTION pg_temp.history(l text) RETURNS text LANGUAGE sql AS $$
  SELECT string_agg(format('%s %s %s %s %s', scope, player, game, round(rating::numeric, 6), games), ',' ORDER BY scope, player, game_date, game)
  FROM ledger_history WHERE ledger = l $$;
CREATE FUNCTION pg_temp.same_as_rebuild(l text) RETURNS boolean LANGUAGE plpgsql AS $$
DECLARE before text; after text;
BEGIN
  before := pg_temp.history(l);
  PERFORM ledger_rebuild(l);
  after := pg_temp.history(l);
  RETURN before IS NOT DISTINCT FROM after;
END $$;
CREATE TABLE games (id int PRIMARY KEY, at timestamptz NOT NULL, w text NOT NULL, b text NOT NULL, s float8,
                    pool text NOT NULL);
INSERT INTO ledgers (name, rating_system, k_factor) VALUES ('pooled', 'elo', 32), ('whole', 'elo', 20);
INSERT INTO ledgers (name, rating_system, max_period_change, change_period) VALUES ('capped', 'elo', 30, '1 day');
SELECT ledger_attach('pooled', 'games', 'id', 'at', 'w', 'b', 's', scope_column => 'pool');
SELECT ledger_attach('whole', 'games', 'id', 'at', 'w', 'b', 's');
SELECT ledger_attach('capped', 'games', 'id', 'at', 'w', 'b', 's', scope_column => 'pool');
INSERT INTO games VALUES (1, '2025-01-01 10:00', 'ann', 'bob', 1, 'x'), (2, '2025-01-05 10:00', 'cid', 'dan', 1, 'y'),
                         (3, '2025-01-05 11:00', 'ann', 'cid', 0.5, 'y');
-- game 4: after pool x's games (appended in 'pooled' and 'capped'), before game 3 (replayed in 'whole')
INSERT INTO games VALUES (4, '2025-01-02 10:00', 'ann', 'bob', 0, 'x'), (5, '2025-01-06 10:00', 'dan', 'cid', 1, 'y');
SELECT l, pg_temp.same_as_rebuild(l) AS same FROM unnest(ARRAY['pooled', 'whole', 'capped']) l;
-- two corrections in one statement, one in each scope
UPDATE games SET s = CASE id WHEN 1 THEN 0 WHEN 5 THEN 0.5 END WHERE id IN (1, 5);
SELECT l, pg_temp.same_as_rebuild(l) AS same FROM unnest(ARRAY['pooled', 'whole', 'capped']) l;
SELECT scope, player, rating, games FROM ledger_standings_now WHERE ledger = 'pooled' ORDER BY 1, 2;
