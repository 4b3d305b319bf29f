#!/usr/bin/env bash
# The work a rated game costs, counted in CPU instructions, this tree against an earlier commit
# with the same two extensions (0.4.0 or later). This machine's speed drifts by a quarter from one
# minute to the next, which hides a change of a few percent in games/s; the instructions the
# cluster executes per game hardly move (well under 1 % between runs of one build).
#   bench/rankings_instructions.sh [commit] [rounds] [games]   (defaults HEAD~1, 3, 3000)
# Builds the commit in a git worktree (its release build kept in target/against-<commit>), then
# in each round installs each build in turn into a fresh cluster (shared_buffers = 1GB, autovacuum
# off, as bench/rankings.sh): 10,000 of bench/rankings.sh's games and a VACUUM ANALYZE, 100 games
# untimed, then `games` games under `perf stat -a`. Prints instructions and cycles per game, the
# rate, and a digest of the whole history (equal when both builds wrote the same rows), then the
# median ratios ours/theirs. Needs perf (Debian: linux-perf) and a machine that lets it count
# (a VM may not expose the counters: then only the rates and digests are measured and printed).
# About 6 minutes for the defaults, plus the build of the commit the first time.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$REPO_ROOT"
commit=${1:-HEAD~1}
rounds=${2:-3}
games=${3:-3000}
command -v perf >/dev/null || { echo "bench/rankings_instructions.sh needs perf (apt-get install linux-perf)" >&2; exit 2; }
counting=yes
if perf stat -e instructions -x, -a -- true 2>&1 | grep -q 'not supported'; then
    counting=no
    echo "this machine does not count instructions (perf: <not supported>): rates and digests only" >&2
fi

ensure_setup
trap against_cleanup EXIT
against_worktree "$commit"
work=$AGAINST_WORK
lib=$("$PG_CONFIG" --pkglibdir)
share=$("$PG_CONFIG" --sharedir)/extension

exec 9>"$PG_LOCK"
flock 9
# Installs a tree's release build and keeps a copy of what it installed, to put back per round.
keep() {
    local name=$1 dir=$2 target=$3
    (cd "$dir" && CARGO_TARGET_DIR=$target bash -c 'source scripts/lib.sh; install_extension --release') >"$work/$name.install.log" 2>&1 \
        || { echo "installing $name failed:" >&2; tail -20 "$work/$name.install.log" >&2; exit 1; }
    mkdir -p "$work/$name"
    cp "$lib/pg_rating.so" "$share"/pg_rating*.control "$share"/pg_rating*.sql "$work/$name/"
}
put_back() {
    rm -f "$share"/pg_rating*.control "$share"/pg_rating*.sql
    cp "$work/$1/pg_rating.so" "$lib/"
    cp "$work/$1"/pg_rating*.control "$work/$1"/pg_rating*.sql "$share/"
}
keep theirs "$AGAINST_TREE" "$AGAINST_TARGET"
keep ours "$REPO_ROOT" "$REPO_ROOT/target"
trap 'put_back ours; against_cleanup' EXIT

# One measurement of the installed build: "instructions cycles games/s digest" per game.
measure() {
    CLUSTER_OPTIONS="-c shared_buffers=1GB -c autovacuum=off" bench_cluster_start >/dev/null 2>&1
    psql -X -q -d postgres -c "CREATE DATABASE ours"
    psql -X -q -v ON_ERROR_STOP=1 -d ours -c "CREATE EXTENSION pg_rating_random_chess CASCADE" \
        -f bench/rankings/setup.sql >/dev/null 2>&1
    psql -X -q -d ours -c "CALL bench_insert(1, 10000)" -c "VACUUM ANALYZE" -c "CALL bench_insert(10001, 10100)"
    local last=$((10100 + games)) ms digest
    local count=()
    [[ $counting == yes ]] && count=(perf stat -e instructions,cycles -a -x, -o "$work/stat" --)
    : >"$work/stat"
    ms=$("${count[@]}" \
        psql -X -q -v ON_ERROR_STOP=1 -d ours -c '\timing on' -c "CALL bench_insert(10101, $last)" \
        | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p')
    digest=$(psql -X -At -d ours -c "SELECT count(*) || ':' || left(md5(string_agg(concat_ws(':', id, user_id_in_service,
        ranking_id, game_id, elo, previous_entry, rd, volatility), ',' ORDER BY id)), 12) FROM elo_history")
    cluster_stop >/dev/null 2>&1
    awk -F, -v n="$games" -v ms="$ms" -v d="$digest" '
        BEGIN { i = "-"; c = "-" }
        $3 == "instructions" { i = sprintf("%.0f", $1 / n / 1000) } $3 == "cycles" { c = sprintf("%.0f", $1 / n / 1000) }
        END { printf "%s %s %.0f %s\n", i, c, n / (ms / 1000), d }' "$work/stat"
}

echo "the work of a rated game: $commit (theirs) against this tree (ours), $games games after 10,100, $rounds rounds"
printf '%-6s %-6s %14s %14s %9s  %s\n' round build "kinstr/game" "kcycles/game" "games/s" "history (entries:digest)"
ratios=() rate_ratios=()
for ((r = 1; r <= rounds; r++)); do
    for build in theirs ours; do
        put_back "$build"
        read -r ins cyc rate digest <<<"$(measure)"
        printf '%-6s %-6s %14s %14s %9s  %s\n' "$r" "$build" "$ins" "$cyc" "$rate" "$digest"
        [[ $build == theirs ]] && theirs_ins=$ins theirs_rate=$rate
    done
    [[ $counting == yes ]] && ratios+=("$(awk -v o="$ins" -v t="$theirs_ins" 'BEGIN { printf "%.3f", o / t }')")
    rate_ratios+=("$(awk -v o="$rate" -v t="$theirs_rate" 'BEGIN { printf "%.2f", o / t }')")
done
[[ $counting == yes ]] && echo "instructions per game, ours/theirs: ${ratios[*]} (median $(median_of "${ratios[@]}"))"
echo "games/s, ours/theirs: ${rate_ratios[*]} (median $(median_of "${rate_ratios[@]}"))"
