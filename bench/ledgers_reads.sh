#!/usr/bin/env bash
# Benchmark of one player's reads in a large ledger, on a throwaway cluster with a release build:
#   bench/ledgers_reads.sh [games] [players]      (default 1000000 games among 10000 players)
# An Elo ledger on the plain `matches` table of bench/ledgers/setup.sql, `games` games among
# `players` players (so each has about 2 * games / players games). Each read is the median of runs
# 2-6 in one session (ms), beside the plain read of the same rows from the ledger's tables (the
# primary key's probe): one player's last 50 games, one player's standing, and 100 users of an
# application's table joined to their standings; then the ratio of each to its plain read.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$REPO_ROOT"
games=${1:-1000000}
players=${2:-10000}
block=100000

exec 9>"$PG_LOCK"
flock 9
install_extension --release >/dev/null 2>&1 || { echo "cargo pgrx install --release failed" >&2; exit 1; }
CLUSTER_OPTIONS="-c shared_buffers=1GB -c autovacuum=off -c max_wal_size=8GB -c checkpoint_timeout=30min" bench_cluster_start
trap cluster_stop EXIT
flock -u 9

ms() { psql -X -q -v ON_ERROR_STOP=1 -d reads -c '\timing on' -c "$1" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1; }
# a read run 6 times in one session (as a pooled connection does): the median of the last 5
median() {
    psql -X -q -v ON_ERROR_STOP=1 -d reads -c '\timing on' -c "$1" -c "$1" -c "$1" -c "$1" -c "$1" -c "$1" \
        | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -n 5 | sort -g | sed -n 3p
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }

psql -X -q -d postgres -c "CREATE DATABASE reads"
psql -X -q -v ON_ERROR_STOP=1 -d reads -c "CREATE EXTENSION pg_rating" -f bench/ledgers/setup.sql >/dev/null
psql -X -q -v ON_ERROR_STOP=1 -d reads <<SQL >/dev/null
CREATE FUNCTION reads_match(n bigint, OUT white bigint, OUT black bigint, OUT score float8, OUT at timestamptz)
LANGUAGE sql IMMUTABLE AS \$\$
SELECT 1 + (n * 7919) % $players, 1 + ((n * 7919) % $players + 1 + (n * 104729) % ($players - 1)) % $players,
       (ARRAY[1, 0, 0.5])[1 + n % 3]::float8, timestamptz '2020-01-01' + n * interval '10 seconds'
\$\$;
INSERT INTO ledgers (name, rating_system, starting_rating, k_factor) VALUES ('elo', 'elo', 1500, 20);
SELECT ledger_attach('elo', 'matches', 'id', 'played_at', 'white', 'black', 'score');
CREATE TABLE users (id bigint PRIMARY KEY, name text NOT NULL);
INSERT INTO users SELECT i, 'user ' || i FROM generate_series(1, $players) i;
SQL

start=$(date +%s)
for ((a = 1; a <= games; a += block)); do
    b=$((a + block - 1 < games ? a + block - 1 : games))
    ms "INSERT INTO matches (id, played_at, white, black, score)
        SELECT n, m.at, m.white, m.black, m.score FROM generate_series($a, $b) n, reads_match(n) m" >/dev/null
done
psql -X -q -d reads -c "VACUUM ANALYZE"
entries=$(psql -X -At -d reads -c "SELECT count(*) FROM ledger_entries")
of_4242=$(psql -X -At -d reads -c "SELECT games FROM ledger_standings WHERE player = '4242'")
echo "an Elo ledger of $games games among $players players ($entries history rows; player 4242: $of_4242 games;"
echo "loaded in $(($(date +%s) - start)) s)"
echo

plain_history="SELECT * FROM ledger_entries e WHERE e.ledger_id = 1 AND e.scope = '' AND e.player = '4242'
               ORDER BY e.game_date DESC, e.game_key DESC LIMIT 50"
plain_standing="SELECT * FROM ledger_standings s WHERE s.ledger_id = 1 AND s.scope = '' AND s.player = '4242'"
plain_join="SELECT u.name, s.rating FROM users u JOIN ledger_standings s
            ON s.ledger_id = 1 AND s.scope = '' AND s.player = u.id::text WHERE u.id BETWEEN 4201 AND 4300"

printf '%-64s %9s %7s\n' "read (ms, median of runs 2-6)" "ms" "ratio"
row() { printf '%-64s %9s %7s\n' "$1" "$2" "${3:-}"; }
p=$(median "$plain_history")
row "plain: ledger_entries, player 4242's last 50" "$p"
t=$(median "SELECT * FROM ledger_player_history('elo', 4242::bigint, last_games => 50)")
row "ledger_player_history('elo', 4242::bigint, last_games => 50)" "$t" "$(ratio "$t" "$p")"
t=$(median "SELECT * FROM ledger_history_of('elo', NULL::bigint) WHERE player = 4242
            ORDER BY game_date DESC LIMIT 50")
row "ledger_history_of('elo', NULL::bigint) WHERE player = 4242 (0.12)" "$t" "$(ratio "$t" "$p")"
p=$(median "$plain_standing")
row "plain: ledger_standings, player 4242" "$p"
t=$(median "SELECT * FROM ledger_player_standing('elo', 4242::bigint)")
row "ledger_player_standing('elo', 4242::bigint)" "$t" "$(ratio "$t" "$p")"
t=$(median "SELECT * FROM ledger_standings_of('elo', NULL::bigint) WHERE player = 4242")
row "ledger_standings_of('elo', NULL::bigint) WHERE player = 4242 (0.12)" "$t" "$(ratio "$t" "$p")"
p=$(median "$plain_join")
row "plain: 100 users joined to ledger_standings" "$p"
t=$(median "SELECT u.name, s.rating FROM users u CROSS JOIN LATERAL ledger_player_standing('elo', u.id) s
            WHERE u.id BETWEEN 4201 AND 4300")
row "100 users, LATERAL ledger_player_standing('elo', u.id)" "$t" "$(ratio "$t" "$p")"
t=$(median "SELECT u.name, s.rating FROM users u JOIN ledger_standings_of('elo', NULL::bigint) s ON s.player = u.id
            WHERE u.id BETWEEN 4201 AND 4300")
row "100 users JOIN ledger_standings_of('elo', NULL::bigint) (0.12)" "$t" "$(ratio "$t" "$p")"
t=$(median "SELECT u.name, s.rating FROM users u JOIN ledger_standings_now s
            ON s.ledger = 'elo' AND s.scope = '' AND s.player = u.id::text WHERE u.id BETWEEN 4201 AND 4300")
row "100 users JOIN ledger_standings_now" "$t" "$(ratio "$t" "$p")"

# What the readers derive per row (RD as of now, provisional, performance; the seasons' resets):
# the whole scope of ledger_standings_now and a leaderboard page that filters on provisional,
# without a season and then with one that ended after every player's last game.
plain_scope="SELECT count(*), sum(s.rating), sum(s.opponents_sum / s.games) FROM ledger_standings s
             WHERE s.ledger_id = 1 AND s.scope = ''"
now_scope="SELECT count(*), sum(s.rating), count(*) FILTER (WHERE s.provisional), sum(s.performance)
           FROM ledger_standings_now s WHERE s.ledger = 'elo' AND s.scope = ''"
page="SELECT * FROM ledger_leaderboard('elo', include_provisional => false, page => 20)"
rank="SELECT ledger_player_rank('elo', '4242', include_provisional => false)"
p=$(median "$plain_scope")
row "plain: ledger_standings, the whole scope ($players players)" "$p"
t=$(median "$now_scope")
row "ledger_standings_now, the whole scope" "$t" "$(ratio "$t" "$p")"
t=$(median "$page")
row "ledger_leaderboard('elo', include_provisional => false, page => 20)" "$t" "$(ratio "$t" "$p")"
t=$(median "$rank")
row "ledger_player_rank('elo', '4242', include_provisional => false)" "$t" "$(ratio "$t" "$p")"
psql -X -q -v ON_ERROR_STOP=1 -d reads -c "INSERT INTO ledger_seasons (ledger_id, name, ends_at, rating_pull, rd_floor)
    VALUES (1, 'one', '2021-01-01', 0.25, NULL), (1, 'two', '2021-06-01', 0.3, NULL)" >/dev/null
t=$(median "$now_scope")
row "ledger_standings_now, the whole scope, two seasons ended" "$t" "$(ratio "$t" "$p")"
t=$(median "$page")
row "the leaderboard page, two seasons ended" "$t" "$(ratio "$t" "$p")"
t=$(median "$rank")
row "ledger_player_rank, two seasons ended" "$t" "$(ratio "$t" "$p")"
t=$(median "SELECT * FROM ledger_player_standing('elo', 4242::bigint)")
row "ledger_player_standing('elo', 4242::bigint), two seasons ended" "$t"
