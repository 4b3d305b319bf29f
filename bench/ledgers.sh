#!/usr/bin/env bash
# Benchmark of ledgers, on a throwaway cluster with a release build:
#   bench/ledgers.sh [games] [batch]      (defaults 20000 and 100000)
# 1. `games` games inserted one statement each into a plain `matches` table (bigint ids, three
#    indexes), once without a ledger and once with an Elo and a Glicko-2 ledger attached: games/s
#    per block and the cost ratio (with / without); beside them the floor of that ratio: the
#    rows the two ledgers must write per game, written by plain SQL with no trigger (ledgers/floor.sql),
#    and the floor of a trigger: those rows written by the least statement trigger (one statement
#    that reads and writes; a read then a write; a lock, a read and a write: ledgers/trigger_floor.sql);
# 2. one INSERT of `batch` games in date order into a table with an Elo ledger, and into the same
#    table without one; beside them their floor: the rows the ledger keeps for them, written by plain
#    SQL in the games' own statement (ledgers/batch_floor.sql), and the games' INSERT followed by a
#    binary COPY of their entries (no writer can store them faster); three rounds, and the medians;
# 3. ledger_rebuild of the Elo ledger; a game backdated 1,000 games before the end vs one appended;
# 4. the writer lock: while one session holds a backdated game uncommitted for 2 s, how long a
#    game of another ranking waits (Random Chess rankings: a lock per ranking since 0.9.0) and a game
#    of another ledger scope (ledgers: one lock per ledger and scope);
# 5. `games` games inserted one statement each in one transaction (a loop in PL/pgSQL), into a
#    table with an Elo ledger: games/s of the first and the last fifth (a scope's lock row is
#    updated once per transaction, then only locked again, so the rate holds);
# 6. importing seeds into the Elo ledger of section 1: 10,000 seeds (its 1,000 players with games
#    and 9,000 without) in one INSERT, against one ledger_rebuild of it (one replay of the scope),
#    and 20 seeds of players with games, one INSERT each (a replay each).
# LEDGERS_UPTO=n stops after section n (e.g. 1: the per-game cost alone); BENCH_TREE installs the build of
# another checkout (with its CARGO_TARGET_DIR) instead of this tree's: bench/ledgers_against.sh.
set -euo pipefail
source "$(dirname "$0")/../scripts/lib.sh"
cd "$REPO_ROOT"
games=${1:-20000}
batch=${2:-100000}
blocks=5
block=$((games / blocks))

upto=${LEDGERS_UPTO:-6}

exec 9>"$PG_LOCK"
flock 9
(REPO_ROOT=${BENCH_TREE:-$REPO_ROOT} && install_extension --release >/dev/null 2>&1) ||
    { echo "cargo pgrx install --release failed" >&2; exit 1; }
CLUSTER_OPTIONS="-c shared_buffers=1GB -c autovacuum=off" bench_cluster_start
trap cluster_stop EXIT

ms() { psql -X -q -v ON_ERROR_STOP=1 -d "$1" -c '\timing on' -c "$2" | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | tail -1; }
rate() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.0f", n / (t / 1000) }'; }
for db in plain ledgers batch floor trigger1 trigger2 trigger3; do
    psql -X -q -d postgres -c "CREATE DATABASE $db"
    psql -X -q -v ON_ERROR_STOP=1 -d "$db" -c "CREATE EXTENSION pg_rating" -f bench/ledgers/setup.sql
done
# The extensions' SQL files are read by CREATE EXTENSION: still under the lock.
flock -u 9
psql -X -q -v ON_ERROR_STOP=1 -d floor -f bench/ledgers/floor.sql
for db in trigger1 trigger2 trigger3; do
    psql -X -q -v ON_ERROR_STOP=1 -d $db -f bench/ledgers/floor.sql -f bench/ledgers/trigger_floor.sql
done
psql -X -q -v ON_ERROR_STOP=1 -d trigger1 -c "CREATE TRIGGER floor AFTER INSERT ON matches
    REFERENCING NEW TABLE AS new_games FOR EACH STATEMENT EXECUTE FUNCTION read_write_floor()"
psql -X -q -v ON_ERROR_STOP=1 -d trigger2 -c "CREATE TRIGGER floor AFTER INSERT ON matches
    REFERENCING NEW TABLE AS new_games FOR EACH STATEMENT EXECUTE FUNCTION read_then_write_floor()"
psql -X -q -v ON_ERROR_STOP=1 -d trigger3 -c "CREATE TRIGGER floor AFTER INSERT ON matches
    REFERENCING NEW TABLE AS new_games FOR EACH STATEMENT EXECUTE FUNCTION read_then_write_floor('lock')"
psql -X -q -v ON_ERROR_STOP=1 -d ledgers <<'SQL' >/dev/null
INSERT INTO ledgers (name, rating_system, starting_rating, k_factor) VALUES ('elo', 'elo', 1500, 20);
INSERT INTO ledgers (name, rating_system, starting_rating, rating_period) VALUES ('glicko', 'glicko2', 1500, '7 days');
SELECT ledger_attach('elo', 'matches', 'id', 'played_at', 'white', 'black', 'score');
SELECT ledger_attach('glicko', 'matches', 'id', 'played_at', 'white', 'black', 'score');
SQL

echo "1. $games games, one INSERT each, without and with an Elo and a Glicko-2 ledger"
echo "   (floor: the game and the four entries and four standings the ledgers keep, by plain SQL;"
echo "    trigger 1, 2, 3: those rows by the least statement trigger: one statement; a read then a write;"
echo "    a lock, a read and a write)"
printf '%-12s %9s %9s %9s %9s %9s %9s %7s %7s %7s %7s %7s\n' games plain/s floor/s trig1/s trig2/s trig3/s \
    ledgers/s ratio floor trig1 trig2 trig3
total_plain=0 total_ledgers=0 total_floor=0 total_trig1=0 total_trig2=0 total_trig3=0
# (the same after the first block, whose triggers' reads run plans made while the standings were empty)
later_floor=0 later_trig1=0 later_trig2=0 later_trig3=0 later_ledgers=0
sum() { awk -v a="$1" -v b="$2" 'BEGIN { print a + b }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", a / b }'; }
for ((i = 0; i < blocks; i++)); do
    a=$((i * block + 1)) b=$(((i + 1) * block))
    tp=$(ms plain "CALL bench_insert($a, $b)")
    tf=$(ms floor "CALL floor_insert($a, $b)")
    t1=$(ms trigger1 "CALL bench_insert($a, $b)")
    t2=$(ms trigger2 "CALL bench_insert($a, $b)")
    t3=$(ms trigger3 "CALL bench_insert($a, $b)")
    tl=$(ms ledgers "CALL bench_insert($a, $b)")
    printf '%-12s %9s %9s %9s %9s %9s %9s %6sx %6sx %6sx %6sx %6sx\n' "$a-$b" "$(rate $block "$tp")" \
        "$(rate $block "$tf")" "$(rate $block "$t1")" "$(rate $block "$t2")" "$(rate $block "$t3")" \
        "$(rate $block "$tl")" "$(ratio "$tl" "$tp")" "$(ratio "$tf" "$tp")" "$(ratio "$t1" "$tp")" \
        "$(ratio "$t2" "$tp")" "$(ratio "$t3" "$tp")"
    total_plain=$(sum "$total_plain" "$tp")
    total_floor=$(sum "$total_floor" "$tf")
    total_trig1=$(sum "$total_trig1" "$t1")
    total_trig2=$(sum "$total_trig2" "$t2")
    total_trig3=$(sum "$total_trig3" "$t3")
    total_ledgers=$(sum "$total_ledgers" "$tl")
    if ((i > 0)); then
        later_floor=$(sum "$later_floor" "$tf") later_ledgers=$(sum "$later_ledgers" "$tl")
        later_trig1=$(sum "$later_trig1" "$t1") later_trig2=$(sum "$later_trig2" "$t2")
        later_trig3=$(sum "$later_trig3" "$t3")
    fi
done
echo "cost per game with the two ledgers / without: $(ratio "$total_ledgers" "$total_plain")x" \
     "($(rate "$games" "$total_ledgers") vs $(rate "$games" "$total_plain") games/s)"
echo "the floor of a trigger / the floor: one statement $(ratio "$total_trig1" "$total_floor")x," \
     "a read then a write $(ratio "$total_trig2" "$total_floor")x, a lock, a read and a write" \
     "$(ratio "$total_trig3" "$total_floor")x; the ledgers / the last: $(ratio "$total_ledgers" "$total_trig3")x"
echo "after the first block: the floor of a trigger / the floor $(ratio "$later_trig1" "$later_floor")x," \
     "$(ratio "$later_trig2" "$later_floor")x, $(ratio "$later_trig3" "$later_floor")x; the ledgers / the floor" \
     "$(ratio "$later_ledgers" "$later_floor")x, / the last floor of a trigger $(ratio "$later_ledgers" "$later_trig3")x"
echo "floor (their rows by plain SQL, no trigger) / without: $(ratio "$total_floor" "$total_plain")x" \
     "($(rate "$games" "$total_floor") games/s); the ledgers / the floor:" \
     "$(ratio "$total_ledgers" "$total_floor")x"

((upto >= 2)) || exit 0
echo
echo "2. one INSERT of $batch games in date order, Elo ledger"
psql -X -q -v ON_ERROR_STOP=1 -d batch <<'SQL' >/dev/null
INSERT INTO ledgers (name, rating_system, starting_rating, k_factor) VALUES ('elo', 'elo', 1500, 20);
SELECT ledger_attach('elo', 'matches', 'id', 'played_at', 'white', 'black', 'score');
CREATE TABLE plain_matches (LIKE matches INCLUDING ALL);
SQL
psql -X -q -v ON_ERROR_STOP=1 -d batch -f bench/ledgers/batch_floor.sql
insert_batch() { ms batch "INSERT INTO $1 (id, played_at, white, black, score)
                           SELECT n, m.at, m.white, m.black, m.score FROM generate_series(1, $batch) n, bench_match(n) m"; }
# Three rounds on emptied, vacuumed tables (one INSERT of this size varies by a quarter from one
# run to the next): each round's ratios, then their medians. Beside the SQL floor, the floor of any
# writer: the games' INSERT followed by a binary COPY of the ledger's entries for them (written out
# after the first round) into a table of the same shape, PostgreSQL's fastest load, with nothing
# read or computed.
ratios=() floors=() copies=()
for round in 1 2 3; do
    if ((round > 1)); then
        psql -X -q -v ON_ERROR_STOP=1 -d batch \
            -c "TRUNCATE plain_matches, batch_floor_matches, batch_floor_entries, batch_floor_standings, copy_floor_entries" \
            -c "TRUNCATE matches" -c "VACUUM matches, plain_matches, ledger_entries, ledger_standings" >/dev/null
    fi
    tp=$(insert_batch plain_matches)
    t=$(insert_batch matches)
    tf=$(ms batch "CALL batch_floor_insert($batch)")
    if ((round == 1)); then
        psql -X -q -v ON_ERROR_STOP=1 -d batch \
            -c "CREATE TABLE copy_floor_entries (LIKE ledger_entries INCLUDING INDEXES)" \
            -c "COPY (SELECT * FROM ledger_entries) TO '$CLUSTER_DIR/entries.copy' (FORMAT binary)" >/dev/null
    fi
    tc=$(ms batch "COPY copy_floor_entries FROM '$CLUSTER_DIR/entries.copy' (FORMAT binary)")
    ratio=$(awk -v a="$tp" -v b="$t" 'BEGIN { printf "%.2f", a / b }')
    floor=$(awk -v a="$tp" -v b="$tf" 'BEGIN { printf "%.2f", a / b }')
    copy=$(awk -v a="$tp" -v c="$tc" 'BEGIN { printf "%.2f", a / (a + c) }')
    ratios+=("$ratio") floors+=("$floor") copies+=("$copy")
    echo "round $round: $(rate "$batch" "$t") games/s ($t ms; without the ledger $(rate "$batch" "$tp") games/s, $tp ms);" \
         "with the ledger / without: ${ratio}x the speed; the floor (its entries and standings by plain SQL in the" \
         "same statement, $tf ms): ${floor}x; the games then their entries by binary COPY ($tc ms): ${copy}x"
done
echo "with the ledger / without, median of the rounds: $(median_of "${ratios[@]}")x the speed; the floor:" \
     "$(median_of "${floors[@]}")x; the games then their entries by COPY: $(median_of "${copies[@]}")x"

((upto >= 3)) || exit 0
echo
echo "3. rebuilding and backdating (Elo ledger, $games games)"
t=$(ms ledgers "SELECT ledger_rebuild('elo')")
echo "ledger_rebuild('elo'): $t ms"
m=$(psql -X -At -d ledgers -c "SELECT max(id) FROM matches")
t_append=$(ms ledgers "INSERT INTO matches VALUES ($((m + 1)), timestamptz '2024-01-01' + $((m + 1)) * interval '1 minute', 1, 2, 1)")
t_back=$(ms ledgers "INSERT INTO matches VALUES ($((m + 2)), timestamptz '2024-01-01' + $((m - 1000)) * interval '1 minute' + interval '1 second', 3, 4, 1)")
echo "an appended game: $t_append ms; a game 1,000 games before the end: $t_back ms (both ledgers)"

((upto >= 4)) || exit 0
echo
echo "4. the writer lock: a game of another ranking / scope while a backdated game is held for 2 s"
psql -X -q -v ON_ERROR_STOP=1 -d ledgers <<'SQL' >/dev/null
CREATE EXTENSION pg_rating_random_chess;   -- its rankings, beside the ledgers measured above
INSERT INTO users (email, password_hash) SELECT format('p%s@example.com', i), 'h' FROM generate_series(1, 4) i;
INSERT INTO rankings (name, playtime_min, playtime_max, extra_move_multiplier, starting_elo, include_bots, k_factor)
VALUES ('Bullet', '0', '3 minutes', 0, 800, true, 40), ('Classical', '1 hour', NULL, 0, 800, true, 40);
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
SELECT '{}', timestamptz '2024-01-01' + i * interval '1 hour', '(1-0,RESIGNATION)', '(1 minute, 0)', 1, '1', '2', true
FROM generate_series(1, 2000) i;
CREATE TABLE league_matches (LIKE matches INCLUDING ALL);
INSERT INTO league_matches SELECT id, played_at, white, black, score, (ARRAY['east', 'west'])[1 + id % 2] FROM matches;
INSERT INTO ledgers (name, rating_system) VALUES ('leagues', 'elo');
SELECT ledger_attach('leagues', 'league_matches', 'id', 'played_at', 'white', 'black', 'score', scope_column => 'league');
SQL
hold() { psql -X -q -d ledgers -c "BEGIN" -c "$1" -c "SELECT pg_sleep(2)" -c "COMMIT" >/dev/null; }
hold "INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
      VALUES ('{}', '2024-01-02', '(0-1,RESIGNATION)', '(1 minute, 0)', 1, '1', '2', true)" &
sleep 0.5
t_rank=$(ms ledgers "INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
                     VALUES ('{}', now(), '(1-0,RESIGNATION)', '(2 hours, 0)', 1, '3', '4', true)")
wait
hold "INSERT INTO league_matches (id, played_at, white, black, score, league) VALUES (-1, '2024-01-02', 5, 6, 1, 'east')" &
sleep 0.5
t_scope=$(ms ledgers "INSERT INTO league_matches (id, played_at, white, black, score, league) VALUES (-2, now(), 7, 8, 1, 'west')")
wait
echo "Random Chess rankings (a lock per ranking): a Classical game waited $t_rank ms for a Bullet game"
echo "ledgers (a lock per ledger and scope): a game of scope west waited $t_scope ms for one of scope east"

((upto >= 5)) || exit 0
echo
echo "5. $games games, one INSERT each, in one transaction, Elo ledger"
psql -X -q -v ON_ERROR_STOP=1 -d ledgers <<'SQL' >/dev/null
CREATE TABLE txn_matches (LIKE matches INCLUDING ALL);
INSERT INTO ledgers (name, rating_system) VALUES ('one transaction', 'elo');
SELECT ledger_attach('one transaction', 'txn_matches', 'id', 'played_at', 'white', 'black', 'score');
SQL
psql -X -q -v ON_ERROR_STOP=1 -d ledgers -v games="$games" 2>&1 <<'SQL' | sed -n 's/.*NOTICE:  //p'
SELECT set_config('bench.games', :'games', false);
DO $$
DECLARE
    games int := current_setting('bench.games')::int;
    fifth int := games / 5;
    t timestamptz := clock_timestamp();
    m record;
BEGIN
    FOR n IN 1..games LOOP
        m := bench_match(n);
        INSERT INTO txn_matches (id, played_at, white, black, score) VALUES (n, m.at, m.white, m.black, m.score);
        IF n % fifth = 0 THEN
            IF n = fifth OR n = games THEN
                RAISE NOTICE 'games %-%: % games/s', n - fifth + 1, n,
                    round(fifth / extract(epoch FROM clock_timestamp() - t));
            END IF;
            t := clock_timestamp();
        END IF;
    END LOOP;
END $$;
SQL

((upto >= 6)) || exit 0
echo
echo "6. importing seeds into the Elo ledger of section 1 ($games games in one scope)"
tr=$(ms ledgers "SELECT ledger_rebuild('elo')")
ti=$(ms ledgers "INSERT INTO ledger_seeds (ledger_id, player, rating)
                 SELECT l.id, p::text, 1400 + p % 400 FROM ledgers l, generate_series(1, 10000) p WHERE l.name = 'elo'")
ts=0
for p in $(seq 1 20); do
    t=$(ms ledgers "UPDATE ledger_seeds SET rating = rating + 1 WHERE player = '$p'")
    ts=$(awk -v a="$ts" -v b="$t" 'BEGIN { print a + b }')
done
printf '   ledger_rebuild (one replay)            %8.0f ms\n' "$tr"
printf '   10,000 seeds in one INSERT             %8.0f ms  (%.2fx a rebuild)\n' "$ti" "$(awk -v a="$ti" -v b="$tr" 'BEGIN { print a / b }')"
printf '   20 seeds, one UPDATE each              %8.0f ms  (%.2fx a rebuild each)\n' "$ts" "$(awk -v a="$ts" -v b="$tr" 'BEGIN { print a / b / 20 }')"
