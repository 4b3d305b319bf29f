#!/usr/bin/env bash
# A backend killed with SIGKILL in the middle of a bulk load: after crash recovery every
# committed game has all of its history entries, there are no others, the standings agree with
# the history, and recalculating every ranking changes nothing.
set -euo pipefail
db=$PGDATABASE
q() { psql -X -q -v ON_ERROR_STOP=1 -At -d "$db" "$@"; }

q <<'SQL'
INSERT INTO users (email, password_hash) SELECT format('p%s@example.com', i), 'h' FROM generate_series(1, 50) i;
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Global', '0', NULL, 0, 800, true, 40),
       ('Bullet', '0', '3 minutes', 60, 800, false, 40),
       ('Blitz', '3 minutes', '10 minutes', 60, 800, false, 40),
       ('Rapid', '10 minutes', '60 minutes', 60, 800, false, 40);
SQL

# 4,000 games, one transaction each; every tenth is dated before the games already loaded.
load=$(mktemp /tmp/pg_rating_crash.XXXXXX.sql)
q -c "SELECT format(
    'INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
     VALUES (''{e2e4}'', %L, %L, %L, 1, %L, %L, true);',
    timestamptz '2024-01-01' + (CASE WHEN i % 10 = 0 THEN i / 3 ELSE i END) * interval '1 minute',
    (ARRAY['(1-0,CHECKMATE)', '(0-1,TIMEOUT)', '(1/2-1/2,STALEMATE)'])[1 + i % 3],
    (ARRAY['(1 minute, 0)', '(3 minutes, 2 seconds)', '(15 minutes, 10 seconds)'])[1 + i % 3],
    1 + i % 50, 1 + (i * 7 + 3) % 49 + CASE WHEN 1 + (i * 7 + 3) % 49 >= 1 + i % 50 THEN 1 ELSE 0 END)
  FROM generate_series(1, 4000) i" > "$load"

PGAPPNAME=crash_load psql -X -q -d "$db" -f "$load" >/dev/null 2>&1 &
loader=$!
for _ in $(seq 1 100); do
    n=$(q -c "SELECT count(*) FROM service_games")
    ((n >= 300)) && break
    sleep 0.1
done
pid=$(q -c "SELECT pid FROM pg_stat_activity WHERE application_name = 'crash_load'")
echo "killing backend $pid with SIGKILL after $n committed games"
kill -9 "$pid"
wait "$loader" || true
rm -f "$load"
for _ in $(seq 1 100); do
    q -c "SELECT 1" >/dev/null 2>&1 && break
    sleep 0.2
done

games=$(q -c "SELECT count(*) FROM service_games")
pairs=$(q -c "SELECT count(*) FROM games_rankings")
entries=$(q -c "SELECT count(*) FROM elo_history")
missing=$(q -c "SELECT count(*) FROM games_rankings gr
                WHERE (SELECT count(*) FROM elo_history e
                       WHERE e.game_id = gr.game_id AND e.ranking_id = gr.ranking_id) <> 2")
strays=$(q -c "SELECT count(*) FROM elo_history e
               WHERE NOT EXISTS (SELECT 1 FROM games_rankings gr
                                 WHERE gr.game_id = e.game_id AND gr.ranking_id = e.ranking_id)")
stale=$(q -c "SELECT count(*) FROM ranking_players p
              WHERE p.elo_history_id <> (SELECT e.id FROM elo_history e
                                         WHERE e.ranking_id = p.ranking_id AND e.user_id_in_service = p.user_id_in_service
                                         ORDER BY e.game_date DESC, e.game_id DESC LIMIT 1)
                 OR p.games <> (SELECT count(*) FROM elo_history e
                                WHERE e.ranking_id = p.ranking_id AND e.user_id_in_service = p.user_id_in_service)")
unchained=$(q -f "$(dirname "$0")/unchained_entries.sql")
echo "after recovery: $games games committed, $pairs (game, ranking) pairs, $entries entries"
echo "pairs without their two entries: $missing, entries without a pair: $strays, stale standings: $stale," \
     "entries not chained to the preceding one: $unchained"

history="SELECT e.ranking_id, e.game_id, e.user_id_in_service, e.elo, p.game_id
         FROM elo_history e LEFT JOIN elo_history p ON p.id = e.previous_entry ORDER BY 1, 2, 3"
before=$(q -c "$history" | md5sum)
for r in $(q -c "SELECT id FROM rankings"); do q -c "CALL recalculate_ranking($r)"; done
after=$(q -c "$history" | md5sum)
same=$([[ "$before" == "$after" ]] && echo yes || echo no)
echo "history equals recalculate_ranking's rebuild: $same"

((games >= 300 && games < 4000)) || { echo "the kill did not land in the middle of the load"; exit 1; }
((entries == 2 * pairs && missing == 0 && strays == 0 && stale == 0 && unchained == 0)) && [[ $same == yes ]]
