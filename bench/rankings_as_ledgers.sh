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
CLUSTER_OPTIONS="-c shared_buffers=1GB -c autovacuum=off" cluster_start
trap cluster_stop EXIT
flock -u 9

ms() { psql -X -q -v ON_ERROR_STOP=1 -d "$1" -c '\timing on' -c "$2" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1; }
for db in rankings ledgers; do
    psql -X -q -d postgres -c "CREATE DATABASE $db"
    psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION pg_rating_random_chess CASCADE" \
        -f bench/rankings/setup.sql >/dev/null 2>&1
done
psql -X -q -v ON_ERROR_STOP=1 -d ledgers <<'SQL' >/dev/null
ALTER TABLE service_games DISABLE TRIGGER rate_service_games;
ALTER TABLE service_games ADD COLUMN white_score float8 GENERATED ALWAYS AS (game_score(result, true)) STORED;
DO $$
DECLARE
    r record;
    filter text;
    no_bot text := 'NOT EXISTS (SELECT FROM service_accounts a WHERE a.service_id = 1 AND a.user_id_in_service = %s '
                   'AND a.is_bot)';
BEGIN
    FOR r IN SELECT * FROM rankings ORDER BY id LOOP
        INSERT INTO ledgers (name, rating_system, starting_rating, k_factor)
        VALUES ('ranking ' || r.id, 'elo', r.starting_elo, r.k_factor);
        filter := format('service_id = 1 AND is_ranked AND clock_base_time(clock, %s) >= %L::interval',
                         r.extra_move_multiplier, r.playtime_min);
        IF r.playtime_max IS NOT NULL THEN
            filter := filter || format(' AND clock_base_time(clock, %s) < %L::interval',
                                       r.extra_move_multiplier, r.playtime_max);
        END IF;
        IF NOT r.include_bots THEN
            filter := filter || ' AND ' || format(no_bot, 'white_player') || ' AND ' || format(no_bot, 'black_player');
        END IF;
        PERFORM ledger_attach('ranking ' || r.id, 'service_games', 'id', 'creation_date', 'white_player',
                              'black_player', 'white_score', filter => filter);
    END LOOP;
END $$;
SQL

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
