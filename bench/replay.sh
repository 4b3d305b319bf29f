#!/usr/bin/env bash
# Benchmark of corrections: what a change of the past costs a ledger, on a throwaway cluster with a
# release build:
#   bench/replay.sh [games] [runs]      (defaults 20000 and 5; about a minute)
# A correction (a game's result changed, a game backdated, deleted or re-dated) replays its scope
# from that game on: every later game of the scope is rated again and its entries and standings
# rewritten where they differ. For an Elo and a Glicko-2 ledger, each on its own `matches` table
# of bench/ledgers/setup.sql with `games` games in one scope (1,000 players), the median of `runs`:
#   1. the UPDATE of the result of the 10th game (the scope replayed from it), of the game in the
#      middle, and of the last game (one game replayed);
#   2. an INSERT backdated before the 10th game, and its DELETE;
#   3. baselines in the same run: an appended game (no replay) and ledger_rebuild (a replay from scratch);
#   4. 10,000 seeds written by ledger_seed in one call (one replay of the scope), the leaderboard's
#      first page with them (9,000 seeded players without games) and without (min_games => 1), and
#      the seeds removed by ledger_unseed.
# Printed: ms and games replayed per second (the games at or after the corrected one, / the time).
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$REPO_ROOT"
games=${1:-20000}
runs=${2:-5}

exec 9>"$PG_LOCK"
flock 9
install_extension --release >/dev/null 2>&1 || { echo "cargo pgrx install --release failed" >&2; exit 1; }
CLUSTER_OPTIONS="-c shared_buffers=1GB -c autovacuum=off" bench_cluster_start
trap cluster_stop EXIT
# (the install lock is held to the end: every timed statement is a new session, which loads the
# library from PostgreSQL's directories, where another build installed meanwhile would be timed)

psql -X -q -d postgres -c "CREATE DATABASE replay"
psql -X -q -v ON_ERROR_STOP=1 -d replay -c "CREATE EXTENSION pg_rating" -f bench/ledgers/setup.sql >/dev/null
psql -X -q -v ON_ERROR_STOP=1 -d replay <<SQL >/dev/null
CREATE TABLE glicko_matches (LIKE matches INCLUDING ALL);
INSERT INTO ledgers (name, rating_system, k_factor) VALUES ('elo', 'elo', 20);
INSERT INTO ledgers (name, rating_system, rating_period) VALUES ('glicko', 'glicko2', '7 days');
SELECT ledger_attach('elo', 'matches', 'id', 'played_at', 'white', 'black', 'score');
SELECT ledger_attach('glicko', 'glicko_matches', 'id', 'played_at', 'white', 'black', 'score');
INSERT INTO matches (id, played_at, white, black, score)
SELECT n, m.at, m.white, m.black, m.score FROM generate_series(1, $games) n, bench_match(n) m;
INSERT INTO glicko_matches (id, played_at, white, black, score)
SELECT n, m.at, m.white, m.black, m.score FROM generate_series(1, $games) n, bench_match(n) m;
VACUUM ANALYZE;
SQL

# the median of `runs` timings of a statement (each run in a session of its own)
median() {
    local t times=()
    for ((r = 0; r < runs; r++)); do
        t=$(psql -X -q -v ON_ERROR_STOP=1 -d replay -c '\timing on' -c "$1" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1)
        times+=("$t")
    done
    printf '%s\n' "${times[@]}" | sort -g | sed -n "$(((runs + 1) / 2))p"
}
rate() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.0f", n / (t / 1000) }'; }
# a statement's line: ms, and the games it replayed per second (none for a game that replays no other)
line() {
    if (($3 > 1)); then
        printf '   %-46s %9.1f ms %10s games/s\n' "$1" "$2" "$(rate "$3" "$2")"
    else
        printf '   %-46s %9.1f ms\n' "$1" "$2"
    fi
}

mid=$((games / 2))
for ledger in elo glicko; do
    table=matches
    [[ $ledger == glicko ]] && table=glicko_matches
    echo "$ledger: $games games in one scope, median of $runs runs"
    # a result flipped between a win and a loss each run: always a change, always a replay
    flip="score = CASE WHEN score = 1 THEN 0 ELSE 1 END"
    line "1. result of game 10 changed" "$(median "UPDATE $table SET $flip WHERE id = 10")" $((games - 9))
    line "   result of game $mid changed" "$(median "UPDATE $table SET $flip WHERE id = $mid")" $((games - mid + 1))
    line "   result of the last game changed" "$(median "UPDATE $table SET $flip WHERE id = $games")" 1
    back="timestamptz '2024-01-01' + 9 * interval '1 minute' + interval '1 second'"
    t_in=$(median "BEGIN; INSERT INTO $table (id, played_at, white, black, score) VALUES (-1, $back, 1, 2, 1);
                   ROLLBACK")
    t_ins=$(psql -X -q -v ON_ERROR_STOP=1 -d replay -c '\timing on' \
        -c "INSERT INTO $table (id, played_at, white, black, score) VALUES (-1, $back, 1, 2, 1)" \
        | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1)
    t_del=$(psql -X -q -v ON_ERROR_STOP=1 -d replay -c '\timing on' -c "DELETE FROM $table WHERE id = -1" \
        | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1)
    line "2. a game inserted before game 10 (rolled back)" "$t_in" $((games - 8))
    line "   a game inserted before game 10 (one run)" "$t_ins" $((games - 8))
    line "   that game deleted (one run)" "$t_del" $((games - 9))
    line "3. a game appended (rolled back; no replay)" \
        "$(median "BEGIN; INSERT INTO $table (id, played_at, white, black, score)
                   VALUES ($((games + 1)), timestamptz '2025-01-01', 1, 2, 1); ROLLBACK")" 1
    line "   ledger_rebuild (a replay from scratch)" "$(median "SELECT ledger_rebuild('$ledger')")" "$games"
    seeds="SELECT ledger_seed('$ledger', array_agg(p::text), array_agg(1400 + p % 400)::float8[])
           FROM generate_series(1, 10000) p"
    t_seed=$(psql -X -q -v ON_ERROR_STOP=1 -d replay -c '\timing on' -c "$seeds" \
        | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1)
    t_board=$(median "SELECT * FROM ledger_leaderboard('$ledger')")
    t_board_played=$(median "SELECT * FROM ledger_leaderboard('$ledger', min_games => 1)")
    t_unseed=$(psql -X -q -v ON_ERROR_STOP=1 -d replay -c '\timing on' \
        -c "SELECT ledger_unseed('$ledger', array_agg(p::text)) FROM generate_series(1, 10000) p" \
        | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1)
    line "4. 10,000 seeds, one ledger_seed call (one run)" "$t_seed" "$games"
    line "   leaderboard's first page, with the seeds" "$t_board" 1
    line "   the same, min_games => 1 (no seeds read)" "$t_board_played" 1
    line "   removed, one ledger_unseed call (one run)" "$t_unseed" "$games"
    echo
done
