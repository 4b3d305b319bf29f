#!/usr/bin/env bash
# What corrections write: backdated games and corrected results in a busy scope, on this tree and
# on an earlier commit, in one run (issue 33, "Bloat"):
#   bench/ledgers_corrections.sh [commit] [players] [games] [corrections]
#   (defaults: ce562c6, the last commit that rewrote every entry after a corrected game; 4000;
#   20000; 50)
# One scope, an Elo and a Glicko-2 ledger; `games` games of `players` players over 200 days. Then
# `corrections` games backdated into the last 20 days and as many results of that period corrected,
# one statement each. Printed per tree: the time, the rows the ledger tables got (inserted,
# deleted, updated: each a new row version or a dead one), the WAL written and the size of
# ledger_entries and ledger_standings afterwards (autovacuum off).
# Each tree's release build is installed in turn into one cluster, restarted between the two.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$REPO_ROOT"
commit=${1:-ce562c6}
players=${2:-4000}
games=${3:-20000}
corrections=${4:-50}

ensure_setup
trap 'cluster_stop; against_cleanup' EXIT
against_worktree "$commit"
exec 9>"$PG_LOCK"

workload() {
    local db=$1
    psql -X -q -d postgres -c "CREATE DATABASE $db"
    psql -X -q -v ON_ERROR_STOP=1 -d "$db" <<SQL >/dev/null
CREATE EXTENSION pg_rating;
CREATE TABLE matches (id bigint PRIMARY KEY, played_at timestamptz NOT NULL, white int NOT NULL, black int NOT NULL,
                      score float8 NOT NULL);
INSERT INTO ledgers (name, rating_system) VALUES ('elo', 'elo');
INSERT INTO ledgers (name, rating_system, rating_period) VALUES ('glicko', 'glicko2', '7 days');
SELECT ledger_attach('elo', 'matches', 'id', 'played_at', 'white', 'black', 'score');
SELECT ledger_attach('glicko', 'matches', 'id', 'played_at', 'white', 'black', 'score');
SELECT setseed(0.25);
INSERT INTO matches
SELECT i, timestamptz '2025-01-01' + i * (interval '200 days' / $games), w, (w + 1 + (random() * ($players - 2))::int) % $players,
       (random() * 2)::int / 2.0
FROM (SELECT i, (random() * ($players - 1))::int AS w FROM generate_series(1, $games) i) g;
CHECKPOINT;
SQL
    local start_lsn t0 t1
    start_lsn=$(psql -X -At -d "$db" -c "SELECT pg_current_wal_lsn()")
    psql -X -At -d "$db" -c "SELECT pg_stat_reset()" >/dev/null
    t0=$(date +%s%N)
    for ((i = 1; i <= corrections; i++)); do
        psql -X -q -v ON_ERROR_STOP=1 -d "$db" \
            -c "INSERT INTO matches SELECT 1000000 + $i, timestamptz '2025-07-20' - random() * interval '20 days', $i, $i + 7, 1" \
            -c "UPDATE matches SET score = 1 - score WHERE id = (SELECT id FROM matches WHERE id <= $games
                ORDER BY id DESC OFFSET ($i * $games / 10 / $corrections) LIMIT 1)"
    done
    t1=$(date +%s%N)
    psql -X -At -d "$db" -c "SELECT pg_stat_force_next_flush()" >/dev/null
    sleep 1
    psql -X -At -F ' ' -d "$db" -c "
        SELECT $(( (t1 - t0) / 1000000 )),
               (SELECT sum(n_tup_ins) FROM pg_stat_user_tables WHERE relname IN ('ledger_entries', 'ledger_standings')),
               (SELECT sum(n_tup_del) FROM pg_stat_user_tables WHERE relname IN ('ledger_entries', 'ledger_standings')),
               (SELECT sum(n_tup_upd) FROM pg_stat_user_tables WHERE relname IN ('ledger_entries', 'ledger_standings')),
               replace(pg_size_pretty(pg_wal_lsn_diff(pg_current_wal_lsn(), '$start_lsn')), ' ', ''),
               replace(pg_size_pretty(pg_total_relation_size('ledger_entries')
                                      + pg_total_relation_size('ledger_standings')), ' ', '')"
}

printf '%-8s %9s %12s %12s %12s %10s %12s\n' tree ms inserted deleted updated WAL "tables"
for tree in theirs ours; do
    flock 9
    if [[ $tree == theirs ]]; then
        (cd "$AGAINST_TREE" && CARGO_TARGET_DIR=$AGAINST_TARGET cargo pgrx install --release --pg-config "$PG_CONFIG") \
            >/dev/null 2>&1 || { echo "building $commit failed" >&2; exit 1; }
    else
        install_extension --release >/dev/null 2>&1 || { echo "building this tree failed" >&2; exit 1; }
    fi
    CLUSTER_OPTIONS="-c shared_buffers=1GB -c autovacuum=off" bench_cluster_start
    # (the lock is held while the workload runs: each of its sessions loads the library installed
    # at that moment)
    read -r ms ins del upd wal size < <(workload "corrections_$tree")
    printf '%-8s %9s %12s %12s %12s %10s %12s\n' "$tree" "$ms" "$ins" "$del" "$upd" "$wal" "$size"
    cluster_stop
    flock -u 9
done
echo "($corrections backdated games and $corrections corrected results, one statement each, in a scope of $games games)"
