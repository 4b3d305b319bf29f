#!/usr/bin/env bash
# Each example of examples/<system>/example.sql (one per seed system) runs on a fresh database:
# it creates that system's own tables, attaches ledgers, loads games and checks the document's
# worked numbers with ASSERTs; any failed check or error fails the test.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
for example in "$here"/../../examples/*/example.sql; do
    name=$(basename "$(dirname "$example")")
    db=${PGDATABASE}_example
    psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $db" -c "CREATE DATABASE $db" >/dev/null
    psql -X -q -d "$db" -c "CREATE EXTENSION pg_rating" >/dev/null
    if ! out=$(psql -X -q -v ON_ERROR_STOP=1 -d "$db" -f "$example" 2>&1); then
        echo "example $name failed:"; echo "$out" | tail -20; exit 1
    fi
    echo "example $name: every check holds; its last result:"
    echo "$out" | tail -8
    psql -X -q -d postgres -c "DROP DATABASE $db" >/dev/null
done
