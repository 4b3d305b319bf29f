#!/usr/bin/env bash
# Runs every test of pg_rating on a machine that may have nothing installed yet:
#   scripts/test.sh                  all stages
#   scripts/test.sh core|pgrx|regress|integration [names...]   one stage (regress/integration:
#                                    only the named files)
# Ends with one line `summary: N passed, M failed` and exits non-zero on any failure.
set -uo pipefail
source "$(dirname "$0")/lib.sh"
cd "$REPO_ROOT"

stage=${1:-all}
shift || true
selected=("$@")
passed=0
failed=0
failures=()

# Adds the counts of every `test result:` line of cargo's output.
count_cargo() {
    local out=$1 status=$2 p f
    p=$(grep -Eo 'test result: [A-Za-z]+\. [0-9]+ passed' "$out" | awk '{s+=$4} END {print s+0}')
    f=$(grep -Eo '[0-9]+ failed;' "$out" | awk '{s+=$1} END {print s+0}')
    passed=$((passed + p))
    failed=$((failed + f))
    if ((status != 0 && f == 0)); then
        failed=$((failed + 1))
        failures+=("$3 (exit $status)")
    fi
}

run_core() {
    log "pure core: cargo test -p pg_rating_core"
    local out; out=$(mktemp)
    cargo test -p pg_rating_core 2>&1 | tee "$out"
    count_cargo "$out" "${PIPESTATUS[0]}" "cargo test -p pg_rating_core"
    rm -f "$out"
}

run_pgrx() {
    log "glue: cargo pgrx test pg15"
    local out pgdata; out=$(mktemp); pgdata=/tmp/pg_rating_pgrx_test
    (
        flock 9
        rm -rf "$pgdata"
        cargo pgrx test pg15 --runas postgres --pgdata "$pgdata"
        status=$?
        rm -rf "$pgdata"
        exit $status
    ) 9>"$PG_LOCK" 2>&1 | tee "$out"
    count_cargo "$out" "${PIPESTATUS[0]}" "cargo pgrx test"
    rm -f "$out"
}

# Names of the files to run: all of them, or only those selected.
pick() {
    local dir=$1 ext=$2 f name
    for f in "$dir"/*."$ext"; do
        [[ -e "$f" ]] || continue
        name=$(basename "$f" ".$ext")
        if ((${#selected[@]} == 0)) || [[ " ${selected[*]} " == *" $name "* ]]; then echo "$name"; fi
    done
}

# Each golden file runs in a fresh database with the extension created, so files are independent.
run_regress_files() {
    local name
    for name in $(pick pg_regress/sql sql); do
        if "$PG_BIN/../lib/pgxs/src/test/regress/pg_regress" \
            --bindir="$PG_BIN" --inputdir=pg_regress --outputdir=pg_regress \
            --host="$PGHOST" --port="$PGPORT" --user=postgres --dbname=regress_"$name" \
            --load-extension=pg_rating "$name" >/tmp/pg_rating_regress.out 2>&1; then
            passed=$((passed + 1)); echo "pg_regress $name ... ok"
        else
            failed=$((failed + 1)); failures+=("pg_regress $name")
            echo "pg_regress $name ... FAILED"; cat /tmp/pg_rating_regress.out
            [[ -f pg_regress/regression.diffs ]] && head -n 80 pg_regress/regression.diffs
        fi
    done
}

# Integration tests get a fresh database with the extension in PGDATABASE; exit 0 is a pass.
run_integration_files() {
    local f name db
    for f in tests/integration/*; do
        [[ -f "$f" && -x "$f" ]] || continue
        name=$(basename "$f")
        if ((${#selected[@]})) && [[ " ${selected[*]} " != *" ${name%.*} "* ]]; then continue; fi
        db=it_$(echo "${name%.*}" | tr -c 'a-z0-9_\n' '_')
        fresh_database "$db"
        log "integration: $name"
        if PGDATABASE=$db "$f"; then
            passed=$((passed + 1)); echo "integration $name ... ok"
        else
            failed=$((failed + 1)); failures+=("integration $name"); echo "integration $name ... FAILED"
        fi
    done
}

# Installs the extension and runs pg_regress and/or integration tests on one throwaway cluster.
run_on_cluster() {
    exec 9>"$PG_LOCK"
    flock 9
    if ! install_extension; then
        failed=$((failed + 1)); failures+=("cargo pgrx install")
        flock -u 9; return
    fi
    cluster_start
    trap cluster_stop EXIT
    for part in "$@"; do
        case $part in
            regress) log "SQL surface: pg_regress"; run_regress_files ;;
            integration) run_integration_files ;;
        esac
    done
    cluster_stop
    flock -u 9
}

ensure_setup
case $stage in
    all) run_core; run_pgrx; run_on_cluster regress integration ;;
    core) run_core ;;
    pgrx) run_pgrx ;;
    regress) run_on_cluster regress ;;
    integration) run_on_cluster integration ;;
    *) echo "usage: $0 [all|core|pgrx|regress|integration] [names...]" >&2; exit 2 ;;
esac

for f in "${failures[@]}"; do echo "failed: $f"; done
echo "summary: $passed passed, $failed failed"
((failed == 0))
