#!/usr/bin/env bash
# No Rust backtrace reaches a client (issue 35): on a server started with RUST_BACKTRACE=1 (which
# makes pgrx capture one with every error it catches), errors raised inside the Rust code (a
# PostgreSQL error caught around SPI, a refusal of the glue) carry no backtrace in DETAIL. Also
# checks the messages of filters: one that is no expression, one PostgreSQL cannot read.
set -euo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
CLUSTER_ENV="RUST_BACKTRACE=1 RUST_LIB_BACKTRACE=1" cluster_start
trap cluster_stop EXIT
q() { psql -X -q -v VERBOSITY=verbose -d postgres "$@" 2>&1 || true; }
psql -X -q -d postgres -c "CREATE EXTENSION pg_rating_random_chess CASCADE" >/dev/null
grep -q RUST_BACKTRACE=1 "/proc/$(head -n 1 "$CLUSTER_DIR/data/postmaster.pid")/environ" || {
    echo "the server was not started with RUST_BACKTRACE=1"; exit 1; }
out=$(q <<'SQL'
CREATE TABLE g (id int PRIMARY KEY, at date NOT NULL, w text, b text, s float8);
INSERT INTO ledgers (name) VALUES ('x');
SELECT ledger_attach('x', 'g', 'id', 'at', 'w', 'b', 's', filter => 'w = ');
SELECT ledger_attach('x', 'g', 'id', 'at', 'w', 'b', 's', filter => 'no_such_column');
-- a filter that fails on a row: PostgreSQL's error, raised inside the trigger's SPI read
SELECT ledger_attach('x', 'g', 'id', 'at', 'w', 'b', 's', filter => '1 / (id - id) = 1');
INSERT INTO g VALUES (1, '2025-01-01', 'a', 'b', 1);
SELECT ledger_detach('x');
SELECT ledger_attach('x', 'g', 'id', 'at', 'w', 'b', 's');
-- a refusal of the glue, from a trigger
INSERT INTO g VALUES (2, '2025-01-01', 'a', 'a', 1);
-- and of a plain function
SELECT moves_to_san('not a fen', '{e2e4}');
SQL
)
echo "$out"
errors=$(grep -c '^ERROR:' <<<"$out" || true)
[[ $errors -ge 5 ]] || { echo "expected at least 5 errors, got $errors"; exit 1; }
# a backtrace's frames: `  12: pgrx_pg_sys::...` and `             at /path/src/x.rs:1:2`
if grep -Eiq 'backtrace|^ +[0-9]+: [a-z_<]|^ +at /|pgrx_pg_sys::' <<<"$out"; then
    echo "FAILED: a Rust backtrace reached the client"; exit 1
fi
# a filter that is no expression is refused as such; one PostgreSQL cannot read gets the hint
grep -q "^ERROR:  42601: filter must be one boolean SQL expression over the games table's columns, not \"w = \"" \
    <<<"$out" || { echo "FAILED: the filter that is no expression is not refused as such"; exit 1; }
grep -q "^HINT:  the games table is read with filter => 'no_such_column'" <<<"$out" || {
    echo "FAILED: no hint naming the filter"; exit 1; }
echo "no backtrace in $errors errors on a server with RUST_BACKTRACE=1; the filter's message and hint are there"
