#!/usr/bin/env bash
# bench/rankings.sh against an earlier commit, in one run (issue 12's target: at least the rate of
# 0.2.0, measured in the same session, since this machine's speed drifts from day to day):
#   bench/rankings_against.sh [commit] [runs] [games]   (defaults 5c46442 = 0.2.0, 3, 100000)
# Builds the commit in a git worktree (its release build kept in target/against-<commit> for the
# next time), then alternates the commit's own bench/rankings.sh and this tree's, `runs` times each,
# the commit first, and prints each run's sustained rate and ratio to the PL/pgSQL baseline, the
# ratio of the two sustained rates run by run, and the median of those ratios. About 8 minutes a
# pair at 100,000 games. Each run's whole output is kept in target/rankings_against/.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$REPO_ROOT"
commit=${1:-5c46442}
runs=${2:-3}
games=${3:-100000}

against_start rankings_against "$commit"

# Runs a tree's own bench (0.2.0's has no BENCH_TREE) and prints "sustained ratio" (games/s and the
# ratio to PL/pgSQL).
bench() {
    AGAINST_OWN_SCRIPT=1 against_bench "$1" "$2" bench/rankings.sh "$games" -- \
        's/^sustained: \([0-9]*\) games\/s.*/\1/p' \
        's/^ratio: \([0-9]*\)x$/\1/p'
}

echo "bench/rankings.sh, $games games: $commit (theirs) against this tree (ours), $runs runs each, alternated"
printf '%-4s %18s %10s %18s %10s %12s\n' run "theirs games/s" "vs PL/pg" "ours games/s" "vs PL/pg" "ours/theirs"
ratios=()
for ((i = 1; i <= runs; i++)); do
    theirs=$(bench theirs "$i")
    ours=$(bench ours "$i")
    read -r t_rate t_ratio <<<"$theirs"
    read -r o_rate o_ratio <<<"$ours"
    r=$(awk -v o="$o_rate" -v t="$t_rate" 'BEGIN { printf "%.2f", o / t }')
    ratios+=("$r")
    printf '%-4s %18s %9sx %18s %9sx %12s\n' "$i" "$t_rate" "$t_ratio" "$o_rate" "$o_ratio" "$r"
done
echo "median ours/theirs: $(median_of "${ratios[@]}") (the runs' output: $AGAINST_LOGS)"
