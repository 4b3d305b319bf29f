#!/usr/bin/env bash
# One engine: the Random Chess rankings (Elo, Glicko-2 with two starting RDs, Skèmino, FIDE, with and
# without bots) and generic ledgers attached to the same service_games with the same windows and
# settings give the same history, entry by entry (rating, RD, volatility) and player by player
# (games, wins, draws, losses), through games inserted in date order, backdated games and a game
# moved in time.
set -euo pipefail
db=$PGDATABASE
q() { psql -X -q -v ON_ERROR_STOP=1 -At -d "$db" "$@"; }

q <<'SQL' >/dev/null
INSERT INTO users (email, password_hash) SELECT format('p%s@example.com', i), 'h' FROM generate_series(1, 30) i;
INSERT INTO service_accounts (user_id, service_id, user_id_in_service, token, display_name, is_bot)
VALUES (NULL, 1, 'bot', NULL, 'A bot', true);
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor,
                      rating_system, glicko2_tau, starting_rd, starting_volatility, rating_period)
VALUES ('Global', '0', NULL, 0, 800, true, 40, 'elo', 0.5, 350, 0.06, NULL),
       ('Blitz', '3 minutes', '10 minutes', 60, 800, false, 40, 'elo', 0.5, 350, 0.06, NULL),
       ('Blitz with bots', '3 minutes', '10 minutes', 60, 800, true, 32, 'elo', 0.5, 350, 0.06, NULL),
       ('Glicko', '0', NULL, 0, 1500, true, 0, 'glicko2', 0.5, 350, 0.06, '7 days'),
       -- an RD above Glickman's 350 to start with: capped at its own start, as a ledger caps it
       ('Glicko, starting RD 500', '0', NULL, 0, 1500, true, 0, 'glicko2', 0.5, 500, 0.06, '7 days'),
       ('Skemino', '0', '10 minutes', 60, 1000, true, 0, 'skemino', 0.5, 350, 0.06, NULL),
       ('FIDE', '0', NULL, 0, 1800, true, 0, 'fide', 0.5, 350, 0.06, NULL);
SQL
# each ranking as a ledger on the same games, its window as the filter (shared with the bench)
q -f "$(dirname "$0")/../../bench/rankings/as_ledgers.sql" >/dev/null

# Game i: players among 30 users and a bot, three results, three clocks; every seventh game is
# dated before the games already in (a backdated game replays the rankings from it).
games() {
    q -c "INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
          SELECT '{e2e4}', timestamptz '2024-01-01' + (CASE WHEN i % 7 = 0 THEN i / 2 ELSE i END) * interval '1 hour',
                 (ARRAY['(1-0,CHECKMATE)', '(0-1,TIMEOUT)', '(1/2-1/2,STALEMATE)'])[1 + i % 3]::game_result,
                 (ARRAY['(1 minute, 0)', '(3 minutes, 2 seconds)', '(15 minutes, 10 seconds)'])[1 + (i / 3) % 3]::clock_settings,
                 1, w, CASE WHEN b = w THEN 'bot' ELSE b END, i % 11 <> 0
          FROM generate_series($1, $2) i,
               LATERAL (SELECT (1 + i % 30)::text AS w,
                               CASE WHEN i % 13 = 0 THEN 'bot' ELSE (1 + (i * 7 + 3) % 30)::text END AS b) p"
}

compare() {
    local entries standings
    # (ranking, player, game) -> rating, RD, volatility, in the rankings and in the ledgers
    entries=$(q -c "
        WITH rc AS (SELECT e.ranking_id, e.user_id_in_service::text AS player, e.game_id, e.elo::float8 AS rating,
                           e.rd::float8 AS rd, e.volatility::float8 AS volatility
                    FROM elo_history e),
             lg AS (SELECT substr(l.name, 9)::int AS ranking_id, x.player, x.game::int AS game_id, x.rating, x.rd,
                           x.volatility
                    FROM ledger_entries x JOIN ledgers l ON l.id = x.ledger_id)
        SELECT (SELECT count(*) FROM rc) || ' ' || count(*)
        FROM ((SELECT * FROM rc EXCEPT ALL SELECT * FROM lg) UNION ALL (SELECT * FROM lg EXCEPT ALL SELECT * FROM rc)) d")
    standings=$(q -c "
        WITH rc AS (SELECT p.ranking_id, p.user_id_in_service::text AS player, p.rating::float8 AS rating, p.games,
                           p.wins, p.draws, p.losses, p.last_game_id
                    FROM ranking_players p),
             lg AS (SELECT substr(l.name, 9)::int, s.player, s.rating, s.games, s.wins, s.draws, s.losses,
                           (s.last_game_key::numeric - 9223372036854775808)::int -- (integer keys sort as text)
                    FROM ledger_standings s JOIN ledgers l ON l.id = s.ledger_id)
        SELECT count(*) FROM ((SELECT * FROM rc EXCEPT ALL SELECT * FROM lg) UNION ALL (SELECT * FROM lg EXCEPT ALL SELECT * FROM rc)) d")
    read -r total differing <<<"$entries"
    echo "$1: $total history entries, $differing differ from the ledgers'; $standings standings differ"
    [[ $total -gt 0 && $differing == 0 && $standings == 0 ]]
}

games 1 400
compare "400 games (every seventh backdated)"
games 401 600
compare "200 more"
q -c "UPDATE service_games SET creation_date = creation_date - interval '100 hours' WHERE id = 450" >/dev/null
compare "game 450 moved 100 hours back"
per_system=$(q -c "SELECT string_agg(r.rating_system || ' ' || n, ', ' ORDER BY r.id)
                   FROM rankings r CROSS JOIN LATERAL (SELECT count(*) AS n FROM elo_history e WHERE e.ranking_id = r.id) c")
echo "entries per ranking: $per_system"
[[ $(q -c "SELECT bool_and(n > 0) FROM (SELECT count(e.id) AS n FROM rankings r LEFT JOIN elo_history e ON e.ranking_id = r.id GROUP BY r.id) c") == t ]]
