#!/usr/bin/env bash
# Runs every test of pg_rating on a machine that may have nothing installed yet:
#   scripts/test.sh                  all stages
#   scripts/test.sh lint|core|pgrx|regress|integration [names...]   one stage (regress/integration:
#                                    only the named files)
# The tests install builds into PostgreSQL's directories; whatever pg_rating was installed there
# before (or none) is put back when they end, and the last check says so.
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

# Formatting and lints of both crates, each a check that passes or fails.
run_lint() {
    log "lint: cargo fmt --check, Markdown links, cargo clippy -D warnings"
    if cargo fmt --all --check; then
        passed=$((passed + 1)); echo "lint rustfmt ... ok"
    else
        failed=$((failed + 1)); failures+=("cargo fmt --check"); echo "lint rustfmt ... FAILED"
    fi
    if python3 scripts/check_links.py; then
        passed=$((passed + 1)); echo "lint links ... ok"
    else
        failed=$((failed + 1)); failures+=("Markdown links"); echo "lint links ... FAILED"
    fi
    if cargo clippy --workspace --all-targets --features pg_test -- -D warnings; then
        passed=$((passed + 1)); echo "lint clippy ... ok"
    else
        failed=$((failed + 1)); failures+=("cargo clippy"); echo "lint clippy ... FAILED"
    fi
}

# What pg_rating had installed in PostgreSQL's directories before the tests: kept aside, put
# back at the end (removing what the tests installed), then checked.
INSTALLED_BEFORE=$(mktemp -d /tmp/pg_rating_installed.XXXXXX)
installed_files() {
    ls -d "$($PG_CONFIG --pkglibdir)/pg_rating.so" "$($PG_CONFIG --sharedir)"/extension/pg_rating[.-]* \
        "$($PG_CONFIG --sharedir)"/extension/pg_rating_random_chess[.-]* 2>/dev/null || true
}
installed_fingerprint() {
    local f
    for f in $(installed_files); do printf '%s %s\n' "$(basename "$f")" "$(sha256sum < "$f" | cut -c1-64)"; done
}
# (under the install lock, so that another run's install is never half copied; runs at the same time still
# replace each other's builds: run one at a time)
keep_installed() {
    local f
    exec 8>"$PG_LOCK"
    flock 8
    installed_fingerprint > "$INSTALLED_BEFORE/fingerprint"
    for f in $(installed_files); do cp -p "$f" "$INSTALLED_BEFORE/"; done
    flock -u 8
}
restore_installed() {
    local f
    exec 8>"$PG_LOCK"
    flock 8
    for f in $(installed_files); do rm -f "$f"; done
    for f in "$INSTALLED_BEFORE"/pg_rating*; do
        [[ -e "$f" ]] || continue
        case $f in
            *.so) cp -p "$f" "$($PG_CONFIG --pkglibdir)/" ;;
            *) cp -p "$f" "$($PG_CONFIG --sharedir)/extension/" ;;
        esac
    done
    local now
    now=$(installed_fingerprint)
    flock -u 8
    if [[ "$now" == "$(cat "$INSTALLED_BEFORE/fingerprint")" ]]; then
        passed=$((passed + 1)); echo "installation as before the tests ... ok ($(wc -l < "$INSTALLED_BEFORE/fingerprint") files)"
    else
        failed=$((failed + 1)); failures+=("installation not restored"); echo "installation as before the tests ... FAILED"
    fi
    rm -rf "$INSTALLED_BEFORE"
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
        # Tests of the Random Chess glue create its extension: its files go in first.
        install_random_chess
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

# The golden files of the engine alone, and those that create what they need themselves; every
# other file runs with the Random Chess schema too.
ENGINE_REGRESS=" ledger_mixed_statement ledger_multiplayer_seeds chess_fen chess_pgn chess_san elo fide glicko2 glicko2_rule skemino performance types ledgers ledger_paths ledger_reads ledger_seeds ledger_copies ledger_replay_writes ledger_policies ledger_now_rules svg pairing pairing_tables pairing_burstein tenancy ledger_seasons_every_scope "
SELF_CONTAINED_REGRESS=" install_beside extension "

# Each golden file runs in a fresh database with the extensions created, so files are independent.
run_regress_files() {
    local name extensions
    for name in $(pick pg_regress/sql sql); do
        extensions=(--load-extension=pg_rating --load-extension=pg_rating_random_chess)
        [[ $ENGINE_REGRESS == *" $name "* ]] && extensions=(--load-extension=pg_rating)
        [[ $SELF_CONTAINED_REGRESS == *" $name "* ]] && extensions=()
        if "$PG_BIN/../lib/pgxs/src/test/regress/pg_regress" \
            --bindir="$PG_BIN" --inputdir=pg_regress --outputdir=pg_regress \
            --host="$PGHOST" --port="$PGPORT" --user=postgres --dbname=regress_"$name" \
            "${extensions[@]}" "$name" >/tmp/pg_rating_regress.out 2>&1; then
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
keep_installed
case $stage in
    all) run_lint; run_core; run_pgrx; run_on_cluster regress integration ;;
    lint) run_lint ;;
    core) run_core ;;
    pgrx) run_pgrx ;;
    regress) run_on_cluster regress ;;
    integration) run_on_cluster integration ;;
    *) echo "usage: $0 [all|lint|core|pgrx|regress|integration] [names...]" >&2; exit 2 ;;
esac
restore_installed

for f in "${failures[@]}"; do echo "failed: $f"; done
echo "summary: $passed passed, $failed failed"
((failed == 0))
