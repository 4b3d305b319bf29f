#!/usr/bin/env bash
# How the generic ledgers would carry the Random Chess rankings (issue #12, item 1), on a throwaway
# cluster with a release build:
#   bench/rankings_as_ledgers.sh [games]      (default 10000; about 2 minutes)
# Two databases with the app's nine rankings and 1,000 players (bench/rankings/setup.sql): one rates
# games with the rankings' own trigger, the other with nine ledgers attached to service_games, one
# per ranking (its window and bots as the attachment's filter; the score from a generated column,
# as the games table has no score column), the rankings' trigger disabled. The same `games` games
# are inserted one statement each into both after 2,000 first games; prints games/s of each, the
# ratio, and whether every player's final rating in every ranking is the same in both (to 6
# decimals).
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$REPO_ROOT"
games=${1:-10000}

exec 9>"$PG_LOCK"
flock 9
install_extension --release >/dev/null 2>&1 || { echo "cargo pgrx install --release failed" >&2; exit 1; }
CLUSTER_OPTIONS="-c shared_buffers=1GB -c autovacuum=off" bench_cluster_start
trap cluster_stop EXIT
flock -u 9

ms() { psql -X -q -v ON_ERROR_STOP=1 -d "$1" -c '\timing on' -c "$2" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1; }
for db in rankings ledgers; do
    psql -X -q -d postgres -c "CREATE DATABASE $db"
    psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION pg_rating_random_chess CASCADE" \
        -f bench/rankings/setup.sql >/dev/null 2>&1
done
psql -X -q -v ON_ERROR_STOP=1 -d ledgers -c "ALTER TABLE service_games DISABLE TRIGGER rate_service_games" \
    -f bench/rankings/as_ledgers.sql >/dev/null

echo "$games ranked games, one INSERT each, after 2,000 games"
for db in rankings ledgers; do
    psql -X -q -d "$db" -c "CALL bench_insert(1, 2000)"
    t=$(ms "$db" "CALL bench_insert(2001, $((2000 + games)))")
    declare "rate_$db=$(awk -v n="$games" -v t="$t" 'BEGIN { printf "%.0f", n / (t / 1000) }')"
done
echo "the rankings' trigger: $rate_rankings games/s; nine ledgers: $rate_ledgers games/s" \
     "($(awk -v a="$rate_ledgers" -v b="$rate_rankings" 'BEGIN { printf "%.2f", a / b }') of the rankings' rate)"
ours=$(psql -X -At -d rankings -c "SELECT string_agg(format('%s %s %s', ranking_id, user_id_in_service, round(rating, 6)), ','
                                          ORDER BY ranking_id, user_id_in_service) FROM ranking_players")
theirs=$(psql -X -At -d ledgers -c "SELECT string_agg(format('%s %s %s', substr(l.name, 9), s.player, round(s.rating::numeric, 6)), ','
                                           ORDER BY substr(l.name, 9)::int, s.player)
                                    FROM ledger_standings s JOIN ledgers l ON l.id = s.ledger_id")
echo "every final rating the same in both: $([[ $ours == "$theirs" ]] && echo yes || echo NO)"
