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
tables="users game_services service_accounts service_games pgn_games rankings elo_history ranking_players
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
    # (stderr: pg_dump warns of elo_history's foreign key to itself)
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
