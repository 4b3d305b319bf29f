#!/usr/bin/env bash
# Benchmark of a large ledger, on a throwaway cluster with a release build:
#   bench/ledgers_scale.sh [games]      (default 1000000; about 5 minutes)
# An Elo ledger on the plain `matches` table of bench/ledgers/setup.sql (bigint ids, three
# indexes), `games` games in date order: the first half pairs new players (1, 2), (3, 4), ... so
# that the ledger has `games` players, the second half pairs players at random.
# 1. the games loaded by INSERT ... SELECT in blocks of 100,000 (one statement each): games/s;
# 2. ledger_rebuild of the whole ledger, unchanged (its rows kept) and after a change of K (every
#    row rewritten), and the floor of the latter: the same rows deleted and written again by plain
#    SQL into copies of the tables (bench/ledgers/rebuild_floor.sql);
# 3. reads, each the median of runs 2-6 in one session: a leaderboard page (first, and the 100th of 50 rows), a
#    player's rank, a rating as of a date, a player's history.
# BENCH_TREE=<dir> runs the same bench on the extension built from another tree (with its own
# CARGO_TARGET_DIR): bench/ledgers_scale_against.sh uses it to measure an earlier commit.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$REPO_ROOT"
games=${1:-1000000}
block=100000
half=$((games / 2))

exec 9>"$PG_LOCK"
flock 9
(REPO_ROOT=${BENCH_TREE:-$REPO_ROOT} install_extension --release) >/dev/null 2>&1 || { echo "cargo pgrx install --release failed" >&2; exit 1; }
CLUSTER_OPTIONS="-c shared_buffers=2GB -c autovacuum=off -c max_wal_size=8GB -c checkpoint_timeout=30min" bench_cluster_start
trap cluster_stop EXIT

ms() { psql -X -q -v ON_ERROR_STOP=1 -d scale -c '\timing on' -c "$1" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1; }
# a read run 6 times in one session (as a pooled connection does): the median of the last 5
median() {
    psql -X -q -v ON_ERROR_STOP=1 -d scale -c '\timing on' -c "$1" -c "$1" -c "$1" -c "$1" -c "$1" -c "$1" \
        | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -n 5 | sort -g | sed -n 3p
}
rate() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.0f", n / (t / 1000) }'; }

psql -X -q -d postgres -c "CREATE DATABASE scale"
psql -X -q -v ON_ERROR_STOP=1 -d scale -c "CREATE EXTENSION pg_rating" -f bench/ledgers/setup.sql >/dev/null
# (the library is preloaded, but CREATE EXTENSION reads the install script: another worker's install may
# replace it until then)
flock -u 9
psql -X -q -v ON_ERROR_STOP=1 -d scale <<SQL >/dev/null
-- game n: new players 2n-1 and 2n in the first half, two of the $games players at random after it
CREATE FUNCTION scale_match(n bigint, OUT white bigint, OUT black bigint, OUT score float8, OUT at timestamptz)
LANGUAGE sql IMMUTABLE AS \$\$
SELECT CASE WHEN n <= $half THEN 2 * n - 1 ELSE 1 + (n * 7919) % $games END,
       CASE WHEN n <= $half THEN 2 * n ELSE 1 + ((n * 7919) % $games + 1 + (n * 104729) % ($games - 1)) % $games END,
       (ARRAY[1, 0, 0.5])[1 + n % 3]::float8, timestamptz '2020-01-01' + n * interval '10 seconds'
\$\$;
INSERT INTO ledgers (name, rating_system, starting_rating, k_factor) VALUES ('elo', 'elo', 1500, 20);
SELECT ledger_attach('elo', 'matches', 'id', 'played_at', 'white', 'black', 'score');
SQL

echo "1. $games games into an Elo ledger, INSERT ... SELECT of $block games each"
total=0
for ((a = 1; a <= games; a += block)); do
    b=$((a + block - 1 < games ? a + block - 1 : games))
    t=$(ms "INSERT INTO matches (id, played_at, white, black, score)
            SELECT n, m.at, m.white, m.black, m.score FROM generate_series($a, $b) n, scale_match(n) m")
    total=$(awk -v a="$total" -v b="$t" 'BEGIN { print a + b }')
    printf '%-16s %10s games/s\n' "$a-$b" "$(rate $((b - a + 1)) "$t")"
done
echo "all: $(rate "$games" "$total") games/s ($(awk -v t="$total" 'BEGIN { printf "%.1f", t / 1000 }') s)"
psql -X -q -d scale -c "VACUUM ANALYZE"
players=$(psql -X -At -d scale -c "SELECT count(*) FROM ledger_standings")
entries=$(psql -X -At -d scale -c "SELECT count(*) FROM ledger_entries")
echo "the ledger: $players players, $entries history rows"

echo
echo "2. ledger_rebuild('elo') of $games games: the history unchanged (rows kept), then after a change of K"
echo "   (every row rewritten)"
# ms of a rebuild, and where its time went (the rebuild's DEBUG2 lines, from 0.13.0 on) in $phases
phases=$(mktemp)
rebuild_ms() {
    PGOPTIONS="-c client_min_messages=debug2" ms "$1" 2>"$phases" || { cat "$phases" >&2; exit 1; }
}
show_phases() { sed -n 's/^DEBUG:  ledger [0-9]* \(rebuil.*\)$/   \1/p' "$phases"; }
t=$(rebuild_ms "SELECT ledger_rebuild('elo')")
echo "unchanged: $(awk -v t="$t" 'BEGIN { printf "%.1f", t / 1000 }') s ($(rate "$games" "$t") games/s)"
show_phases
t=$(rebuild_ms "UPDATE ledgers SET k_factor = 24 WHERE name = 'elo'")
echo "after a change of K: $(awk -v t="$t" 'BEGIN { printf "%.1f", t / 1000 }') s ($(rate "$games" "$t") games/s)"
show_phases
rm -f "$phases"
psql -X -q -v ON_ERROR_STOP=1 -d scale -f bench/ledgers/rebuild_floor.sql >/dev/null
t=$(psql -X -q -v ON_ERROR_STOP=1 -d scale -c '\timing on' -c "BEGIN" -c "DELETE FROM floor_entries" \
    -c "INSERT INTO floor_entries SELECT * FROM ledger_entries ORDER BY ledger_id, scope, player, game_date, game_key" \
    -c "DELETE FROM floor_standings" \
    -c "INSERT INTO floor_standings SELECT * FROM ledger_standings ORDER BY ledger_id, scope, player" -c "COMMIT" \
    | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | awk '{ s += $1 } END { print s }')
echo "floor, those rows deleted and written again by SQL (bench/ledgers/rebuild_floor.sql): $(awk -v t="$t" 'BEGIN { printf "%.1f", t / 1000 }') s"
psql -X -q -d scale -c "DROP TABLE floor_entries, floor_standings"
# the floor of a rebuild into fresh tables swapped in: the rows written into new tables whose
# indexes are built after; the reading and sorting of the rows (which a rebuild has in memory)
# timed apart and taken off
times=$(psql -X -q -v ON_ERROR_STOP=1 -d scale -c '\timing on' -f bench/ledgers/swap_floor.sql \
    | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tr '\n' ' ')
read_ms=$(psql -X -q -v ON_ERROR_STOP=1 -d scale -c '\timing on' \
    -c "SELECT count(*) FROM (SELECT * FROM ledger_entries ORDER BY ledger_id, scope, player, game_date, game_key OFFSET 0) r" \
    -c "SELECT count(*) FROM (SELECT * FROM ledger_standings ORDER BY ledger_id, scope, player OFFSET 0) r" \
    | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | awk '{ s += $1 } END { print s }')
echo "swap floor, statements in ms (bench/ledgers/swap_floor.sql): $times(reading and sorting the rows: $read_ms ms)"
echo "swap floor, those rows written into fresh tables and indexed: $(echo "$times" | awk -v r="$read_ms" '{ for (i = 1; i <= NF; i++) s += $i; printf "%.1f", (s - r) / 1000 }') s"
psql -X -q -d scale -c "DROP TABLE swap_entries, swap_standings"
# the same floor as a bulk writer would reach it: binary COPY in, indexes built after in 1 GB
times=$(psql -X -q -v ON_ERROR_STOP=1 -d scale -v dir="$CLUSTER_DIR" -f bench/ledgers/swap_floor_copy.sql \
    | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tr '\n' ' ')
echo "swap floor by COPY, statements in ms (bench/ledgers/swap_floor_copy.sql): $times"
echo "swap floor by COPY, those rows written into fresh tables and indexed: $(echo "$times" | awk '{ for (i = 1; i <= NF; i++) s += $i; printf "%.1f", s / 1000 }') s"
psql -X -q -d scale -c "DROP TABLE copy_entries, copy_standings"
rm -f "$CLUSTER_DIR"/swap_entries.bin "$CLUSTER_DIR"/swap_standings.bin
psql -X -q -d scale -c "VACUUM ANALYZE"

echo
echo "3. reads of a ledger of $players players (ms, median of runs 2-6 in one session)"
printf '%-44s %8s\n' "leaderboard, first page of 50" "$(median "SELECT * FROM ledger_leaderboard('elo')")"
printf '%-44s %8s\n' "leaderboard, page 100 of 50" "$(median "SELECT * FROM ledger_leaderboard('elo', page => 100)")"
printf '%-44s %8s\n' "leaderboard, first page, min 3 games" \
    "$(median "SELECT * FROM ledger_leaderboard('elo', min_games => 3)")"
printf '%-44s %8s\n' "ledger_player_rank" "$(median "SELECT ledger_player_rank('elo', '4242')")"
printf '%-44s %8s\n' "ledger_rating_at" \
    "$(median "SELECT * FROM ledger_rating_at('elo', '4242', timestamptz '2020-03-01')")"
printf '%-44s %8s\n' "a player's history (ledger_history)" \
    "$(median "SELECT * FROM ledger_history WHERE ledger = 'elo' AND scope = '' AND player = '4242'")"
