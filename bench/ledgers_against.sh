#!/usr/bin/env bash
# Section 1 of bench/ledgers.sh (games one INSERT each, two ledgers, against the floor) for an
# earlier commit and this tree, alternated in one run (issue 33's target: two ledgers per game at
# most 1.3x the floor):
#   bench/ledgers_against.sh [commit] [runs] [games]   (defaults d2fd042 = 0.12.0, 3, 2000)
# Each run installs a tree's build and measures it with this tree's bench (same tables, same floor),
# the commit first; it prints each run's ledgers/floor and ledgers/plain ratios, the median
# ratio to the floor of each tree, and the load average. The runs' output: target/ledgers_against/.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$REPO_ROOT"
commit=${1:-d2fd042}
runs=${2:-3}
games=${3:-2000}

against_start ledgers_against "$commit"

# Runs section 1 for a tree and prints "ledgers/floor ledgers/plain".
bench() {
    LEDGERS_UPTO=1 against_bench "$1" "$2" bench/ledgers.sh "$games" -- \
        's/.*the ledgers \/ the floor: \([0-9.]*\)x$/\1/p' \
        's/^cost per game with the two ledgers \/ without: \([0-9.]*\)x.*/\1/p'
}

echo "bench/ledgers.sh section 1, $games games: $commit (theirs) against this tree (ours), $runs runs each"
printf '%-4s %14s %14s %14s %14s  %s\n' run "theirs/floor" "theirs/plain" "ours/floor" "ours/plain" "load (1 min)"
t_all=() o_all=()
for ((i = 1; i <= runs; i++)); do
    read -r t_floor t_plain <<<"$(bench theirs "$i")"
    read -r o_floor o_plain <<<"$(bench ours "$i")"
    t_all+=("$t_floor") o_all+=("$o_floor")
    printf '%-4s %13sx %13sx %13sx %13sx  %s\n' "$i" "$t_floor" "$t_plain" "$o_floor" "$o_plain" \
        "$(cut -d' ' -f1 /proc/loadavg)"
done
echo "median ledgers/floor: theirs $(median_of "${t_all[@]}")x, ours $(median_of "${o_all[@]}")x (the runs' output: $AGAINST_LOGS)"
