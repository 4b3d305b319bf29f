# Shared by scripts/*.sh: machine set-up and throwaway PostgreSQL clusters.
# Sourced, not run. Everything here is idempotent.

# runuser, and the tools apt installs, live in sbin, which a non-login root shell may lack.
export PATH="$PATH:/usr/local/sbin:/usr/sbin:/sbin"
PG_CONFIG=/usr/lib/postgresql/15/bin/pg_config
PG_BIN=/usr/lib/postgresql/15/bin
PGRX_VERSION=0.18.1
REPO_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# Serialises installs into PostgreSQL's directories and `cargo pgrx test` runs between
# concurrent invocations on one machine.
PG_LOCK=/tmp/pg_rating_install.lock

log() { printf '\n=== %s\n' "$*" >&2; }

# Debian packages, cargo-pgrx and `cargo pgrx init`, each only when missing.
ensure_setup() {
    export PATH="$HOME/.cargo/bin:$PATH"
    local missing=() pkg
    # librsvg2-bin: rsvg-convert, which tests/integration/svg_render.sh draws the SVG pictures with
    for pkg in postgresql-15 postgresql-server-dev-15 libclang-dev sudo librsvg2-bin; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
    # The differential tests install python-chess with pip: a python3 without pip gets Debian's.
    python3 -m pip --version >/dev/null 2>&1 || missing+=(python3-pip)
    if ((${#missing[@]})); then
        log "installing Debian packages: ${missing[*]}"
        DEBIAN_FRONTEND=noninteractive apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    fi
    if ! cargo pgrx --version 2>/dev/null | grep -q "$PGRX_VERSION"; then
        log "installing cargo-pgrx $PGRX_VERSION (takes about 9 minutes)"
        cargo install --locked cargo-pgrx --version "$PGRX_VERSION"
    fi
    if ! grep -qs "pg15 = \"$PG_CONFIG\"" "$HOME/.pgrx/config.toml"; then
        log "cargo pgrx init --pg15"
        cargo pgrx init --pg15 "$PG_CONFIG" >/dev/null
    fi
}

# The version in Cargo.toml: both extensions carry it.
extension_version() {
    sed -n 's/^version = "\(.*\)"$/\1/p' "$REPO_ROOT/Cargo.toml" | head -n 1
}

# Installs the Random Chess schema's extension files into PostgreSQL's extension directory (or
# the directory given): its install script is the files of sql/random_chess/ in the order of their
# numbers; its update scripts are sql/pg_rating_random_chess--*.
install_random_chess() {
    local dir version
    dir=${1:-$("$PG_CONFIG" --sharedir)/extension}
    version=$(extension_version)
    sed "s/@CARGO_VERSION@/$version/" "$REPO_ROOT/sql/random_chess/pg_rating_random_chess.control" > "$dir/pg_rating_random_chess.control"
    cat "$REPO_ROOT"/sql/random_chess/[0-9]*.sql > "$dir/pg_rating_random_chess--$version.sql"
    cp "$REPO_ROOT"/sql/pg_rating_random_chess--*.sql "$dir/"
}

# Builds and installs both extensions into PostgreSQL 15's directories (caller holds PG_LOCK).
install_extension() {
    log "cargo pgrx install $*"
    (cd "$REPO_ROOT" && cargo pgrx install --pg-config "$PG_CONFIG" "$@") && install_random_chess
}

# Starts a throwaway cluster as the postgres OS user on a private socket directory and
# exports PGHOST/PGPORT/PGUSER for it (CLUSTER_OPTIONS adds server settings, `-c name=value ...`;
# CLUSTER_ENV environment variables of the server, `NAME=value ...`).
# cluster_stop removes it again.
cluster_start() {
    CLUSTER_DIR=$(mktemp -d /tmp/pg_rating_cluster.XXXXXX)
    chown postgres: "$CLUSTER_DIR"
    export PGHOST=$CLUSTER_DIR PGPORT=$((20000 + RANDOM % 30000)) PGUSER=postgres
    runuser -u postgres -- "$PG_BIN/initdb" -D "$CLUSTER_DIR/data" -A trust -U postgres \
        --no-sync -E UTF8 --locale=C >/dev/null
    # The server runs without RUST_BACKTRACE, as in production: errors carry no Rust backtrace.
    runuser -u postgres -- env -u RUST_BACKTRACE -u RUST_LIB_BACKTRACE ${CLUSTER_ENV:-} \
        "$PG_BIN/pg_ctl" -D "$CLUSTER_DIR/data" -l "$CLUSTER_DIR/server.log" -w \
        -o "-k $CLUSTER_DIR -p $PGPORT -c listen_addresses='' -c fsync=off -c max_connections=50 ${CLUSTER_OPTIONS:-}" \
        start >/dev/null
}

# cluster_start for a benchmark: the server loads pg_rating at its start (shared_preload_libraries), so
# every backend runs the build installed before it, even when another worker installs its own build
# into the same library directory after the benchmark released PG_LOCK.
bench_cluster_start() {
    CLUSTER_OPTIONS="${CLUSTER_OPTIONS:-} -c shared_preload_libraries=pg_rating" cluster_start
}

cluster_stop() {
    [[ -n "${CLUSTER_DIR:-}" && -d "$CLUSTER_DIR" ]] || return 0
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$CLUSTER_DIR/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$CLUSTER_DIR"
    CLUSTER_DIR=
}

# A fresh database with the engine and the Random Chess schema created; prints nothing on success.
fresh_database() {
    local db=$1
    psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null
    psql -X -q -d "$db" -c "CREATE EXTENSION pg_rating_random_chess CASCADE" >/dev/null
}

# For a bench of this tree against an earlier commit: checks the commit out in a git worktree and
# sets AGAINST_WORK (a scratch directory readable by postgres, holding the worktree), AGAINST_TREE
# and AGAINST_TARGET (the commit's cargo target directory, kept in target/against-<commit> for the
# next run). against_cleanup removes the worktree and the scratch directory.
against_worktree() {
    AGAINST_WORK=$(mktemp -d /tmp/pg_rating_against.XXXXXX)
    AGAINST_TREE="$AGAINST_WORK/tree"
    chmod 755 "$AGAINST_WORK"   # the cluster's tools run as postgres from the old tree
    AGAINST_TARGET="$REPO_ROOT/target/against-$(git -C "$REPO_ROOT" rev-parse --short "$1")"
    git -C "$REPO_ROOT" worktree add --detach "$AGAINST_TREE" "$1" >/dev/null 2>&1
}

# The start of a bench against an earlier commit: the set-up checked, a log directory for this run
# in AGAINST_LOGS (target/<name>/<time>), the commit's worktree (against_worktree), removed on exit.
#   against_start <name> <commit>
against_start() {
    ensure_setup
    AGAINST_LOGS="$REPO_ROOT/target/$1/$(date +%Y%m%d-%H%M%S)"
    mkdir -p "$AGAINST_LOGS"
    trap against_cleanup EXIT
    against_worktree "$2"
}

against_cleanup() {
    [[ -n "${AGAINST_WORK:-}" ]] || return 0
    git -C "$REPO_ROOT" worktree remove --force "$AGAINST_TREE" >/dev/null 2>&1 || true
    rm -rf "$AGAINST_WORK"
}

# Runs one side of a comparison: `against_bench <side> <run> <script> [args...] -- <sed -n expression>...`.
# "ours" runs this tree's script; "theirs" runs it on the other commit's extension (BENCH_TREE and its
# build), or the other tree's own copy of the script with AGAINST_OWN_SCRIPT=1 (for a script older
# than BENCH_TREE). The output goes to $AGAINST_LOGS/<side>.<run>.log; prints the figures the sed
# expressions pick from it, on one line, or stops with the log's tail when the run fails or a figure
# is missing. Variables set before the call (LEDGERS_UPTO=1 against_bench ...) reach the script.
against_bench() {
    local side=$1 run=$2 script=$3
    shift 3
    local args=()
    while [[ $# -gt 0 && $1 != -- ]]; do args+=("$1"); shift; done
    shift
    local log="$AGAINST_LOGS/$side.$run.log" status=0
    if [[ $side == ours ]]; then
        "$script" "${args[@]}" >"$log" 2>&1 || status=$?
    elif [[ ${AGAINST_OWN_SCRIPT:-0} == 1 ]]; then
        CARGO_TARGET_DIR=$AGAINST_TARGET "$AGAINST_TREE/$script" "${args[@]}" >"$log" 2>&1 || status=$?
    else
        BENCH_TREE=$AGAINST_TREE CARGO_TARGET_DIR=$AGAINST_TARGET "$script" "${args[@]}" >"$log" 2>&1 || status=$?
    fi
    if [[ $status -ne 0 ]]; then
        echo "$script of $side failed:" >&2
        tail -20 "$log" >&2
        exit 1
    fi
    local figures=() figure expr
    for expr in "$@"; do
        figure=$(sed -n "$expr" "$log")
        if [[ -z $figure ]]; then
            echo "no figure ($expr) in the bench of $side:" >&2
            tail -20 "$log" >&2
            exit 1
        fi
        figures+=("$figure")
    done
    echo "${figures[*]}"
}

# The median of the numbers given.
median_of() {
    printf '%s\n' "$@" | sort -n | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
