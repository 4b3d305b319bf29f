#!/usr/bin/env bash
# bench/ledgers_scale.sh against an earlier commit, in one run (issue 33's targets for
# ledger_rebuild of a 1M-game ledger are ratios to 0.12.0 measured in the same session):
#   bench/ledgers_scale_against.sh [commit] [runs] [games]   (defaults d2fd042 = 0.12.0, 1, 1000000)
# Builds the commit in a git worktree (its release build kept in target/against-<commit>), then
# alternates bench/ledgers_scale.sh on the commit's extension and on this tree's, `runs` times each,
# the commit first, and prints the rebuild times (unchanged, after a change of K) and the ratios
# theirs/ours (how many times faster this tree is). About 12 minutes a pair at 1M games. Each run's
# whole output is kept in target/ledgers_scale_against/.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$REPO_ROOT"
commit=${1:-d2fd042}
runs=${2:-1}
games=${3:-1000000}

against_start ledgers_scale_against "$commit"

# Runs the bench on a tree's extension and prints "unchanged changed floor swap copy" (seconds of
# ledger_rebuild, of the same rows rewritten by plain SQL, written into fresh tables indexed after,
# and the same by binary COPY).
bench() {
    against_bench "$1" "$2" bench/ledgers_scale.sh "$games" -- \
        's/^unchanged: \([0-9.]*\) s.*/\1/p' \
        's/^after a change of K: \([0-9.]*\) s.*/\1/p' \
        's/^floor, .*: \([0-9.]*\) s$/\1/p' \
        's/^swap floor, those rows .*: \([0-9.]*\) s$/\1/p' \
        's/^swap floor by COPY, those rows .*: \([0-9.]*\) s$/\1/p'
}

echo "ledger_rebuild of $games games (bench/ledgers_scale.sh): $commit (theirs) against this tree (ours), $runs runs each"
printf '%-4s %-10s %14s %14s %10s   %s\n' run rebuild "theirs s" "ours s" speed-up "load (theirs / ours)"
u_ratios=() c_ratios=()
for ((i = 1; i <= runs; i++)); do
    read -r t_u t_c t_f t_s t_y <<<"$(bench theirs "$i")"
    load_t=$(cut -d' ' -f1-3 /proc/loadavg)
    read -r o_u o_c o_f o_s o_y <<<"$(bench ours "$i")"
    load_o=$(cut -d' ' -f1-3 /proc/loadavg)
    ru=$(awk -v o="$o_u" -v t="$t_u" 'BEGIN { printf "%.2f", t / o }')
    rc=$(awk -v o="$o_c" -v t="$t_c" 'BEGIN { printf "%.2f", t / o }')
    u_ratios+=("$ru") c_ratios+=("$rc")
    printf '%-4s %-10s %14s %14s %9sx   %s / %s\n' "$i" unchanged "$t_u" "$o_u" "$ru" "$load_t" "$load_o"
    printf '%-4s %-10s %14s %14s %9sx\n' "$i" "K changed" "$t_c" "$o_c" "$rc"
    printf '%-4s %-10s %14s %14s   (the same rows deleted and written again by SQL)\n' "$i" "SQL floor" "$t_f" "$o_f"
    printf '%-4s %-10s %14s %14s   (the same rows written by SQL into fresh tables, indexed after)\n' "$i" "swap floor" "$t_s" "$o_s"
    printf '%-4s %-10s %14s %14s   (the same by binary COPY, indexed after in 1 GB)\n' "$i" "COPY swap" "$t_y" "$o_y"
done
echo "median speed-up: unchanged $(median_of "${u_ratios[@]}")x, after a change of K $(median_of "${c_ratios[@]}")x (the runs' output: $AGAINST_LOGS)"
