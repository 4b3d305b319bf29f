#!/usr/bin/env bash
# Updating from every earlier release (tests/upgrade/pg_rating--<v>.sql, the install scripts as
# released) gives the schema of a fresh install, keeps every row, and the updated database goes
# on rating games and keeping standings like a fresh one. Since 0.4.0 the Random Chess schema is
# an extension of its own (tests/upgrade/pg_rating_random_chess--<v>.sql): from 0.4.0 on both are
# updated; from an earlier release the update is ALTER EXTENSION pg_rating UPDATE, then the takeover
# (CREATE EXTENSION pg_rating_random_chess VERSION '0.3.0') and its update.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/restore_check.sh"
extdir=$(/usr/lib/postgresql/15/bin/pg_config --sharedir)/extension
fresh=$PGDATABASE
tables="users game_services service_accounts service_games pgn_games rankings elo_history ranking_players ledgers
        swiss_tournaments tournaments_players tournaments_games byes tournaments_ranking_reqs
        tournaments_ranked_games_reqs swiss_tournament_progress swiss_tournament_entrants swiss_tournament_standings"

# Every object of the extension with its full definition (pg_dump lists an extension's members
# only in binary-upgrade mode), without what differs between any two databases: object ids,
# transaction horizons, the dump's session key, and the value a column added with a default has
# in the rows that existed before (ADD COLUMN ... DEFAULT stores it once, not in every row). The configuration tables (whose order follows
# the order they were registered in) are listed by name with their dump filters.
schema() {
    q -d "$1" -c "SELECT c.relname, u.condition
                  FROM pg_extension x, unnest(x.extconfig, x.extcondition) AS u(oid, condition)
                  JOIN pg_class c ON c.oid = u.oid
                  WHERE x.extname IN ('pg_rating', 'pg_rating_random_chess') ORDER BY x.extname, 1"
    # (stderr dropped: pg_dump's warnings are not part of the schema)
    pg_dump --schema-only --binary-upgrade -d "$1" 2>/dev/null \
        | sed -e "s/\(binary_upgrade_create_empty_extension(.*\)'{[0-9,]*}', '{[^}]*}'/\1'{config tables}', '{their filters}'/" \
        | grep -v -e '^--' -e '^$' -e 'binary_upgrade_set_next_' -e '^UPDATE pg_catalog.pg_class' \
                  -e '^SET relfrozenxid' -e "^WHERE oid = '" -e '^\\restrict' -e '^\\unrestrict' \
                  -e '^SELECT pg_catalog.binary_upgrade_set_missing_value('
}

next=$(cat <<'SQL'
INSERT INTO service_games (moves, creation_date, result, clock, service_id, white_player, black_player, is_ranked)
VALUES ('{e2e4}', '2025-01-01', '(1-0,CHECKMATE)', '(5 minutes, 0)', 1, '1', '2', true),
       ('{e2e4}', '2023-06-01', '(0-1,TIMEOUT)', '(5 minutes, 0)', 1, '2', '3', true);
CALL recalculate_ranking(1);
UPDATE rankings SET k_factor = k_factor + 8 WHERE id = 2;
SQL
)

# The released install scripts stay in PostgreSQL's extension directory only while this runs.
released=("$here"/../upgrade/pg_rating--*.sql)
released_random_chess=("$here"/../upgrade/pg_rating_random_chess--*.sql)
trap 'for s in "${released[@]}" "${released_random_chess[@]}"; do rm -f "$extdir/$(basename "$s")"; done' EXIT
cp "${released[@]}" "${released_random_chess[@]}" "$extdir/"

for script in "${released[@]}"; do
    version=$(basename "$script" .sql); version=${version#pg_rating--}
    for sample in sample_rankings sample_tournaments; do
        old=${fresh}_from_${version//./_}
        psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $old" -c "CREATE DATABASE $old"
        if [[ -e "$here/../upgrade/pg_rating_random_chess--$version.sql" ]]; then
            # a release with both extensions: each is updated
            q -d "$old" -c "CREATE EXTENSION pg_rating VERSION '$version'" \
                -c "CREATE EXTENSION pg_rating_random_chess VERSION '$version'"
            update="ALTER EXTENSION pg_rating UPDATE; ALTER EXTENSION pg_rating_random_chess UPDATE"
        else
            q -d "$old" -c "CREATE EXTENSION pg_rating VERSION '$version'"
            update="ALTER EXTENSION pg_rating UPDATE;
                    CREATE EXTENSION pg_rating_random_chess VERSION '0.3.0';
                    ALTER EXTENSION pg_rating_random_chess UPDATE"
        fi
        psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $fresh" -c "CREATE DATABASE $fresh"
        q -d "$fresh" -c "CREATE EXTENSION pg_rating_random_chess CASCADE"
        q -d "$old" -f "$here/$sample.sql"
        q -d "$fresh" -f "$here/$sample.sql"
        q -d "$old" -c "$update"
        updated=$(q -d "$old" -c "SELECT string_agg(extname || ' ' || extversion, ', ' ORDER BY extname) FROM pg_extension")
        current=$(q -d "$fresh" -c "SELECT string_agg(extname || ' ' || extversion, ', ' ORDER BY extname) FROM pg_extension")
        if [[ "$updated" != "$current" ]]; then
            echo "$version with $sample: updated to $updated, not $current"; exit 1
        fi
        if ! diff <(schema "$fresh") <(schema "$old"); then
            echo "$version with $sample: the updated schema differs from a fresh install (< fresh, > updated)"; exit 1
        fi
        same_or_fail "$fresh" "$old" "$version with $sample: rows differ after the update"
        same_after "$fresh" "$old" "$next"
        psql -X -q -d postgres -c "DROP DATABASE $old"
        echo "from $version with $sample: same schema, same rows, same ratings afterwards"
    done
done

# Ledgers attached by every release with ledgers: after the update their games table has the one
# set of triggers a fresh install gives it (those of 0.3.0 to 0.6.0 had one set per ledger), and both
# ledgers go on following inserts, corrections and deletes like a fresh install.
tables="ledger_entries ledger_standings"
ledger_sample=$(cat <<'SQL'
CREATE TABLE matches (id bigint PRIMARY KEY, played_at timestamptz NOT NULL, white bigint NOT NULL,
                      black bigint NOT NULL, score float8 NOT NULL);
INSERT INTO ledgers (name, rating_system) VALUES ('elo', 'elo'), ('glicko', 'glicko2');
SELECT ledger_attach('elo', 'matches', 'id', 'played_at', 'white', 'black', 'score');
SELECT ledger_attach('glicko', 'matches', 'id', 'played_at', 'white', 'black', 'score');
INSERT INTO matches SELECT n, timestamptz '2025-01-01' + n * interval '1 hour', n % 7, (n + 1 + n % 3) % 7, (n % 3) / 2.0
FROM generate_series(1, 60) n;
SQL
)
ledger_next=$(cat <<'SQL'
INSERT INTO matches SELECT n, timestamptz '2025-01-01' + n * interval '1 hour', n % 7, (n + 2) % 7, (n % 3) / 2.0
FROM generate_series(61, 80) n;
UPDATE matches SET score = 1 - score WHERE id = 30;
DELETE FROM matches WHERE id = 50;
INSERT INTO matches VALUES (81, '2024-12-31', 1, 2, 1);
SQL
)
# The library is this build's: what the old ledger_attach made (one set of triggers per ledger,
# its id as the argument) is made by hand.
legacy_triggers=$(cat <<'SQL'
DROP TRIGGER pg_rating_ledgers_insert ON matches;
DROP TRIGGER pg_rating_ledgers_update ON matches;
DROP TRIGGER pg_rating_ledgers_delete ON matches;
DROP TRIGGER pg_rating_ledgers_truncate ON matches;
DO $$
BEGIN
    FOR l IN 1..2 LOOP
        EXECUTE format('CREATE TRIGGER pg_rating_ledger_%s_insert AFTER INSERT ON matches REFERENCING NEW TABLE AS pg_rating_new
                        FOR EACH STATEMENT EXECUTE FUNCTION ledger_games_changed(%L)', l, l);
        EXECUTE format('CREATE TRIGGER pg_rating_ledger_%s_update AFTER UPDATE ON matches
                        REFERENCING OLD TABLE AS pg_rating_old NEW TABLE AS pg_rating_new
                        FOR EACH STATEMENT EXECUTE FUNCTION ledger_games_changed(%L)', l, l);
        EXECUTE format('CREATE TRIGGER pg_rating_ledger_%s_delete AFTER DELETE ON matches REFERENCING OLD TABLE AS pg_rating_old
                        FOR EACH STATEMENT EXECUTE FUNCTION ledger_games_changed(%L)', l, l);
        EXECUTE format('CREATE TRIGGER pg_rating_ledger_%s_truncate AFTER TRUNCATE ON matches
                        FOR EACH STATEMENT EXECUTE FUNCTION ledger_games_changed(%L)', l, l);
    END LOOP;
END $$;
INSERT INTO matches VALUES (1000, '2025-03-01', 3, 4, 0.5);
SQL
)
triggers() { q -d "$1" -c "SELECT string_agg(tgname, ' ' ORDER BY tgname) FROM pg_trigger WHERE tgrelid = 'matches'::regclass"; }
for script in "${released[@]}"; do
    version=$(basename "$script" .sql); version=${version#pg_rating--}
    grep -q 'FUNCTION ledger_attach(' "$script" || continue
    old=${fresh}_ledgers_from_${version//./_}
    psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $old" -c "CREATE DATABASE $old" \
        -c "DROP DATABASE IF EXISTS $fresh" -c "CREATE DATABASE $fresh"
    # releases from 0.7.0 on made the one set of triggers themselves
    case $version in 0.[3-6].*) legacy=$legacy_triggers ;; *) legacy="INSERT INTO matches VALUES (1000, '2025-03-01', 3, 4, 0.5)" ;; esac
    q -d "$old" -c "CREATE EXTENSION pg_rating VERSION '$version'" -c "$ledger_sample" -c "$legacy" >/dev/null
    # (a Glicko-2 ledger made before 0.13.0 keeps the lichess rule; a fresh one takes Glickman's)
    q -d "$fresh" -c "CREATE EXTENSION pg_rating" -c "$ledger_sample" \
        -c "UPDATE ledgers SET glicko2_rule = 'lichess' WHERE name = 'glicko'" \
        -c "INSERT INTO matches VALUES (1000, '2025-03-01', 3, 4, 0.5)" >/dev/null
    q -d "$old" -c "ALTER EXTENSION pg_rating UPDATE"
    rules=$(q -d "$old" -c "SELECT string_agg(name || ' ' || glicko2_rule, ', ' ORDER BY name) FROM ledgers")
    if [[ "$rules" != "elo lichess, glicko lichess" ]]; then
        echo "ledgers from $version: rules after the update $rules, not the lichess rule they rated by"; exit 1
    fi
    if [[ "$(triggers "$old")" != "$(triggers "$fresh")" ]]; then
        echo "ledgers from $version: triggers $(triggers "$old"), not $(triggers "$fresh")"; exit 1
    fi
    same_after "$fresh" "$old" "$ledger_next"
    psql -X -q -d postgres -c "DROP DATABASE $old"
    echo "ledgers from $version: one set of triggers, same ratings afterwards"
done

# A foreign key of another role's table to a table of the extensions, made while 0.12.0 let roles
# hold REFERENCES: its cascade would fire that table's triggers as the extension's owner when
# pg_rating's code deletes the referenced rows. The update stops (42501, naming the key) and
# changes nothing; once the key is dropped it goes through.
old=${fresh}_foreign_key
psql -X -q -d postgres -c "DROP DATABASE IF EXISTS $old" -c "CREATE DATABASE $old" \
    -c "DROP ROLE IF EXISTS upgrade_referrer" -c "CREATE ROLE upgrade_referrer"
q -d "$old" -c "CREATE EXTENSION pg_rating VERSION '0.12.0'" -c "CREATE EXTENSION pg_rating_random_chess VERSION '0.12.0'" \
    -c "CREATE SCHEMA referrer AUTHORIZATION upgrade_referrer" \
    -c "GRANT REFERENCES ON byes TO upgrade_referrer" \
    -c "SET ROLE upgrade_referrer" \
    -c "CREATE TABLE referrer.held (t int, r int, u varchar,
            CONSTRAINT held_bye FOREIGN KEY (t, r, u) REFERENCES public.byes (tournament_id, round, user_id_in_service)
            ON DELETE CASCADE)"
if refused=$(psql -X -q -v ON_ERROR_STOP=1 -d "$old" -v VERBOSITY=verbose \
                 -c "\\set VERBOSITY verbose" -c "ALTER EXTENSION pg_rating UPDATE" 2>&1); then
    echo "the update from 0.12.0 went through a foreign key to byes"; exit 1
fi
if [[ $refused != *42501* || $refused != *"held_bye on referrer.held (owned by upgrade_referrer) references byes"* ]]; then
    echo "the update from 0.12.0 failed otherwise than on the foreign key: $refused"; exit 1
fi
if [[ $(q -d "$old" -c "SELECT extversion FROM pg_extension WHERE extname = 'pg_rating'") != 0.12.0 ]]; then
    echo "the refused update changed the extension's version"; exit 1
fi
q -d "$old" -c "ALTER TABLE referrer.held DROP CONSTRAINT held_bye" \
    -c "ALTER EXTENSION pg_rating UPDATE; ALTER EXTENSION pg_rating_random_chess UPDATE"
psql -X -q -d postgres -c "DROP DATABASE $old" -c "DROP ROLE upgrade_referrer"
echo "from 0.12.0 with a foreign key of another role's table to byes: refused (42501), then updated without it"
