#!/usr/bin/env bash
# A streaming replica of the test cluster (pg_basebackup -R, a second server on a private socket
# of this machine) answers every read function and view as the primary does, also after changes
# on the primary; the functions that write are refused there with 25006, never XX000.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/restore_check.sh"
PG_BIN=/usr/lib/postgresql/15/bin
rankings_db=$PGDATABASE
tournaments_db=${PGDATABASE}_tournaments
replica=$(mktemp -d /tmp/pg_rating_replica.XXXXXX)
chown postgres: "$replica"
replica_port=$((PGPORT == 65535 ? PGPORT - 1 : PGPORT + 1))

stop_replica() {
    runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$replica/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$replica"
    psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $tournaments_db" >/dev/null 2>&1 || true
}
trap stop_replica EXIT

q -d "$rankings_db" -f "$here/sample_rankings.sql"
# a ledger on an application's own table
q -d "$rankings_db" <<'SQL'
CREATE TABLE matches (id bigint PRIMARY KEY, played_at timestamptz NOT NULL, white int, black int, score float8);
INSERT INTO matches SELECT i, timestamptz '2024-01-01' + i * interval '1 hour', 1 + i % 5, 1 + (i + 1 + i % 3) % 5,
                           (ARRAY[1, 0, 0.5])[1 + i % 3] FROM generate_series(1, 40) i;
INSERT INTO ledgers (name, rating_system, rating_period) VALUES ('club', 'glicko2', '7 days');
SELECT ledger_attach('club', 'matches', 'id', 'played_at', 'white', 'black', 'score');
SQL
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $tournaments_db" -c "CREATE DATABASE $tournaments_db"
q -d "$tournaments_db" -c "CREATE EXTENSION pg_rating_random_chess CASCADE" -f "$here/sample_tournaments.sql"

runuser -u postgres -- timeout 120 "$PG_BIN/pg_basebackup" -h "$PGHOST" -p "$PGPORT" -U postgres \
    -D "$replica/data" -R -X stream -c fast --no-sync
runuser -u postgres -- env -u RUST_BACKTRACE -u RUST_LIB_BACKTRACE "$PG_BIN/pg_ctl" -D "$replica/data" \
    -l "$replica/server.log" -w -t 60 \
    -o "-k $replica -p $replica_port -c listen_addresses='' -c hot_standby=on -c fsync=off" start >/dev/null
on_replica() { PGHOST=$replica PGPORT=$replica_port "$@"; }
[[ $(on_replica q -d "$rankings_db" -c "SELECT pg_is_in_recovery()") == t ]] || { echo "not a standby"; exit 1; }

# Waits (at most 60 s) until the replica has replayed everything the primary wrote so far.
caught_up() {
    local lsn i
    lsn=$(q -d postgres -c "SELECT pg_current_wal_lsn()")
    for i in $(seq 600); do
        [[ $(on_replica q -d postgres -c "SELECT pg_last_wal_replay_lsn() >= '$lsn'") == t ]] && return 0
        sleep 0.1
    done
    echo "the replica did not catch up with $lsn in 60 s"; exit 1
}

# The same reads on both servers give the same rows.
same_reads() {
    local db=$1 file=$2 when=$3 primary standby
    primary=$(q -d "$db" -f "$here/standby/$file")
    standby=$(on_replica q -d "$db" -f "$here/standby/$file")
    if [[ "$primary" != "$standby" ]]; then
        echo "$file $when: the standby answers differently (< primary, > standby)"
        diff <(echo "$primary") <(echo "$standby") | head -40
        exit 1
    fi
    echo "$file $when: $(echo "$primary" | wc -l) lines, the same on the standby"
}

caught_up
same_reads "$rankings_db" reads_rankings.sql "after the initial load"
same_reads "$tournaments_db" reads_tournaments.sql "after the initial load"

# Writes on the standby: each statement is refused with 25006.
refused=$(on_replica psql -X -q -d "$rankings_db" -f "$here/standby/writes.sql" 2>&1 | grep -c '^psql:.*ERROR:  25006$' || true)
statements=$(grep -c '^[A-Z]' "$here/standby/writes.sql" | awk '{print $1 - 1}')
if [[ "$refused" != "$statements" ]]; then
    echo "writes on the standby: $refused of $statements refused with 25006:"
    on_replica psql -X -q -d "$rankings_db" -f "$here/standby/writes.sql" 2>&1 | head -20
    exit 1
fi
echo "writes on the standby: all $statements refused with 25006"

# Changes on the primary reach the standby's reads.
q -d "$rankings_db" <<'SQL'
INSERT INTO matches VALUES (100, '2024-01-01 02:30', 1, 2, 1);
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{e2e4}', '2024-01-01 03:30', '(0-1,RESIGNATION)', '(5 minutes, 0)', 1, '1', '2', true),
       ('{e2e4}', '2024-06-01', '(1-0,TIMEOUT)', '(5 minutes, 0)', 1, '3', '4', true);
SQL
q -d "$tournaments_db" <<'SQL'
WITH g AS (
    INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
    VALUES ('{e2e4}', '2024-06-01', '(1-0,TIMEOUT)', '(5 minutes, 0)', 1, '2', '3', true) RETURNING id)
INSERT INTO tournaments_games SELECT 2, id, 2 FROM g;
INSERT INTO byes VALUES (2, 2, '1');
SQL
caught_up
same_reads "$rankings_db" reads_rankings.sql "after games on the primary"
same_reads "$tournaments_db" reads_tournaments.sql "after games on the primary"
