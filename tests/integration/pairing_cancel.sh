#!/usr/bin/env bash
# A long pairing can be cancelled: round 2 of a 1,000-player tournament (brackets of hundreds of
# players: seconds of work in a debug build, about one in a release build) under statement_timeout =
# 200ms ends with SQLSTATE 57014 (the matching checks for interrupts between its stages), and the
# session goes on working.
set -euo pipefail
work=$(mktemp -d /tmp/pg_rating_cancel.XXXXXX)
trap 'rm -rf "$work"' EXIT
# round 1 as the Dutch system pairs it (1-501, 502-2, ...), with fixed pseudo-random results
python3 - "$work/round1.trf" <<'PY'
import random, sys
rng = random.Random(2026)
n = 1000
lines = []
for p in range(1, n + 1):
    if p <= n // 2:
        opp, colour = p + n // 2, "w" if p % 2 else "b"
    else:
        opp, colour = p - n // 2, "b" if (p - n // 2) % 2 else "w"
    lines.append([p, opp, colour])
results = {}
for p in range(1, n // 2 + 1):
    r = rng.choice(["1", "0", "="])
    results[p] = r
    results[p + n // 2] = {"1": "0", "0": "1", "=": "="}[r]
with open(sys.argv[1], "w") as f:
    for p, opp, colour in lines:
        head = "001 %4d %1s%3s %-33s %4d" % (p, "", "", "Player %04d" % p, 2700 - p)
        f.write(head.ljust(91) + "%4d %s %s\n" % (opp, colour, results[p]))
    f.write("XXR 9\n")
PY
out=$(printf '%s\n' "\\set trf \`cat $work/round1.trf\`" "SET statement_timeout = '200ms';" \
        "SELECT count(*) FROM tournament_pairings_from_trf(:'trf');" \
    | psql -X -q -At -v VERBOSITY=sqlstate 2>&1 || true)
echo "round 2 of 1,000 players under statement_timeout = 200ms: $out"
[[ "$out" == *57014* ]] || { echo "expected SQLSTATE 57014 (statement timeout)"; exit 1; }
[[ "$(psql -X -At -c "SELECT 1")" == 1 ]] || { echo "the server does not answer"; exit 1; }
echo "cancelled, and the server answers"
