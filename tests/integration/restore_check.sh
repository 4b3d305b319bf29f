# Shared by the dump-and-restore tests; sourced (the harness runs only executable files here).
# The caller sets `tables` (the tables to compare) and may define `fingerprint_extra DB` for more.
q() { psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }

# One line per table: its row count and an md5 of its rows in a fixed order.
fingerprint() {
    local db=$1 t
    for t in $tables; do
        printf '%s %s\n' "$t" "$(q -d "$db" -c "SELECT count(*) || ' ' || coalesce(md5(string_agg(x::text, '|' ORDER BY x::text)), '-') FROM $t x")"
    done
    if declare -F fingerprint_extra >/dev/null; then fingerprint_extra "$db"; fi
}

# Fails unless both databases hold the same rows; `what` says when the comparison is made.
same_or_fail() {
    local src=$1 dst=$2 what=$3 before after
    before=$(fingerprint "$src")
    after=$(fingerprint "$dst")
    if [[ "$before" != "$after" ]]; then
        echo "$what:"; diff <(echo "$before") <(echo "$after") || true
        exit 1
    fi
}

# pg_dump of `src`, restored into a new database `dst`; then both must hold the same rows.
dump_and_restore() {
    local src=$1 dst=$2 dump
    dump=$(mktemp /tmp/pg_rating_dump.XXXXXX)
    pg_dump -Fc -d "$src" -f "$dump"
    psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $dst" -c "CREATE DATABASE $dst"
    pg_restore --exit-on-error -d "$dst" "$dump"
    rm -f "$dump"
    fingerprint "$src"
    same_or_fail "$src" "$dst" "restored tables differ"
}

# Runs the same SQL in both databases; they must still hold the same rows.
same_after() {
    local src=$1 dst=$2 sql=$3
    q -d "$src" -c "$sql"
    q -d "$dst" -c "$sql"
    same_or_fail "$src" "$dst" "databases diverge after the restore"
}
