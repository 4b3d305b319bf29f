# Shared by the writer-lock tests (*_locks.sh); sourced (the harness runs only executable files
# here). The caller sets `db`.
q() { psql -X -q -v ON_ERROR_STOP=1 -At -d "$db" "$@"; }
fail() { echo "FAILED: $*" >&2; exit 1; }

# Runs SQL in a transaction that stays open for $1 seconds after it, in the background.
hold() { psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "BEGIN" -c "$2" -c "SELECT pg_sleep($1)" -c "COMMIT" >/dev/null & }

# The SQLSTATE of SQL run with lock_timeout $1 ('' when it succeeds).
state_with_timeout() {
    psql -X -q -d "$db" -v VERBOSITY=sqlstate -c "SET lock_timeout = '$1'" -c "$2" 2>&1 >/dev/null \
        | sed -n 's/^ERROR:  \([0-9A-Z]\{5\}\).*/\1/p' || true
}

# Fails unless $2 gets 40001 in a REPEATABLE READ transaction whose snapshot was taken before
# another session ran $1 (one line of SQL) and committed.
serialization_failure_after() {
    local out
    out=$(psql -X -q -d "$db" -v VERBOSITY=sqlstate 2>&1 <<SQL || true
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT 1;
\! psql -X -q -d $db -c "$1"
$2
COMMIT;
SQL
)
    grep -q "ERROR:  40001" <<<"$out" || fail "no serialization failure: $out"
    echo "   40001"
}

# Fails with "$1: $4" unless what $2 (a function printing the derived rows) prints is the same
# after $3 (SQL that rebuilds them) as before: the rows a writer left are what a rebuild makes.
unchanged_by_rebuild() {
    local before after
    before=$($2)
    q -c "$3" >/dev/null
    after=$($2)
    [[ $before == "$after" ]] || fail "$1: $4"
}
