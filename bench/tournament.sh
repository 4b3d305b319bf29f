#!/usr/bin/env bash
# Benchmark of the Swiss tournament standings (issue 6), ratios from one run:
#   bench/tournament.sh [players]        (default 300 players, 11 rounds)
# On a throwaway PostgreSQL 15 cluster with a release build of the extension:
# 1. records the tournament round by round, each of a round's results as its own INSERT INTO
#    tournaments_games (the standings trigger's cost), and prints ms per result per round;
# 2. reads the final standings (swiss_tournaments_round_standings of round 11) and every
#    round's points (swiss_tournaments_players_points) with pg_rating's views and with the
#    PL/pgSQL baseline of bench/tournament/plpgsql_baseline.sql (correlated subqueries,
#    bisection), best of three runs each, and prints the ratios;
# 3. checks that both give the same points and the read plan is an index scan.
# Holds the install lock of scripts/lib.sh while the release build is installed and measured.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$REPO_ROOT"
export PATH="$HOME/.cargo/bin:$PATH"
players=${1:-300}

exec 9>"$PG_LOCK"
flock 9
install_extension --release >/dev/null 2>&1 || { echo "cargo pgrx install --release failed" >&2; exit 1; }
bench_cluster_start
trap cluster_stop EXIT
psql -X -q -d postgres -c "CREATE DATABASE bench_tournament"
export PGDATABASE=bench_tournament
psql -X -q -c "CREATE EXTENSION pg_rating_random_chess CASCADE"
q() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }
q -v players="$players" -f bench/tournament/setup.sql >/dev/null
q -f bench/tournament/plpgsql_baseline.sql >/dev/null

# ms per result of each round
echo "Recording results: $players players, 11 rounds, one INSERT INTO tournaments_games per result"
printf '%-6s %8s %14s %16s\n' round results "total ms" "ms per result"
all_total=0
all_n=0
for r in $(seq 1 11); do
    out=$(q -v r="$r" -f bench/tournament/round.sql 2>&1)
    read -r n total < <(awk '/^BENCH record_round/{on=1; next} /^BENCH end/{on=0} on && /^Time:/{c++; if (c > 1) {n++; s+=$2}} END {printf "%d %.3f\n", n, s}' <<<"$out")
    printf '%-6s %8s %14s %16s\n' "$r" "$n" "$total" "$(awk -v t="$total" -v n="$n" 'BEGIN{printf "%.3f", t/n}')"
    all_total=$(awk -v a="$all_total" -v b="$total" 'BEGIN{print a+b}')
    all_n=$((all_n + n))
done
echo "all rounds: $all_n results, $(awk -v t="$all_total" -v n="$all_n" 'BEGIN{printf "%.3f", t/n}') ms per result"

# reads, best of three
declare -A best
for run in 1 2 3; do
    out=$(q -f bench/tournament/reads.sql 2>&1)
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
        fi
    done <<<"$out"
done
echo
echo "Reading the standings (best of 3, ms)"
printf '%-26s %12s %12s %10s\n' read pg_rating baseline ratio
for what in final_round points_all_rounds; do
    o=${best[ours_$what]}; b=${best[baseline_$what]}
    printf '%-26s %12s %12s %9sx\n' "$what" "$o" "$b" "$(awk -v o="$o" -v b="$b" 'BEGIN{printf "%.0f", b/o}')"
done

echo
echo "Same points as the baseline in the final round (rows that differ):"
q -At -c "SELECT count(*) FROM baseline_players_points b
          JOIN swiss_tournaments_players_points o USING (tournament_id, user_id_in_service, round)
          WHERE b.round = 11 AND b.points <> o.points"
echo "Plan of the final-round read:"
q -c "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
      SELECT * FROM swiss_tournaments_round_standings WHERE tournament_id = 1 AND round = 11 ORDER BY place"
cluster_stop
flock -u 9
