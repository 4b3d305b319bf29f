#!/usr/bin/env bash
# pg_dump and restore into a fresh database give back every row of pg_rating's tables, and the
# restored database goes on rating games exactly as the original does.
set -euo pipefail
src=$PGDATABASE
dst=${PGDATABASE}_restored
source "$(dirname "$0")/restore_check.sh"

q -d "$src" <<'SQL'
INSERT INTO users (email, password_hash) SELECT format('u%s@example.com', i), 'h' FROM generate_series(1, 6) i;
INSERT INTO service_accounts VALUES (NULL, 1, 'bot', NULL, 'Bot', true);
INSERT INTO game_services (name) VALUES ('lichess.org');
INSERT INTO service_accounts VALUES (1, 2, 'u1_li', 'token', 'U1', false);
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Global', '0', NULL, 0, 800, true, 40), ('Blitz', '3 minutes', '10 minutes', 60, 800, false, 40);
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor,
                      rating_system, rating_period)
VALUES ('Glicko', '0', NULL, 0, 1500, true, 0, 'glicko2', '7 days');
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
SELECT '{e2e4,e7e5}', timestamptz '2024-01-01' + i * interval '1 hour',
       (ARRAY['(1-0,CHECKMATE)', '(0-1,TIMEOUT)', '(1/2-1/2,STALEMATE)'])[1 + i % 3]::game_result,
       '(5 minutes, 0)', 1, (1 + i % 6)::text, (1 + (i + 1 + i % 4) % 6)::text, true
FROM generate_series(1, 60) i WHERE (1 + i % 6) <> (1 + (i + 1 + i % 4) % 6);
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{d2d4}', '2023-12-31', '(1-0,RESIGNATION)', '(4 minutes, 1 second)', 1, '2', 'bot', true);
INSERT INTO pgn_games (moves, creation_date, result, owner_id, black_player_name, white_player_name)
VALUES ('{c2c4,e7e5}', '2024-02-01', '(1/2-1/2,UNKNOWN)', 3, 'B', 'W');
SQL

tables="users game_services service_accounts service_games pgn_games rankings elo_history ranking_players openings"
dump_and_restore "$src" "$dst"

# Both databases rate the next game, an out-of-order one, and a new user identically.
next=$(cat <<'SQL'
INSERT INTO users (email, password_hash) VALUES ('new@example.com', 'h');
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{}', '2024-01-01 05:30', '(0-1,RESIGNATION)', '(5 minutes, 0)', 1, '1', '7', true),
       ('{}', '2024-03-01', '(1-0,TIMEOUT)', '(5 minutes, 0)', 1, '3', '4', true);
SQL
)
same_after "$src" "$dst" "$next"
psql -X -q -d postgres -c "DROP DATABASE $dst"
echo "dump and restore: every row back, and the restored database rates like the original"
