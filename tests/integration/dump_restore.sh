#!/usr/bin/env bash
# pg_dump and restore into a fresh database give back every row of pg_rating's tables, and the
# restored database goes on rating games exactly as the original does.
set -euo pipefail
src=$PGDATABASE
dst=${PGDATABASE}_restored
source "$(dirname "$0")/restore_check.sh"

q -d "$src" -f "$(dirname "$0")/sample_rankings.sql"

tables="users game_services service_accounts service_games pgn_games rankings elo_history ranking_players openings ledgers"
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
