#!/usr/bin/env bash
# Chess benchmark (not a test): prints throughput and ratios measured in one run.
#   bench/chess.sh            1,000 games for generate_fen_array, 100,000 for detect_opening,
#                             20,000 PGN games; env N_GAMES, N_BIG, N_PGN change the sizes.
# Baselines: bench/chess/plpgsql_baseline.sql (PL/pgSQL generate_fen_array and detect_opening)
# and the same Rust core outside PostgreSQL (bench/chess/src/main.rs).
# Needs the lichess openings TSV files in ../shared/data/chess-openings (or OPENINGS_DIR).
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$REPO_ROOT"
OPENINGS_DIR=${OPENINGS_DIR:-$REPO_ROOT/../shared/data/chess-openings}
N_GAMES=${N_GAMES:-1000}
N_BIG=${N_BIG:-100000}
N_PGN=${N_PGN:-20000}
for f in a b c d e; do
    [[ -r $OPENINGS_DIR/$f.tsv ]] || { echo "missing $OPENINGS_DIR/$f.tsv (lichess chess-openings)" >&2; exit 1; }
done

ensure_setup
WORK=$(mktemp -d /tmp/pg_rating_chess_bench.XXXXXX)
chmod 755 "$WORK"
trap 'cluster_stop; rm -rf "$WORK"' EXIT

log "data and the Rust core outside PostgreSQL"
CARGO_TARGET_DIR=$REPO_ROOT/target/bench-chess cargo build -q --release --offline \
    --manifest-path bench/chess/Cargo.toml
"$REPO_ROOT/target/bench-chess/release/pg_rating_chess_bench" "$OPENINGS_DIR" "$WORK" \
    "$N_GAMES" "$N_BIG" "$N_PGN" | tee "$WORK/core.txt"
chmod 644 "$WORK"/*
core_plies=$(grep -o 'core_fen_array_plies_per_s=[0-9]*' "$WORK/core.txt" | cut -d= -f2)
core_pgn=$(grep -o 'core_read_pgn_games_per_s=[0-9]*' "$WORK/core.txt" | cut -d= -f2)

exec 9>"$PG_LOCK"
flock 9
install_extension --release >/dev/null
bench_cluster_start
psql -X -q -d postgres -c "CREATE DATABASE bench" >/dev/null
export PGDATABASE=bench OPENINGS_DIR
psql -X -q -v ON_ERROR_STOP=1 -c "CREATE EXTENSION pg_rating_random_chess CASCADE" -f bench/chess/plpgsql_baseline.sql

q() { psql -X -q -At -v ON_ERROR_STOP=1 -c "SET max_parallel_workers_per_gather = 0" -c "$1"; }
# Seconds one statement takes, measured inside the server.
psql -X -q -v ON_ERROR_STOP=1 <<SQL
CREATE FUNCTION bench_seconds(q text) RETURNS float8 LANGUAGE plpgsql AS \$\$
DECLARE t0 timestamptz := clock_timestamp();
BEGIN EXECUTE q; RETURN extract(epoch FROM clock_timestamp() - t0); END \$\$;
\set tsv \`cat "\$OPENINGS_DIR"/a.tsv "\$OPENINGS_DIR"/b.tsv "\$OPENINGS_DIR"/c.tsv "\$OPENINGS_DIR"/d.tsv "\$OPENINGS_DIR"/e.tsv\`
SELECT load_lichess_openings(:'tsv') AS openings_loaded \gset
CREATE TABLE bench_games (id int, start varchar, moves varchar[]);
\copy bench_games FROM '$WORK/games.tsv'
CREATE TABLE big_games (id int, start varchar, moves varchar[]);
\copy big_games FROM '$WORK/big_games.tsv'
CREATE TABLE bench_fens AS SELECT id, generate_fen_array(start, moves) AS partial_fens FROM big_games;
-- The same games as imported games, so that the real games_openings view can be measured.
INSERT INTO users (email, password_hash) VALUES ('bench@example.com', 'x');
INSERT INTO pgn_games (moves, starting_position, creation_date, result, owner_id, black_player_name, white_player_name)
SELECT moves, start, timestamptz '2024-01-01' + id * interval '1 minute', '(1-0,UNKNOWN)',
       (SELECT id FROM users), 'b', 'w'
FROM big_games;
VACUUM ANALYZE;
SQL

plies=$(q "SELECT sum(cardinality(moves)) FROM bench_games")
best() { # best of N runs of a statement, in seconds
    local n=$1 stmt=$2 b="" t
    for _ in $(seq "$n"); do
        t=$(q "SELECT bench_seconds(\$q\$$stmt\$q\$)")
        if [[ -z $b ]] || awk "BEGIN{exit !($t < $b)}"; then b=$t; fi
    done
    echo "$b"
}
log "generate_fen_array on $N_GAMES games ($plies plies)"
t_ours=$(best 5 "SELECT sum(cardinality(generate_fen_array(start, moves))) FROM bench_games")
t_pl=$(best 1 "SELECT sum(cardinality(plpgsql_generate_fen_array(start, moves))) FROM bench_games")
same=$(q "SELECT count(*) FILTER (WHERE generate_fen_array(start, moves) = plpgsql_generate_fen_array(start, moves)) || ' of ' || count(*) FROM bench_games WHERE id <= 200")

log "games_openings (detect_opening) over $N_BIG games, $(q "SELECT count(*) FROM openings") openings"
t_det=$(best 3 "SELECT count(d.opening_id) FROM bench_fens g CROSS JOIN LATERAL detect_opening(g.partial_fens) d")
t_view=$(best 3 "SELECT count(opening_id) FROM games_openings")
matched=$(q "SELECT count(opening_id) FROM games_openings")
t_det_pl=$(best 1 "SELECT count(d.opening_id) FROM bench_fens g CROSS JOIN LATERAL plpgsql_detect_opening(g.partial_fens) d WHERE g.id <= 2000")
same_det=$(q "SELECT count(*) FILTER (WHERE (a.opening_id, a.move_no) IS NOT DISTINCT FROM (b.opening_id, b.move_no)) || ' of ' || count(*) FROM bench_fens g, detect_opening(g.partial_fens) a, plpgsql_detect_opening(g.partial_fens) b WHERE g.id <= 2000")

log "read_pgn on $N_PGN games ($(du -m "$WORK/games.pgn" | cut -f1) MB)"
t_pgn=$(best 3 "SELECT count(*) FROM read_pgn(pg_read_file('$WORK/games.pgn'))")
t_pgn_file=$(best 3 "SELECT length(pg_read_file('$WORK/games.pgn'))")
hwm() { # peak memory (kB) of a fresh backend after reading a PGN file, minus the file's size
    psql -X -q -At -v ON_ERROR_STOP=1 \
        -c "SELECT count(*) FROM read_pgn(pg_read_file('$1'))" \
        -c "SELECT substring(pg_read_file('/proc/self/status') from 'VmHWM:\s*(\d+)')::bigint - length(pg_read_file('$1')) / 1024" | tail -1
}
mem_q=$(hwm "$WORK/games_quarter.pgn")
mem_full=$(hwm "$WORK/games.pgn")
flock -u 9

awk -v plies="$plies" -v games="$N_GAMES" -v t_ours="$t_ours" -v t_pl="$t_pl" -v core="$core_plies" \
    -v big="$N_BIG" -v t_det="$t_det" -v t_view="$t_view" -v t_det_pl="$t_det_pl" -v npgn="$N_PGN" -v t_pgn="$t_pgn" \
    -v t_file="$t_pgn_file" -v core_pgn="$core_pgn" -v same="$same" -v same_det="$same_det" \
    -v matched="$matched" -v mem_q="$mem_q" -v mem_full="$mem_full" 'BEGIN {
    ours = plies / t_ours; pl = plies / t_pl
    printf "\n== chess benchmark (one run, PostgreSQL 15, release build, 1 core per query)\n"
    printf "generate_fen_array, %d games, %d plies (%.1f per game):\n", games, plies, plies / games
    printf "  pg_rating          %12.0f plies/s  %9.0f games/s\n", ours, games / t_ours
    printf "  PL/pgSQL baseline  %12.0f plies/s  %9.0f games/s   (same output on %s games)\n", pl, games / t_pl, same
    printf "  Rust core alone    %12.0f plies/s\n", core
    printf "  ratio pg_rating / PL/pgSQL = %.0fx (goal >= 100x); pg_rating / Rust core = %.0f%% (goal >= 50%%)\n", ours / pl, 100 * ours / core
    printf "detect_opening over %d games (%d with an opening), 3807 openings loaded:\n", big, matched
    printf "  games_openings view over games %6.0f games/s (goal >= 20000)\n", big / t_view
    printf "  detect_opening on a table      %6.0f games/s\n", big / t_det
    printf "  PL/pgSQL baseline on a table   %6.0f games/s (2000 games; same result on %s)\n", 2000 / t_det_pl, same_det
    printf "  ratio detect_opening / PL/pgSQL = %.0fx\n", (big / t_det) / (2000 / t_det_pl)
    printf "read_pgn, %d lichess-style games (13 tags, clock comments):\n", npgn
    printf "  pg_rating          %12.0f games/s (goal >= 20000; %.2f s of %.2f s is pg_read_file)\n", npgn / t_pgn, t_file, t_pgn
    printf "  Rust core alone    %12.0f games/s; ratio = %.0f%%\n", core_pgn, 100 * (npgn / t_pgn) / core_pgn
    printf "  backend peak memory minus the PGN text: %d kB for %d games, %d kB for %d games\n", mem_q, npgn / 4, mem_full, npgn
}'
