#!/usr/bin/env bash
# Builds pg_rating (release) and installs both of its extensions into PostgreSQL 15's
# directories: pg_rating (the engine) and pg_rating_random_chess (the Random Chess schema).
# Sets up what the build needs first (Debian packages, cargo-pgrx), as scripts/test.sh does.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_setup
exec 9>"$PG_LOCK"
flock 9
install_extension --release
log "installed pg_rating $(extension_version) and pg_rating_random_chess $(extension_version)"
