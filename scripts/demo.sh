#!/usr/bin/env bash
# The pg_rating demo, end to end: sets up the machine if needed, builds and installs the
# extension (release build), starts a throwaway cluster as the postgres OS user, runs the
# walk-through in scripts/demo/*.sql in order, and removes the cluster again.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$REPO_ROOT"

ensure_setup
exec 9>"$PG_LOCK"
flock 9
install_extension --release
cluster_start
trap cluster_stop EXIT
flock -u 9
psql -X -q -d postgres -c "CREATE DATABASE demo" >/dev/null
export PGDATABASE=demo
for part in scripts/demo/*.sql; do
    printf '\n######## %s\n' "$(head -n 1 "$part" | sed 's/^-- *//')"
    psql -X -q -v ON_ERROR_STOP=1 -P pager=off --echo-queries -f "$part"
done
printf '\n######## demo finished; the throwaway cluster is removed\n'
