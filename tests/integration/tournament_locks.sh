#!/usr/bin/env bash
# A change of a tournament's tie-break order and the writers of its standings: while a
# transaction holds the change uncommitted (the standings refreshed by the new order under the
# tournament's lock), a bye, a game of the tournament and a re-dated game wait for it and refresh
# the standings by the new order, so they equal a rebuild; under REPEATABLE READ a writer whose snapshot missed
# the change gets 40001.
set -euo pipefail
db=$PGDATABASE
source "$(dirname "$0")/locks_lib.sh"
here=$(dirname "$0")
standings() {
    q -c "SELECT string_agg(format('%s %s %s %s %s', round, player_no, points_x2, encode(sort_key, 'hex'), tie_rank),
                            ',' ORDER BY round, player_no)
          FROM swiss_tournament_standings WHERE tournament_id = 1"
}
rebuilt_equal() {
    unchanged_by_rebuild "$1" standings "SELECT rebuild_tournament_standings(1)" \
        "the standings differ from a rebuild by the tournament's tie-break order"
}

q -f "$here/sample_tournaments.sql" >/dev/null

echo "1. a bye while a new tie-break order is held uncommitted for 2 s"
hold 2 "UPDATE swiss_tournaments SET tie_breaks = 'SB, BH-C1, DE' WHERE tournament_id = 1"
sleep 0.7
q -c "INSERT INTO byes VALUES (1, 3, '7')"
wait
rebuilt_equal "a bye written during a change of the order"
echo "   refreshed by the new order"

echo "2. a game while another order is held uncommitted for 2 s"
hold 2 "UPDATE swiss_tournaments SET tie_breaks = 'BH-C1, DE' WHERE tournament_id = 1"
sleep 0.7
q >/dev/null <<'SQL'
WITH g AS (
    INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
    VALUES ('{e2e4}', '2024-03-14', '(1-0,CHECKMATE)', '(5 minutes, 0)', 1, '1', '2', true) RETURNING id)
INSERT INTO tournaments_games SELECT 1, id, 3 FROM g;
SQL
wait
rebuilt_equal "a game written during a change of the order"
echo "   refreshed by the new order"

echo "3. a tournament game re-dated while another order is held uncommitted for 2 s"
hold 2 "UPDATE swiss_tournaments SET tie_breaks = 'SB, DE' WHERE tournament_id = 1"
sleep 0.7
q -c "UPDATE service_games SET creation_date = creation_date + interval '1 minute'
      WHERE id = (SELECT min(game_id) FROM tournaments_games WHERE tournament_id = 1 AND round = 2)"
wait
rebuilt_equal "a game re-dated during a change of the order"
echo "   refreshed by the new order"

echo "4. REPEATABLE READ: a writer whose snapshot missed a change of the order"
serialization_failure_after "UPDATE swiss_tournaments SET tie_breaks = 'DE' WHERE tournament_id = 1" \
    "INSERT INTO byes VALUES (1, 3, '6');"
echo "ok"
