#!/usr/bin/env bash
# A change of a ledger's settings or attachment and the writers of the ledger's rows: while a
# transaction holds a change of K uncommitted (the ledger rebuilt by the new K under its scopes'
# locks), a new game, ledger_rebuild and a new seed each wait for it and then write by the new K,
# so the history equals a rebuild by the new K; the same for a seed and ledger_rebuild while the
# ledger is attached anew with a filter; under REPEATABLE READ a writer whose snapshot missed the
# change gets 40001.
set -euo pipefail
db=$PGDATABASE
source "$(dirname "$0")/locks_lib.sh"
history() {
    q -c "SELECT string_agg(format('%s %s %s %s', scope, game_key, player, round(rating::numeric, 9)), ','
                            ORDER BY scope, game_key, player) FROM ledger_entries"
}
# The history is what a rebuild by the current settings makes.
rebuilt_equal() {
    unchanged_by_rebuild "$1" history "SELECT ledger_rebuild('league')" \
        "the history differs from a rebuild by the ledger's settings"
}

q >/dev/null <<'SQL'
CREATE TABLE matches (id int PRIMARY KEY, played_at timestamptz NOT NULL, white text NOT NULL, black text NOT NULL,
                      score float8 NOT NULL, league text NOT NULL);
INSERT INTO ledgers (name, rating_system, starting_rating, k_factor) VALUES ('league', 'elo', 1500, 32);
SELECT ledger_attach('league', 'matches', 'id', 'played_at', 'white', 'black', 'score', scope_column => 'league');
INSERT INTO matches SELECT i, timestamptz '2025-01-01' + i * interval '1 hour', 'p' || i % 7, 'p' || (i + 3) % 7,
                           (i % 3) / 2.0, 'east'
FROM generate_series(1, 200) i WHERE i % 7 <> (i + 3) % 7;
SQL

echo "1. a new game while a change of K is held uncommitted for 2 s"
hold 2 "UPDATE ledgers SET k_factor = 10 WHERE name = 'league'"
sleep 0.7
q -c "INSERT INTO matches VALUES (1000, '2026-01-01', 'p1', 'p2', 1, 'east')"
wait
[[ $(q -c "SELECT count(*) FROM ledger_entries WHERE game = '1000'") == 2 ]] || fail "the new game was not rated"
rebuilt_equal "a game written after a change of K"
echo "   rated by the new K"

echo "2. ledger_rebuild while a change of K is held uncommitted for 2 s"
hold 2 "UPDATE ledgers SET k_factor = 20 WHERE name = 'league'"
sleep 0.7
q -c "SELECT ledger_rebuild('league')" >/dev/null
wait
rebuilt_equal "a rebuild run after a change of K"
echo "   rebuilt by the new K"

echo "3. a new seed while a change of K is held uncommitted for 2 s"
hold 2 "UPDATE ledgers SET k_factor = 24 WHERE name = 'league'"
sleep 0.7
q -c "INSERT INTO ledger_seeds (ledger_id, scope, player, rating) SELECT id, 'east', 'p3', 1700 FROM ledgers"
wait
rebuilt_equal "a replay after a new seed"
echo "   replayed by the new K"

echo "4. a new seed and ledger_rebuild while the ledger is attached anew (draws left out) for 2 s"
reattach="SELECT ledger_detach('league');
          SELECT ledger_attach('league', 'matches', 'id', 'played_at', 'white', 'black', 'score',
                               scope_column => 'league', filter => 'score <> 0.5')"
hold 2 "$reattach"
sleep 0.7
q -c "INSERT INTO ledger_seeds (ledger_id, scope, player, rating) SELECT id, 'east', 'p5', 1300 FROM ledgers"
wait
[[ $(q -c "SELECT count(*) FROM ledger_entries e JOIN matches m ON m.id::text = e.game WHERE m.score = 0.5") == 0 ]] \
    || fail "a draw rated after the ledger was attached without draws"
rebuilt_equal "a replay after a new seed while attached anew"
hold 2 "$reattach"
sleep 0.7
q -c "SELECT ledger_rebuild('league')" >/dev/null
wait
[[ $(q -c "SELECT count(*) FROM ledger_entries e JOIN matches m ON m.id::text = e.game WHERE m.score = 0.5") == 0 ]] \
    || fail "ledger_rebuild rated a draw after the ledger was attached without draws"
echo "   replayed and rebuilt by the new attachment"

echo "5. REPEATABLE READ: a writer whose snapshot missed a change of K"
serialization_failure_after "UPDATE ledgers SET k_factor = 16 WHERE name = 'league'" \
    "INSERT INTO matches VALUES (1001, '2026-01-02', 'p2', 'p4', 0, 'east');"
echo "6. a transaction writing several games of one scope, one statement each, holds its lock to the end"
hold 2 "INSERT INTO matches VALUES (2001, '2026-02-01', 'p1', 'p2', 1, 'north');
        INSERT INTO matches VALUES (2002, '2026-02-02', 'p2', 'p1', 1, 'north');
        INSERT INTO matches VALUES (2003, '2026-02-03', 'p1', 'p2', 0, 'north')"
sleep 0.7
s=$(state_with_timeout 300ms "INSERT INTO matches VALUES (2004, '2026-02-04', 'p3', 'p4', 1, 'north')")
[[ $s == 55P03 ]] || fail "a game of the scope did not wait for the transaction's lock (SQLSTATE '$s')"
wait
echo "   another writer of the scope waits for it (55P03 under lock_timeout)"
q >/dev/null <<'SQL'
BEGIN;
SAVEPOINT first;
INSERT INTO matches VALUES (3001, '2026-03-01', 'p1', 'p2', 1, 'south');
ROLLBACK TO first;
INSERT INTO matches VALUES (3002, '2026-03-02', 'p2', 'p1', 1, 'south');
COMMIT;
SQL
[[ $(q -c "SELECT count(*) FROM ledger_scopes WHERE scope = 'south'") == 1 ]] \
    || fail "the lock row of a scope whose first game was rolled back to a savepoint is missing"
rebuilt_equal "games after a savepoint rolled back the first game of a scope"
echo "   after a savepoint rolled back a scope's first game, the next game makes its lock row again"
echo "7. a ledger attached while a game is held uncommitted for 2 s, and a game while an attach is held"
hold 2 "INSERT INTO matches VALUES (4001, '2026-04-01', 'p1', 'p2', 1, 'east')"
sleep 0.7
q -c "INSERT INTO ledgers (name, rating_system) VALUES ('second', 'elo')"
q -c "SELECT ledger_attach('second', 'matches', 'id', 'played_at', 'white', 'black', 'score',
                           scope_column => 'league')" >/dev/null
wait
hold 2 "INSERT INTO ledgers (name, rating_system) VALUES ('third', 'elo');
        SELECT ledger_attach('third', 'matches', 'id', 'played_at', 'white', 'black', 'score',
                             scope_column => 'league')"
sleep 0.7
q -c "INSERT INTO matches VALUES (4002, '2026-04-02', 'p2', 'p1', 1, 'east')"
wait
for game in 4001 4002; do
    n=$(q -c "SELECT string_agg(l.name || ' ' || (SELECT count(*) FROM ledger_entries e
                                                  WHERE e.ledger_id = l.id AND e.game = '$game'), ',' ORDER BY l.id)
              FROM ledgers l")
    [[ $n == "league 2,second 2,third 2" ]] || fail "game $game: entries per ledger: $n"
done
echo "   the attach waits for the game under way, the game for the attach: both rated in every ledger"
echo "8. two ledgers attached at once to a table that has none"
q -c "CREATE TABLE cup (LIKE matches INCLUDING ALL)"
q -c "INSERT INTO ledgers (name, rating_system) VALUES ('cup a', 'elo'), ('cup b', 'elo')"
hold 2 "SELECT ledger_attach('cup a', 'cup', 'id', 'played_at', 'white', 'black', 'score')"
sleep 0.7
q -c "SELECT ledger_attach('cup b', 'cup', 'id', 'played_at', 'white', 'black', 'score')" >/dev/null
wait
q -c "INSERT INTO cup VALUES (1, '2026-05-01', 'p1', 'p2', 1, 'x')"
n=$(q -c "SELECT count(*) FROM ledger_entries e JOIN ledgers l ON l.id = e.ledger_id WHERE l.name LIKE 'cup %'")
[[ $n == 4 ]] || fail "two ledgers attached at once: $n entries for a game, not 4"
echo "   the second waits for the first; a game is rated in both"
echo "ok"
