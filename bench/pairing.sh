#!/usr/bin/env bash
# Benchmark of the Swiss pairing (FIDE Dutch system):
#   bench/pairing.sh [sizes]        (default "50 100 300 1000" players; about 5 minutes)
# For each size, core/examples/pairing_bench.rs (release build) plays 8 rounds paired by the engine
# with random results (fixed seed) and pairs round 9: the median of three, and the process's peak
# memory. Then, on a throwaway cluster with a release build of the extension, the same round 9
# through SQL (tournament_pairings_from_trf of the 8 rounds' TRF: reading the text, pairing, the
# rows), the median of three in one session.
# Targets of the issue: 300 players under 300 ms, 1,000 under 10 s; bbpPairings v6.0.0 (C++, -O3)
# needs about 0.6 s and 46 s on a machine like ours.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$REPO_ROOT"
export PATH="$HOME/.cargo/bin:$PATH"
sizes=${1:-50 100 300 1000}
work=$(mktemp -d /tmp/pg_rating_pairing.XXXXXX)
chmod 755 "$work"

cargo build --quiet --release -p pg_rating_core --example pairing_bench
echo "1. the engine (pg_rating_core), round 9 after 8 rounds"
for n in $sizes; do
    ./target/release/examples/pairing_bench "$n" "$work/$n.trf"
done

exec 9>"$PG_LOCK"
flock 9
install_extension --release >/dev/null 2>&1 || { echo "cargo pgrx install --release failed" >&2; exit 1; }
cluster_start
trap 'cluster_stop; rm -rf "$work"' EXIT
flock -u 9
psql -X -q -d postgres -c "CREATE DATABASE bench_pairing"
psql -X -q -d bench_pairing -c "CREATE EXTENSION pg_rating"

echo
echo "2. through SQL: SELECT count(*) FROM tournament_pairings_from_trf(trf), median of 3 in one session"
for n in $sizes; do
    # the text read by psql itself (a 1,000-player file is too long for an argument)
    ms=$(printf '%s\n' "\\set trf \`cat $work/$n.trf\`" '\timing on' \
            "SELECT count(*) FROM tournament_pairings_from_trf(:'trf');" \
            "SELECT count(*) FROM tournament_pairings_from_trf(:'trf');" \
            "SELECT count(*) FROM tournament_pairings_from_trf(:'trf');" \
        | psql -X -q -v ON_ERROR_STOP=1 -d bench_pairing \
        | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | sort -g | sed -n 2p)
    printf '%5s players: round 9 in %9s ms\n' "$n" "$ms"
done
