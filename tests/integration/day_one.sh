#!/usr/bin/env bash
# The Random Chess server's start-up look-ups find their rows after CREATE EXTENSION and one call
# of random_chess_day_one(); a second call adds nothing; a dump and restore keeps them, without
# duplicates, and the catalog contract holds on the restored database too.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/restore_check.sh"
src=$PGDATABASE
dst=${PGDATABASE}_restored

startup() {
    local db=$1 want got
    # the bots the server's configuration names, looked up by id among service 1's bots
    got=$(q -d "$db" -c "SELECT string_agg(user_id_in_service || '=' || display_name, ',' ORDER BY user_id_in_service)
                         FROM service_accounts WHERE is_bot AND service_id = 1")
    want="stockfish-easy=Stockfish (Easy),stockfish-hard=Stockfish (Hard),stockfish-impossible=Stockfish (Impossible),stockfish-medium=Stockfish (Medium)"
    [[ "$got" == "$want" ]] || { echo "$db: bots $got"; exit 1; }
    # lichess (service 3) and its bots, linking a lichess account needs the service
    got=$(q -d "$db" -c "SELECT s.name || ' ' || count(a.*) FROM game_services s
                         LEFT JOIN service_accounts a ON a.service_id = s.id AND a.is_bot WHERE s.id = 3 GROUP BY s.name")
    [[ "$got" == "lichess.org 8" ]] || { echo "$db: service 3: $got"; exit 1; }
    # user 1 and its account
    got=$(q -d "$db" -c "SELECT u.email || ' ' || a.display_name FROM users u
                         JOIN service_accounts a ON a.user_id = u.id AND a.service_id = 1 WHERE u.id = 1")
    [[ "$got" == "admin@randomchess.com Admin" ]] || { echo "$db: user 1: $got"; exit 1; }
    # the nine rankings in the app's order
    got=$(q -d "$db" -c "SELECT string_agg(name, ',' ORDER BY include_bots, playtime_min, playtime_max NULLS FIRST)
                         FROM rankings")
    want="Bullet,Blitz,Rapid,Classical,Global ranking,Bullet with bots,Blitz with bots,Rapid with bots,Classical with bots"
    [[ "$got" == "$want" ]] || { echo "$db: rankings $got"; exit 1; }
    echo "$db: the server's start-up look-ups find the bots, service 3, user 1 and the nine rankings"
}

counts() { q -d "$1" -c "SELECT (SELECT count(*) FROM game_services), (SELECT count(*) FROM service_accounts),
                               (SELECT count(*) FROM rankings), (SELECT count(*) FROM users)"; }

q -d "$src" -c "SELECT random_chess_day_one()" >/dev/null
first=$(counts "$src")
q -d "$src" -c "SELECT random_chess_day_one()" >/dev/null
[[ "$(counts "$src")" == "$first" ]] || { echo "a second call added rows"; exit 1; }
startup "$src"
# a user registered next gets id 2, a service added next id 4
q -d "$src" -c "INSERT INTO users (email, password_hash) VALUES ('next@example.com', 'h')" >/dev/null
[[ $(q -d "$src" -c "SELECT max(id) FROM users") == 2 ]] || { echo "the users' sequence is behind"; exit 1; }

tables="users game_services service_accounts rankings"
dump_and_restore "$src" "$dst" >/dev/null
q -d "$dst" -c "SELECT random_chess_day_one()" >/dev/null
[[ "$(counts "$dst")" == "$(counts "$src")" ]] || { echo "the restored database got duplicates"; exit 1; }
startup "$dst"
PGDATABASE=$dst "$here/catalog_contract.py"
psql -X -q -d postgres -c "DROP DATABASE $dst"
