-- The number of history entries whose previous_entry is not the id of the same account's
-- preceding entry in the same ranking (by game date, then game id), or not NULL for its first.
-- No foreign key says what previous_entry is (since 0.11.0): pg_rating's writes must keep it so.
-- Read by rankings_order.py and rankings_crash.sh.
SELECT count(*)
FROM (SELECT e.previous_entry,
             lag(e.id) OVER (PARTITION BY e.ranking_id, e.service_id, e.user_id_in_service
                             ORDER BY e.game_date, e.game_id) AS preceding
      FROM elo_history e) c
WHERE c.previous_entry IS DISTINCT FROM c.preceding;
