#!/usr/bin/env bash
# pg_dump and restore of a database with Swiss tournaments give back every row (the tournament
# tables and the derived standings, entrants and progress, which are not derived again while
# restoring), and the restored database goes on keeping the standings exactly as the original.
set -euo pipefail
src=$PGDATABASE
dst=${PGDATABASE}_restored
source "$(dirname "$0")/restore_check.sh"

q -d "$src" -f "$(dirname "$0")/sample_tournaments.sql"

tables="swiss_tournaments tournaments_players tournaments_games byes tournaments_ranking_reqs tournaments_ranked_games_reqs
        swiss_tournament_progress swiss_tournament_entrants swiss_tournament_standings elo_history"
fingerprint_extra() {
    printf 'sequence %s\n' "$(q -d "$1" -c "SELECT last_value FROM swiss_tournaments_tournament_id_seq")"
}
dump_and_restore "$src" "$dst"

# Both databases record round 3 of tournament 1, a late registration, a correction and a new tournament.
next=$(cat <<'SQL'
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{e2e4}', '2024-03-14', '(1-0,CHECKMATE)', '(5 minutes, 0)', 1, '7', '1', true),
       ('{e2e4}', '2024-03-14', '(0-1,CHECKMATE)', '(5 minutes, 0)', 1, '6', '3', true);
INSERT INTO tournaments_games SELECT 1, id, 3 FROM service_games ORDER BY id DESC LIMIT 2;
INSERT INTO tournaments_players (tournament_id, user_id_in_service) VALUES (1, '8');
INSERT INTO byes VALUES (1, 3, '8');
DELETE FROM tournaments_games WHERE game_id = (SELECT min(game_id) FROM tournaments_games WHERE tournament_id = 1 AND round = 2);
INSERT INTO swiss_tournaments (round_count, ranking_id, time_control) VALUES (2, 1, '(5 minutes, 0)');
SQL
)
same_after "$src" "$dst" "$next"
rows=$(q -d "$dst" -c "SELECT count(*) FROM swiss_tournament_standings")
psql -X -q -d postgres -c "DROP DATABASE $dst"
echo "dump and restore: every tournament row back ($rows standings rows after the next round), and the restored database keeps the standings like the original"
