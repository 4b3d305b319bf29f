#!/usr/bin/env bash
# The rankings' writer locks, one per ranking (its ledger's ledger_scopes row): while a transaction holds a game of
# one ranking uncommitted, a game of another ranking is rated at once, and one of the same ranking
# waits; a change of rankings waits for every writer, and a writer that waited for one rates its
# game by the rankings as they became (a ranking created meanwhile included); under REPEATABLE
# READ a writer whose snapshot missed another writer's commit gets 40001; a lock rolled back to a
# savepoint is taken again.
set -euo pipefail
db=$PGDATABASE
source "$(dirname "$0")/locks_lib.sh"
game() {  # white, black, clock, date
    echo "INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
          VALUES ('{e2e4}', $4, '(1-0,RESIGNATION)', '$3', 1, '$1', '$2', true);"
}

q <<'SQL'
INSERT INTO users (email, password_hash) SELECT format('p%s@example.com', i), 'h' FROM generate_series(1, 8) i;
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Bullet', '0', '3 minutes', 0, 800, true, 40), ('Classical', '1 hour', NULL, 0, 800, true, 40);
SQL
q -c "$(game 1 2 '(1 minute, 0)' "'2024-01-01'")" -c "$(game 3 4 '(2 hours, 0)' "'2024-01-01'")"

echo "1. a Bullet game (backdated: a rebuild) held uncommitted for 3 s"
hold 3 "$(game 1 2 '(1 minute, 0)' "'2023-12-31'")"
sleep 0.7
s=$(state_with_timeout 1s "$(game 3 4 '(2 hours, 0)' 'now()')")
[[ -z $s ]] || fail "a Classical game waited for the Bullet game's lock (SQLSTATE $s)"
echo "   a Classical game is rated at once"
s=$(state_with_timeout 300ms "$(game 5 6 '(1 minute, 0)' 'now()')")
[[ $s == 55P03 ]] || fail "a Bullet game did not wait for the Bullet game's lock (SQLSTATE '$s')"
echo "   a Bullet game waits (55P03 after lock_timeout)"
s=$(state_with_timeout 300ms "UPDATE rankings SET k_factor = 30 WHERE name = 'Classical'")
[[ $s == 55P03 ]] || fail "a change of the Classical ranking did not wait for the Bullet writer (SQLSTATE '$s')"
echo "   a change of another ranking waits too (it takes every ranking's lock)"
wait

echo "2. a new ranking created uncommitted for 3 s: a game that counts in it waits, then is rated in it"
hold 3 "INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
        VALUES ('Global', '0', NULL, 0, 800, true, 40)"
sleep 0.7
q -c "$(game 7 8 '(1 minute, 0)' 'now()')"
wait
n=$(q -c "SELECT count(*) FROM elo_history e JOIN rankings r ON r.id = e.ranking_id
          WHERE r.name = 'Global' AND e.game_id = (SELECT max(id) FROM service_games)")
[[ $n == 2 ]] || fail "the game that waited for the new ranking has $n entries in it, not 2"
# (a recalculation numbers a ranking's entries anew, as the original does: the history is compared
# by game, each entry with its previous entry's game)
history() {
    q -c "SELECT string_agg(format('%s %s %s %s %s', e.ranking_id, e.game_id, e.user_id_in_service, e.elo, p.game_id),
                            ',' ORDER BY e.ranking_id, e.game_id, e.user_id_in_service)
          FROM elo_history e LEFT JOIN elo_history p ON p.id = e.previous_entry"
}
unchanged_by_rebuild "every ranking recalculated" history \
    "$(q -c "SELECT string_agg(format('CALL recalculate_ranking(%s)', id), '; ' ORDER BY id) FROM rankings")" \
    "the history differs from a recalculation"
echo "   rated in the new ranking, and the history equals a recalculation of every ranking"

echo "3. REPEATABLE READ: a writer whose snapshot missed a commit of another writer of its ranking"
serialization_failure_after "$(game 1 3 '(1 minute, 0)' 'now()' | tr -s '\n ' ' ')" \
    "$(game 2 4 '(1 minute, 0)' 'now()')"

locks=$(q -c "SELECT string_agg(r.name, ',' ORDER BY r.id) FROM ledger_scopes s JOIN ledgers l ON l.id = s.ledger_id
             JOIN rankings r ON l.name = 'random_chess ranking ' || r.id AND l.kept_in = 'elo_history'::regclass")
[[ $locks == "Bullet,Classical,Global" ]] || fail "the rankings' ledgers have the lock rows of: $locks"
q -c "DELETE FROM rankings WHERE name = 'Global'"
n=$(q -c "SELECT count(*) FROM ledger_scopes s WHERE NOT EXISTS (SELECT FROM ledgers l WHERE l.id = s.ledger_id)
          OR s.ledger_id IN (SELECT l.id FROM ledgers l WHERE l.kept_in = 'elo_history'::regclass
                               AND NOT EXISTS (SELECT FROM rankings r WHERE l.name = 'random_chess ranking ' || r.id))")
[[ $n == 0 ]] || fail "$n lock rows of deleted rankings left"
echo "4. a deleted ranking's lock row goes with it"

echo "5. a lock taken in a savepoint that was rolled back is taken again by the transaction's next game"
out=$(mktemp)
psql -X -q -d "$db" -v VERBOSITY=sqlstate >"$out" 2>&1 <<SQL &
BEGIN;
SAVEPOINT first;
$(game 1 2 '(1 minute, 0)' 'now()')
ROLLBACK TO first;
SELECT pg_sleep(1.5);
SET LOCAL lock_timeout = '300ms';
$(game 7 8 '(1 minute, 0)' 'now()')
COMMIT;
SQL
sleep 0.7
hold 2 "$(game 5 6 '(1 minute, 0)' 'now()')"
wait
grep -q "ERROR:  55P03" "$out" || fail "a game after its lock was rolled back did not wait for another writer: $(cat "$out")"
rm -f "$out"
unchanged_by_rebuild "after a lock rolled back to a savepoint" history \
    "$(q -c "SELECT string_agg(format('CALL recalculate_ranking(%s)', id), '; ' ORDER BY id) FROM rankings")" \
    "the history differs from a recalculation"
echo "   it waits for the other writer (55P03 after lock_timeout), and the history equals a recalculation"
