#!/usr/bin/env bash
# A role's table locks hold off no other application's writers (issue 31, hole 5). UPDATE or
# DELETE on a table lets a role LOCK TABLE it in any mode: application owners hold them on
# ledgers, ledger_seeds and ledger_seasons (docs/operations.md), and so does a bare role given the
# usual GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES. While such a role holds
# ACCESS EXCLUSIVE on one of them, application B's games (a new player, a backdated game that
# replays its scope, a scope with seeds and a season) and a Random Chess ranked game in a new
# session are still rated, within a 1 s lock_timeout. On 0.12.0 the writers read those tables and
# waited (55P03 here). What such a lock still holds off is said at the end.
set -euo pipefail
db=$PGDATABASE
source "$(dirname "$0")/locks_lib.sh"

q >/dev/null <<'SQL'
CREATE ROLE tl_app_a; CREATE ROLE tl_app_b; CREATE ROLE tl_bare; CREATE ROLE tl_random_chess;
SELECT grant_random_chess_app('tl_random_chess');
GRANT CREATE ON SCHEMA public TO tl_app_a, tl_app_b;
GRANT SELECT, INSERT, UPDATE, DELETE ON ledgers, ledger_seeds, ledger_seasons TO tl_app_a, tl_app_b;
GRANT SELECT ON ledger_attachments, ledger_entries, ledger_standings TO tl_app_a, tl_app_b;
GRANT USAGE ON SEQUENCE ledgers_id_seq TO tl_app_a, tl_app_b;
SET ROLE tl_app_a;
CREATE TABLE a_games (id int PRIMARY KEY, at timestamptz NOT NULL, w text NOT NULL, b text NOT NULL, s float8 NOT NULL);
INSERT INTO ledgers (name, rating_system) VALUES ('a elo', 'elo');
SELECT ledger_attach('a elo', 'a_games', 'id', 'at', 'w', 'b', 's');
SET ROLE tl_app_b;
CREATE TABLE b_games (id int PRIMARY KEY, at timestamptz NOT NULL, w text NOT NULL, b text NOT NULL, s float8 NOT NULL);
INSERT INTO ledgers (name, rating_system) VALUES ('b glicko', 'glicko2');
SELECT ledger_attach('b glicko', 'b_games', 'id', 'at', 'w', 'b', 's');
INSERT INTO b_games SELECT i, timestamptz '2025-01-01' + i * interval '1 day', 'p' || i % 5, 'p' || (i + 1) % 5, (i % 3) / 2.0
FROM generate_series(1, 40) i;
INSERT INTO ledger_seeds (ledger_id, player, rating, rd) SELECT id, 'seeded', 1900, 120 FROM ledgers WHERE name = 'b glicko';
INSERT INTO ledger_seasons (ledger_id, name, ends_at, rating_pull) SELECT id, 's1', '2025-01-20', 0.5 FROM ledgers
WHERE name = 'b glicko';
RESET ROLE;
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO tl_bare;
SQL

# B's writes, each in a new session with lock_timeout 1 s: none may wait for the lock.
n=1000
b_writes() {
    local what=$1 state
    n=$((n + 1))
    for sql in "INSERT INTO b_games VALUES ($n, '2026-01-01', 'new$n', 'seeded', 1)" \
               "INSERT INTO b_games VALUES ($((n + 500)), '2025-01-10', 'p1', 'late$n', 0)" \
               "UPDATE b_games SET s = 1 - s WHERE id = 3"; do
        state=$(state_with_timeout 1s "SET ROLE tl_app_b; $sql")
        [[ -z $state ]] || fail "$what: application B's write waited for it ($state): $sql"
    done
    state=$(state_with_timeout 1s "SET ROLE tl_random_chess;
        INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
        VALUES ('{e2e4}', now(), '(1-0,CHECKMATE)', '(5 minutes, 0)', 1, '1', '2', true)")
    [[ -z $state ]] || fail "$what: a Random Chess ranked game waited for it ($state)"
}

q >/dev/null <<'SQL'
INSERT INTO users (email, password_hash) VALUES ('p1@example.com', 'h'), ('p2@example.com', 'h');
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor,
                      rating_system, glicko2_tau, starting_rd, starting_volatility, rating_period)
VALUES ('Global', '0', NULL, 0, 800, true, 40, 'elo', 0.5, 350, 0.06, NULL);
SQL

for holder in tl_bare tl_app_a; do
    for table in ledgers ledger_seeds ledger_seasons; do
        echo "$holder holds LOCK TABLE $table IN ACCESS EXCLUSIVE MODE for 3 s"
        hold 3 "SET ROLE $holder; LOCK TABLE $table IN ACCESS EXCLUSIVE MODE"
        sleep 0.7
        b_writes "$holder's lock on $table"
        [[ $(state_with_timeout 1s "SELECT FROM $table LIMIT 1") == 55P03 ]] || fail "$holder held no lock on $table"
        wait
        echo "   application B's games and a Random Chess game were rated meanwhile"
    done
done

[[ $(q -c "SELECT count(*) FROM elo_history") == 12 ]] || fail "the Random Chess games were not all rated"
rated=$(q -c "SELECT count(*) FROM ledger_entries e JOIN ledgers l ON l.id = e.ledger_id
              WHERE l.name = 'b glicko' AND e.player LIKE 'new%'")
[[ $rated == 6 ]] || fail "B's new players have $rated entries, not 6"
before=$(q -c "SELECT md5(string_agg(format('%s %s %s', game_key, player, rating), ',' ORDER BY game_key, player))
               FROM ledger_entries WHERE ledger_id = (SELECT id FROM ledgers WHERE name = 'b glicko')")
q -c "SELECT ledger_rebuild('b glicko')" >/dev/null
after=$(q -c "SELECT md5(string_agg(format('%s %s %s', game_key, player, rating), ',' ORDER BY game_key, player))
              FROM ledger_entries WHERE ledger_id = (SELECT id FROM ledgers WHERE name = 'b glicko')")
[[ $before == "$after" ]] || fail "B's history, written while the tables were locked, differs from a rebuild"
echo "B's history equals a rebuild (its seed and season applied)"

# What the lock still holds off: changes of the locked table itself (and reads through it).
echo "tl_bare holds LOCK TABLE ledgers: a change of B's ledger waits for it"
hold 3 "SET ROLE tl_bare; LOCK TABLE ledgers IN ACCESS EXCLUSIVE MODE"
sleep 0.7
state=$(state_with_timeout 1s "SET ROLE tl_app_b; UPDATE ledgers SET tau = 0.6 WHERE name = 'b glicko'")
wait
[[ $state == 55P03 ]] || fail "a change of ledgers did not wait for the lock on ledgers ($state)"
echo "   55P03, as for any table"

# A view locks the tables behind it as its owner: the bare role keeps no privilege that locks one.
echo "tl_bare locks Random Chess's leaderboard view (elo_history, ranking_players behind it)"
state=$(state_with_timeout 1s "SET ROLE tl_bare; BEGIN; LOCK TABLE leaderboard IN ACCESS EXCLUSIVE MODE; COMMIT")
[[ $state == 42501 ]] || fail "the bare role could lock the view leaderboard ($state)"
echo "   42501: permission denied"
