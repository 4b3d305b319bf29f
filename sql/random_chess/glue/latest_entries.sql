-- The standings (each player's latest entry and record) of ($1 ranking, $2 player) pairs that have
-- one, read by src/ranking/history.rs (History::current) for every rated game. One index probe
-- per pair; LIMIT keeps the planner from turning the saved plan into a join over the whole table.
SELECT k.ranking, k.player, p.elo_history_id AS entry, p.rating::float8 AS rating, p.rd::float8 AS rd,
       p.volatility::float8 AS volatility, p.games, p.wins, p.draws, p.losses,
       p.peak_rating::float8 AS peak, p.last_game_date, p.last_game_id
FROM unnest($1::int4[], $2::text[]) AS k(ranking, player)
CROSS JOIN LATERAL (
    SELECT * FROM @extschema@.ranking_players p
    WHERE p.ranking_id = k.ranking AND p.service_id = 1 AND p.user_id_in_service = k.player
    LIMIT 1) p
