#!/usr/bin/env bash
# Two transactions that change the seeds (or seasons) of one ledger's scope at once both commit,
# and the copies the writers read (ledger_seeds_in_force, ledger_seasons_in_force) equal the
# tables after them. Each change copies its scope again (src/ledger/copies.rs): a second change
# copied before taking the scope's lock missed the rows the first one's copy committed while it
# waited, and failed on them with 23505 (ledger_seeds_in_force_pkey). Under the lock, the second
# waits for the first and copies after it.
set -euo pipefail
db=$PGDATABASE
source "$(dirname "$0")/locks_lib.sh"

q >/dev/null <<'SQL'
CREATE TABLE cc_games (id int PRIMARY KEY, at timestamptz NOT NULL, w text NOT NULL, b text NOT NULL, s float8 NOT NULL);
INSERT INTO ledgers (name, rating_system) VALUES ('cc attached', 'glicko2'), ('cc bare', 'elo');
SELECT ledger_attach('cc attached', 'cc_games', 'id', 'at', 'w', 'b', 's');
INSERT INTO cc_games SELECT i, timestamptz '2025-01-01' + i * interval '1 day', 'p' || i % 4, 'p' || (i + 1) % 4, (i % 3) / 2.0
FROM generate_series(1, 30) i;
INSERT INTO ledger_seeds (ledger_id, player, rating, rd) SELECT id, 'p0', 1700, 100 FROM ledgers;
INSERT INTO ledger_seasons (ledger_id, name, ends_at, rating_pull) SELECT id, 's0', '2025-01-10', 0.5 FROM ledgers;
SQL

# The rows of the table and of its copy that differ (0 when equal).
differing() {
    q -c "SELECT count(*) FROM ((TABLE $1 EXCEPT ALL TABLE $1_in_force) UNION ALL (TABLE $1_in_force EXCEPT ALL TABLE $1)) d"
}

# $1 runs in a transaction held open 2 s; $2, started meanwhile, must commit after it.
both_commit() {
    local what=$1 first=$2 second=$3 out
    hold 2 "$first"
    sleep 0.7
    out=$(psql -X -q -d "$db" -v ON_ERROR_STOP=1 -v VERBOSITY=default -c "$second" 2>&1) \
        || fail "$what: the second transaction failed: $out"
    wait
    for table in ledger_seeds ledger_seasons; do
        [[ $(differing $table) == 0 ]] || fail "$what: ${table}_in_force differs from $table"
    done
    echo "$what: both committed, the copies equal their tables"
}

for ledger in 'cc attached' 'cc bare'; do
    id=$(q -c "SELECT id FROM ledgers WHERE name = '$ledger'")
    both_commit "$ledger: two seeds inserted at once" \
        "INSERT INTO ledger_seeds (ledger_id, player, rating) VALUES ($id, 'p1', 1600)" \
        "INSERT INTO ledger_seeds (ledger_id, player, rating) VALUES ($id, 'p2', 1650)"
    both_commit "$ledger: two seeds updated at once" \
        "UPDATE ledger_seeds SET rating = rating + 1 WHERE ledger_id = $id AND player = 'p0'" \
        "UPDATE ledger_seeds SET rating = rating + 1 WHERE ledger_id = $id AND player = 'p1'"
    both_commit "$ledger: a seed deleted while another is inserted" \
        "DELETE FROM ledger_seeds WHERE ledger_id = $id AND player = 'p2'" \
        "INSERT INTO ledger_seeds (ledger_id, player, rating) VALUES ($id, 'p3', 1550)"
    both_commit "$ledger: two seasons inserted at once" \
        "INSERT INTO ledger_seasons (ledger_id, name, ends_at) VALUES ($id, 's1', '2025-01-15')" \
        "INSERT INTO ledger_seasons (ledger_id, name, ends_at) VALUES ($id, 's2', '2025-01-20')"
    both_commit "$ledger: two seasons changed at once" \
        "UPDATE ledger_seasons SET rating_pull = 0.25 WHERE ledger_id = $id AND name = 's0'" \
        "DELETE FROM ledger_seasons WHERE ledger_id = $id AND name = 's1'"
done

attached_history() {
    q -c "SELECT md5(string_agg(format('%s %s %s', game_key, player, rating), ',' ORDER BY game_key, player))
          FROM ledger_entries WHERE ledger_id = (SELECT id FROM ledgers WHERE name = 'cc attached')"
}
unchanged_by_rebuild "the attached ledger" attached_history "SELECT ledger_rebuild('cc attached')" \
    "its history, replayed by the copies, differs from a rebuild"
echo "the attached ledger's history equals a rebuild"
