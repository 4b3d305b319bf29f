#!/usr/bin/env bash
# Benchmarks of the rating engine (issue 4), core and SQL in the same run:
#   bench/rating.sh
# 1. the core outside PostgreSQL (bench/rating, release build): Elo, FIDE, Skèmino, Glicko-2
#    per game / decay / 20-game period, and a 1,000,000-game period among 100,000 players;
# 2. the same period in SQL on a throwaway PostgreSQL 15 cluster with a release build of the
#    extension, in several statement shapes (bench/rating/period*.sql), best of six runs;
# then prints games/s of each shape and its ratio to the core of this run.
# Holds the install lock of scripts/lib.sh while the release build is installed and measured.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$REPO_ROOT"
export PATH="$HOME/.cargo/bin:$PATH"

log "core benchmark (release)"
CARGO_TARGET_DIR="$REPO_ROOT/target/bench-rating" \
    cargo build --release --offline --quiet --manifest-path bench/rating/Cargo.toml
core=$("$REPO_ROOT/target/bench-rating/release/pg_rating_bench_rating")
echo "$core"
core_gps=$(sed -n 's/^core_period_games_per_s=//p' <<<"$core")

log "SQL benchmark: release build, throwaway cluster"
exec 9>"$PG_LOCK"
flock 9
install_extension --release >/dev/null 2>&1 || { echo "cargo pgrx install --release failed" >&2; exit 1; }
bench_cluster_start
trap cluster_stop EXIT
psql -X -q -d postgres -c "CREATE DATABASE bench_rating"
psql -X -q -d bench_rating -c "CREATE EXTENSION pg_rating"
run_sql() { psql -X -d bench_rating -f "$1" 2>&1 || { echo "psql $1 failed" >&2; return 1; }; }
out=$(run_sql bench/rating/period.sql) || { echo "$out" | tail -20 >&2; exit 1; }
out=""
for round in 1 2 3; do   # each statement 2 × 3 times; the best time is kept (the cores are shared)
    out+=$(run_sql bench/rating/period_queries.sql)$'\n' || { echo "$out" | tail -20 >&2; exit 1; }
done
out+=$(run_sql bench/rating/period_update.sql) || { echo "$out" | tail -20 >&2; exit 1; }
cluster_stop
flock -u 9

# best time (ms) per label
declare -A best
label=
while IFS= read -r line; do
    if [[ $line == BENCH* ]]; then
        label=${line#BENCH }
    elif [[ $line =~ ^Time:\ ([0-9.]+)\ ms && -n $label ]]; then
        t=${BASH_REMATCH[1]}
        if [[ -z ${best[$label]:-} ]] || awk -v a="$t" -v b="${best[$label]}" 'BEGIN{exit !(a<b)}'; then
            best[$label]=$t
        fi
        label=
    elif [[ $line == ERROR* ]]; then
        echo "$line" >&2
    fi
done <<<"$out"

echo
echo "Glicko-2 period, 1,000,000 games among 100,000 players (core: $core_gps games/s)"
printf '%-22s %10s %14s %10s\n' shape ms games/s ratio
for shape in rate_period aggregate array_agg_update rate_period_update rate_period_plumbing rate_period_function_only detoast_only aggregate_plumbing; do
    ms=${best[$shape]:-}
    [[ -n $ms ]] || continue
    awk -v s="$shape" -v ms="$ms" -v core="$core_gps" \
        'BEGIN { gps = 1e6 / (ms / 1000); printf "%-22s %10.1f %14.0f %10.3f\n", s, ms, gps, gps / core }'
done
echo
echo "1,000,000 single calls in SQL"
for shape in elo_update_1m plain_sql_1m glicko2_game_1m; do
    ms=${best[$shape]:-}
    [[ -n $ms ]] && awk -v s="$shape" -v ms="$ms" 'BEGIN { printf "%-22s %10.1f ms  %8.0f ns/call\n", s, ms, ms * 1e6 / 1e6 }'
done
