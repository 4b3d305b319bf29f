#!/usr/bin/env bash
# The writers of a ledger under contention (issue 33, "Locks of the one write path"):
# 1. writers of several scopes per statement and a looping ledger_rebuild never deadlock: every
#    path takes a ledger's scope locks in one order (0.12.0's rebuild took them in the table's
#    order: 40P01 for writers and rebuilds alike);
# 2. a change of a ledger's settings gets through while writers keep running, in about the time
#    of the longest writer transaction (on 0.12.0 it waited until the writers stopped: each new
#    writer's row lock on the ledger joined those ahead of the change), and the games written
#    after it are rated by the new settings.
set -euo pipefail
db=$PGDATABASE
source "$(dirname "$0")/locks_lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

history() {
    q -c "SELECT md5(string_agg(format('%s %s %s %s', scope, game_key, player, round(rating::numeric, 9)), ','
                                ORDER BY scope, game_key, player)) FROM ledger_entries"
}

q >/dev/null <<'SQL'
CREATE TABLE matches (id serial PRIMARY KEY, played_at timestamptz NOT NULL DEFAULT clock_timestamp(),
                      white text NOT NULL, black text NOT NULL, score float8 NOT NULL, league text NOT NULL);
INSERT INTO ledgers (name, rating_system, k_factor) VALUES ('league', 'elo', 32);
SELECT ledger_attach('league', 'matches', 'id', 'played_at', 'white', 'black', 'score', scope_column => 'league');
-- the scopes' lock rows made in the reverse of their key order
INSERT INTO matches (white, black, score, league) VALUES ('p1', 'p2', 1, 'c');
INSERT INTO matches (white, black, score, league) VALUES ('p1', 'p2', 1, 'b');
INSERT INTO matches (white, black, score, league) VALUES ('p1', 'p2', 1, 'a');
SQL

# Statements of one writer: $1 statements, each one game in each of the scopes a, b and c.
writer_script() {
    local i
    echo '\set VERBOSITY sqlstate'
    for ((i = 0; i < $1; i++)); do
        echo "INSERT INTO matches (white, black, score, league)
              SELECT 'p' || (random() * 9)::int, 'q' || (random() * 9)::int, (random() * 2)::int / 2.0, s
              FROM unnest('{c,a,b}'::text[]) s;"
    done
}

echo "1. four writers of three scopes per statement and a looping ledger_rebuild"
writer_script 150 > "$work/writer.sql"
for w in 1 2 3 4; do
    psql -X -q -d "$db" -f "$work/writer.sql" > "$work/writer$w.out" 2>&1 &
done
{
    echo '\set VERBOSITY sqlstate'
    for _ in $(seq 1 25); do echo "SELECT ledger_rebuild('league');"; done
} | psql -X -q -d "$db" > "$work/rebuild.out" 2>&1 &
wait
deadlocks=$(cat "$work"/*.out | grep -c '40P01' || true)
errors=$(cat "$work"/*.out | grep -c 'ERROR' || true)
games=$(q -c "SELECT count(*) FROM matches")
[[ $deadlocks == 0 ]] || fail "$deadlocks deadlocks (40P01) among writers and ledger_rebuild"
[[ $errors == 0 ]] || fail "errors: $(grep -h ERROR "$work"/*.out | sort | uniq -c)"
[[ $games == $((3 + 4 * 150 * 3)) ]] || fail "$games games written"
unchanged_by_rebuild "after writers and rebuilds at once" history "SELECT ledger_rebuild('league')" \
    "the history differs from a rebuild"
echo "   $games games, 25 rebuilds, no deadlock, the history equals a rebuild"

echo "2. a change of K while two sessions keep writing 0.2 s transactions for 8 s"
{
    echo '\set VERBOSITY sqlstate'
    for _ in $(seq 1 40); do
        echo "BEGIN;"
        echo "INSERT INTO matches (white, black, score, league) VALUES ('p1', 'p2', 0.5, 'a');"
        echo "SELECT pg_sleep(0.2);"
        echo "COMMIT;"
    done
} > "$work/slow.sql"
psql -X -q -d "$db" -f "$work/slow.sql" > "$work/slow1.out" 2>&1 &
sleep 0.1
psql -X -q -d "$db" -f "$work/slow.sql" > "$work/slow2.out" 2>&1 &
sleep 1
# A change that waited for the writers to stop would run into its timeout (they write for 8 s).
changed=$(psql -X -q -At -d "$db" -v VERBOSITY=sqlstate \
    -c "SET statement_timeout = '6s'" \
    -c "UPDATE ledgers SET k_factor = 20 WHERE name = 'league' RETURNING k_factor" 2>&1 || true)
after=$(q -c "SELECT count(*) FROM matches")
wait
total=$(q -c "SELECT count(*) FROM matches")
[[ $changed == 20 ]] || fail "the change of K did not get through while writers ran: $changed"
((total > after)) || fail "no game was written after the change: the writers had stopped"
! grep -h ERROR "$work"/slow*.out || fail "a writer failed"
unchanged_by_rebuild "games written after a change of K" history "SELECT ledger_rebuild('league')" \
    "the history differs from a rebuild by the new K"
echo "   the change got through; $((total - after)) games written after it, rated by the new K"
echo "ok"
