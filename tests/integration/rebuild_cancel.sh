#!/usr/bin/env bash
# A ledger_rebuild that checks its rows (the replay on a thread apart while the stored rows are read,
# src/apart.rs) can be cancelled at any point: an Elo ledger of 200,000 games rebuilt under sixteen
# statement_timeouts from a tenth of a whole rebuild to 1.6 times it (measured in the same run) ends each time
# either done or with SQLSTATE 57014, never another error; the server answers after each; the rows
# are those of before, row for row; and a last rebuild finds them unchanged. The timeouts only choose
# where the cancel falls: nothing here depends on how fast the machine is.
set -euo pipefail
# (a backend that never ends a rebuild fails the test instead of hanging it)
psql() { timeout 300 psql -X -q -v ON_ERROR_STOP=1 "$@"; }

psql <<'SQL'
CREATE TABLE cancel_games (id int PRIMARY KEY, played_at timestamptz NOT NULL, white text, black text,
                           score float8);
-- 200,000 games among 5,000 players, fixed pseudo-random pairings and results
INSERT INTO cancel_games
SELECT i, timestamptz '2025-01-01' + i * interval '1 minute', 'p' || (i * 7919 % 5000),
       'p' || ((i * 7919 % 5000 + 1 + i * 104729 % 4999) % 5000), (i * 31 % 3) / 2.0
FROM generate_series(1::bigint, 200000) AS i;
INSERT INTO ledgers (name) VALUES ('cancel');
SELECT ledger_attach('cancel', 'cancel_games', 'id', 'played_at', 'white', 'black', 'score') AS entries;
CREATE TABLE entries_before AS
    SELECT e.* FROM ledger_entries e JOIN ledgers l ON l.id = e.ledger_id WHERE l.name = 'cancel';
CREATE TABLE standings_before AS
    SELECT s.* FROM ledger_standings s JOIN ledgers l ON l.id = s.ledger_id WHERE l.name = 'cancel';
VACUUM ANALYZE ledger_entries, ledger_standings;
SQL
cleanup() {
    psql -c "DELETE FROM ledgers WHERE name = 'cancel'" \
        -c "DROP TABLE IF EXISTS cancel_games, entries_before, standings_before" >/dev/null
}
trap cleanup EXIT

start=$(date +%s%N)
psql -c "SELECT ledger_rebuild('cancel')" >/dev/null
whole=$((($(date +%s%N) - start) / 1000000))
echo "a whole rebuild: ${whole} ms"

# (the server's log, scripts/lib.sh's cluster_start: a crashed backend restarts the server, which then
# answers again)
server_log="$PGHOST/server.log"
[[ -r "$server_log" ]] || { echo "no server log at $server_log"; exit 1; }
logged=$(wc -l <"$server_log")
cancelled=0
for i in $(seq 1 16); do
    # (a tenth of a whole rebuild to 1.6 of it: the last ones may end before their timeout)
    timeout=$((whole * i / 10 + 1))
    out=$(printf '%s\n' "SET statement_timeout = ${timeout};" "SELECT ledger_rebuild('cancel');" \
        | timeout 300 psql -X -q -At -v VERBOSITY=sqlstate 2>&1 || true)
    case "$out" in
        400000) echo "statement_timeout = ${timeout} ms: done" ;;
        "ERROR:  57014") echo "statement_timeout = ${timeout} ms: cancelled"; cancelled=$((cancelled + 1)) ;;
        *) echo "statement_timeout = ${timeout} ms: unexpected: $out"; exit 1 ;;
    esac
    [[ "$(psql -At -c "SELECT 1")" == 1 ]] || { echo "the server does not answer"; exit 1; }
    crashed=$(tail -n +"$((logged + 1))" "$server_log" | grep -c "terminated by signal" || true)
    [[ "$crashed" == 0 ]] || { echo "a backend crashed"; exit 1; }
done
((cancelled > 0)) || { echo "no rebuild was cancelled: the sweep tested nothing"; exit 1; }

differ=$(psql -At <<'SQL'
WITH now_entries AS (
    SELECT e.* FROM ledger_entries e JOIN ledgers l ON l.id = e.ledger_id WHERE l.name = 'cancel'
), now_standings AS (
    SELECT s.* FROM ledger_standings s JOIN ledgers l ON l.id = s.ledger_id WHERE l.name = 'cancel'
)
SELECT (SELECT count(*) FROM (TABLE now_entries EXCEPT ALL TABLE entries_before) d)
     + (SELECT count(*) FROM (TABLE entries_before EXCEPT ALL TABLE now_entries) d)
     + (SELECT count(*) FROM (TABLE now_standings EXCEPT ALL TABLE standings_before) d)
     + (SELECT count(*) FROM (TABLE standings_before EXCEPT ALL TABLE now_standings) d);
SQL
)
[[ "$differ" == 0 ]] || { echo "$differ rows differ from those before the cancelled rebuilds"; exit 1; }
kept=$(PGOPTIONS="-c client_min_messages=debug1" psql -At -c "SELECT ledger_rebuild('cancel')" 2>&1 \
    | grep -c "entries 400000 kept, 0 deleted, 0 inserted" || true)
[[ "$kept" == 1 ]] || { echo "the last rebuild did not find the rows unchanged"; exit 1; }
echo "$cancelled of 16 rebuilds cancelled; the rows are those of before, and the server answers"
