-- Each player's ($2) latest entry in ranking $1 before the game at ($3 creation_date, $4 id), with
-- the record up to it: where a replay from that game starts. Read by src/ranking/history.rs
-- (History::before).
SELECT u.player, l.id AS entry, l.elo::float8 AS rating, l.rd::float8 AS rd, l.volatility::float8 AS volatility,
       l.game_date AS last_game_date, l.game_id AS last_game_id, a.games, a.wins, a.draws, a.losses,
       a.peak::float8 AS peak
FROM unnest($2::text[]) AS u(player)
CROSS JOIN LATERAL (
    SELECT e.id, e.elo, e.rd, e.volatility, e.game_date, e.game_id
    FROM @extschema@.elo_history e
    WHERE e.ranking_id = $1 AND e.user_id_in_service = u.player AND e.service_id = 1
      AND (e.game_date, e.game_id) < ($3, $4)
    ORDER BY e.game_date DESC, e.game_id DESC
    LIMIT 1) l
CROSS JOIN LATERAL (
    SELECT count(*)::int4 AS games,
           count(*) FILTER (WHERE s.score = 1)::int4 AS wins,
           count(*) FILTER (WHERE s.score = 0.5)::int4 AS draws,
           count(*) FILTER (WHERE s.score = 0)::int4 AS losses,
           max(e.elo) AS peak
    FROM @extschema@.elo_history e
    JOIN @extschema@.service_games g ON g.id = e.game_id
    CROSS JOIN LATERAL (SELECT @extschema@.game_score(g.result, g.white_player = e.user_id_in_service)) AS s(score)
    WHERE e.ranking_id = $1 AND e.user_id_in_service = u.player AND e.service_id = 1
      AND (e.game_date, e.game_id) < ($3, $4)) a
