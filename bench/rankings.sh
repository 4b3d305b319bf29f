#!/usr/bin/env bash
# Benchmark of the rankings trigger (issue 5), on a throwaway cluster with a release build:
#   bench/rankings.sh [games]      (default 100000)
# 1. inserts `games` ranked games among 1,000 players with the app's nine rankings, one INSERT
#    statement per game as the app does, in blocks of 10,000, and prints games/s per block;
# 2. the PL/pgSQL baseline (bench/rankings/baseline.sql: latest rating read from a view over the
#    whole history) and our trigger, each rating games 10,001-11,000 with 10,000 games already in
#    the history (after VACUUM ANALYZE), in turns of 100 games so that both are measured over the
#    same minute, and their ratio;
# 3. recalculate_ranking of the Global ranking (every game) from scratch, unchanged and after a
#    change of K that rewrites every entry.
# The cluster runs with shared_buffers = 1GB and autovacuum off.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$REPO_ROOT"
games=${1:-100000}
block=10000

exec 9>"$PG_LOCK"
flock 9
install_extension --release >/dev/null 2>&1 || { echo "cargo pgrx install --release failed" >&2; exit 1; }
# 600,000 history entries and their indexes outgrow the default 128 MB of shared buffers; no
# autovacuum worker competes for the two cores (the VACUUM ANALYZE of step 2 is explicit).
CLUSTER_OPTIONS="-c shared_buffers=1GB -c autovacuum=off" bench_cluster_start
trap cluster_stop EXIT
flock -u 9

ms() { psql -X -q -v ON_ERROR_STOP=1 -d "$1" -c '\timing on' -c "$2" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1; }
rate() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.0f", n / (t / 1000) }'; }

for db in ours baseline; do
    psql -X -q -d postgres -c "CREATE DATABASE $db"
    psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION pg_rating_random_chess CASCADE" -f bench/rankings/setup.sql
done

echo "1. inserting $games ranked games, one statement each, in blocks of $block"
printf '%-16s %10s %10s\n' games ms games/s
first_rate= last_rate= total_ms=0
for ((start = 1; start <= games; start += block)); do
    end=$((start + block - 1 < games ? start + block - 1 : games))
    if ((start == block + 1)); then
        # statistics and visibility of the first 10,000 games settled, as step 2 has them
        psql -X -q -d ours -c "VACUUM ANALYZE"
    fi
    t=$(ms ours "CALL bench_insert($start, $end)")
    r=$(rate $((end - start + 1)) "$t")
    printf '%-16s %10.0f %10s\n' "$start-$end" "$t" "$r"
    total_ms=$(awk -v a="$total_ms" -v b="$t" 'BEGIN { print a + b }')
    [[ -z $first_rate ]] && first_rate=$r
    last_rate=$r
done
entries=$(psql -X -At -d ours -c "SELECT count(*) FROM elo_history")
echo "sustained: $(rate "$games" "$total_ms") games/s over $games games ($entries history entries)"
echo "last block / first block: $(awk -v a="$last_rate" -v b="$first_rate" 'BEGIN { printf "%.2f", a / b }')"

echo
echo "2. the PL/pgSQL baseline with 10,000 games in the history"
psql -X -q -v ON_ERROR_STOP=1 -d baseline <<'SQL' >/dev/null
ALTER TABLE service_games DISABLE TRIGGER rate_service_games;
CALL bench_insert(1, 10000);
SQL
psql -X -q -v ON_ERROR_STOP=1 -d baseline -f bench/rankings/baseline.sql >/dev/null
# the baseline's history of the first 10,000 games is the one our trigger computed
psql -X -q -d ours -c "\copy (SELECT e.user_id_in_service, e.ranking_id, e.game_id, e.elo FROM elo_history e WHERE e.game_id <= 10000 ORDER BY e.id) TO STDOUT" \
    | psql -X -q -d baseline -c "\copy baseline.elo_history (user_id_in_service, ranking_id, game_id, elo) FROM STDIN"
psql -X -q -d baseline -c "VACUUM ANALYZE"
# pg_rating with the same 10,000 games, in a database of its own
psql -X -q -d ours -c "CREATE DATABASE at_10k"
psql -X -q -v ON_ERROR_STOP=1 -d at_10k -c "CREATE EXTENSION pg_rating_random_chess CASCADE" -f bench/rankings/setup.sql
psql -X -q -d at_10k -c "CALL bench_insert(1, 10000)" -c "VACUUM ANALYZE"
# A psql session on database $1 kept open: its input and output on file descriptors, named by
# `in_<db>` and `out_<db>`.
session() {
    mkfifo "$CLUSTER_DIR/$1.in" "$CLUSTER_DIR/$1.out"
    psql -X -q -v ON_ERROR_STOP=1 -d "$1" <"$CLUSTER_DIR/$1.in" >"$CLUSTER_DIR/$1.out" 2>&1 &
    exec {in}>"$CLUSTER_DIR/$1.in" {out}<"$CLUSTER_DIR/$1.out"
    printf -v "in_$1" %s "$in"
    printf -v "out_$1" %s "$out"
}
# Runs $2 in the session on database $1; sets `took` to its milliseconds.
timed() {
    local line in="in_$1" out="out_$1"
    echo "\\timing on
$2
\\timing off" >&"${!in}"
    while IFS= read -r line <&"${!out}"; do
        if [[ $line =~ ^Time:\ ([0-9.]+)\ ms ]]; then
            took=${BASH_REMATCH[1]}
            return
        fi
        [[ $line == *ERROR* ]] && { echo "$line" >&2; exit 1; }
    done
    echo "the session ended" >&2
    exit 1
}
# Games 10,001-11,000 in both, in slices of 100 taken in turn, each database in one session: both
# rates measured over the same minute, whatever else the machine runs meanwhile.
session at_10k
session baseline
# Before the timing, each session rates game 10,001 and rolls it back (one statement, as timed
# reads one time): a new session's first game also pays the session's start (its plans, caches
# and relations opened; some 50 ms for pg_rating, 5 % of its 1,000 games), which is not a game's
# cost (an app keeps its connections).
warm_up="DO \$\$
BEGIN
    INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
    SELECT '{e2e4,e7e5,g1f3,b8c6}', g.at, g.result, g.clock, 1, g.white, g.black, true FROM bench_game(10001) g;
    RAISE EXCEPTION 'the warm-up game is rolled back';
EXCEPTION WHEN raise_exception THEN
    NULL;
END \$\$;"
timed at_10k "$warm_up"
timed baseline "$warm_up"
ours_ms=0 baseline_ms=0
for ((first = 10001; first <= 11000; first += 100)); do
    timed at_10k "CALL bench_insert($first, $((first + 99)));"
    ours_ms=$(awk -v a="$ours_ms" -v b="$took" 'BEGIN { print a + b }')
    timed baseline "CALL bench_insert($first, $((first + 99)));"
    baseline_ms=$(awk -v a="$baseline_ms" -v b="$took" 'BEGIN { print a + b }')
done
echo "\\q" >&"$in_at_10k"
echo "\\q" >&"$in_baseline"
wait
baseline_rate=$(awk -v t="$baseline_ms" 'BEGIN { printf "%.1f", 1000 / (t / 1000) }')
ours_at_10k=$(rate 1000 "$ours_ms")
same=$(psql -X -At -d baseline -c "SELECT count(*) FROM baseline.elo_history WHERE game_id > 10000")
echo "baseline: $baseline_rate games/s ($same entries written for games 10,001-11,000)"
echo "pg_rating: $ours_at_10k games/s for the same games (in turns of 100 games with the baseline)"
echo "ratio: $(awk -v a="$ours_at_10k" -v b="$baseline_rate" 'BEGIN { printf "%.0f", a / b }')x"

echo
echo "3. recalculating the Global ranking (every game)"
n=$(psql -X -At -d ours -c "SELECT count(*) FROM elo_history WHERE ranking_id = 1")
before=$(psql -X -At -d ours -c "SELECT md5(string_agg(id || ':' || elo || ':' || coalesce(previous_entry, 0), ',' ORDER BY id)) FROM elo_history WHERE ranking_id = 1")
t=$(ms ours "CALL recalculate_ranking(1)")
after=$(psql -X -At -d ours -c "SELECT md5(string_agg(id || ':' || elo || ':' || coalesce(previous_entry, 0), ',' ORDER BY id)) FROM elo_history WHERE ranking_id = 1")
echo "recalculate_ranking(1): $(awk -v t="$t" 'BEGIN { printf "%.2f", t / 1000 }') s for $((n / 2)) games ($n entries); history unchanged: $([[ $before == "$after" ]] && echo yes || echo NO)"
t=$(ms ours "UPDATE rankings SET k_factor = 32 WHERE id = 1")
echo "after changing its K (every entry rewritten): $(awk -v t="$t" 'BEGIN { printf "%.2f", t / 1000 }') s"
