#!/usr/bin/env bash
# ledger_what_if's replays can be cancelled: 100 replays of a Glicko-2 ledger of 40,000 games under
# statement_timeout = 300ms end with SQLSTATE 57014 while the replays run (the core's replay checks for
# interrupts before each game), not after them. Run as the application's role (not a superuser) that
# owns the ledger. "While they run": the cancelled call ends in less than half the time the whole
# work would take, estimated in the same run from calls of 1 and 11 replays (a generous bound, printed;
# the replays of 0.12.0 ran to their end and were cancelled after them).
set -euo pipefail
psql() { command psql -X -q -v ON_ERROR_STOP=1 "$@"; }
now() { date +%s.%N; }

psql <<'SQL'
CREATE ROLE regress_cancel_app;
GRANT SELECT, INSERT, UPDATE, DELETE ON ledgers, ledger_seeds, ledger_seasons TO regress_cancel_app;
GRANT USAGE ON SEQUENCE ledgers_id_seq TO regress_cancel_app;
GRANT SELECT ON ledgers, ledger_entries, ledger_standings, ledger_seasons TO regress_cancel_app;
GRANT CREATE ON SCHEMA public TO regress_cancel_app;
SET ROLE regress_cancel_app;
CREATE TABLE cancel_games (id int PRIMARY KEY, played_at timestamptz NOT NULL, white text, black text,
                           score float8);
-- 40,000 games among 500 players, fixed pseudo-random pairings and results
INSERT INTO cancel_games
SELECT i, timestamptz '2025-01-01' + i * interval '1 minute', 'p' || (i * 7919 % 500),
       'p' || ((i * 7919 % 500 + 1 + i * 104729 % 499) % 500), (i * 31 % 3) / 2.0
FROM generate_series(1::bigint, 40000) AS i;
INSERT INTO ledgers (name, rating_system) VALUES ('cancel', 'glicko2');
SELECT ledger_attach('cancel', 'cancel_games', 'id', 'played_at', 'white', 'black', 'score') AS entries;
SQL
cleanup() {
    psql -c "DELETE FROM ledgers WHERE name = 'cancel'" -c "DROP TABLE IF EXISTS cancel_games" \
        -c "REVOKE ALL ON ledgers, ledger_seeds, ledger_seasons, ledger_entries, ledger_standings FROM regress_cancel_app" \
        -c "REVOKE ALL ON SEQUENCE ledgers_id_seq FROM regress_cancel_app" \
        -c "REVOKE CREATE ON SCHEMA public FROM regress_cancel_app" -c "DROP ROLE regress_cancel_app" >/dev/null
}
trap cleanup EXIT

# the time of a call of n replays (the ledger's own setting and n - 1 taus), uncancelled
timed() {
    local start
    start=$(now)
    psql -At -c "SET ROLE regress_cancel_app" \
        -c "SELECT count(*) FROM ledger_what_if('cancel', NULL, array_fill(0.5::float8, ARRAY[$1 - 1]))" >/dev/null
    echo "$(now) - $start" | bc
}
one=$(timed 1)
eleven=$(timed 11)
replay=$(echo "($eleven - $one) / 10" | bc -l)
whole=$(echo "$one + 99 * $replay" | bc -l)
printf 'one call of 1 replay: %.2fs, of 11: %.2fs; a replay %.3fs; 100 replays would take about %.1fs\n' \
    "$one" "$eleven" "$replay" "$whole"

start=$(now)
out=$(printf '%s\n' "SET ROLE regress_cancel_app;" "SET statement_timeout = '300ms';" \
        "SELECT count(*) FROM ledger_what_if('cancel', NULL, array_fill(0.5::float8, ARRAY[99]));" \
    | command psql -X -q -At -v VERBOSITY=sqlstate 2>&1 || true)
cancelled=$(echo "$(now) - $start" | bc)
printf '100 replays under statement_timeout = 300ms: %s after %.2fs\n' "$out" "$cancelled"
[[ "$out" == *57014* ]] || { echo "expected SQLSTATE 57014 (statement timeout)"; exit 1; }
if (($(echo "$cancelled * 2 > $whole" | bc -l))); then
    echo "cancelled only after half of the whole work: the replays do not check for interrupts"
    exit 1
fi
[[ "$(psql -At -c "SELECT 1")" == 1 ]] || { echo "the server does not answer"; exit 1; }
echo "cancelled while replaying, and the server answers"
