#!/usr/bin/env bash
# The Debian package of scripts/package.sh holds both extensions and works on PostgreSQL 15 without
# Rust: it is unpacked (dpkg -x) into a scratch copy of PostgreSQL 15's directories, a cluster run by
# that copy's binaries (which look for extensions beside themselves) runs the README's quick start,
# and the library its backends load is the package's.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../scripts/lib.sh"
version=$(extension_version)
deb=$("$here/../../scripts/package.sh" | tail -n 1)
echo "built $(basename "$deb"), $(du -k "$deb" | cut -f1) kB"

fields=$(dpkg-deb --field "$deb")
for field in "Package: postgresql-15-pg-rating" "Version: $version-1" "Architecture: amd64" \
             "Depends: postgresql-15, libc6 (>= "; do
    grep -qF "$field" <<<"$fields" || { echo "the control file lacks \"$field\":"; echo "$fields"; exit 1; }
done
contents=$(dpkg-deb --contents "$deb" | awk '{print $6}')
for f in usr/lib/postgresql/15/lib/pg_rating.so \
         usr/share/postgresql/15/extension/pg_rating.control \
         "usr/share/postgresql/15/extension/pg_rating--$version.sql" \
         usr/share/postgresql/15/extension/pg_rating--0.3.0--0.4.0.sql \
         usr/share/postgresql/15/extension/pg_rating_random_chess.control \
         "usr/share/postgresql/15/extension/pg_rating_random_chess--$version.sql" \
         usr/share/postgresql/15/extension/pg_rating_random_chess--0.3.0.sql \
         usr/share/doc/postgresql-15-pg-rating/copyright \
         usr/share/doc/postgresql-15-pg-rating/changelog.Debian.gz; do
    grep -qx "./$f" <<<"$contents" || { echo "the package lacks $f"; exit 1; }
done
echo "control file and contents as expected ($(wc -l <<<"$contents") entries)"
# apt resolves its dependencies on this machine (a simulation: nothing is installed)
if ! plan=$(apt-get install --simulate --no-install-recommends "$deb" 2>&1) \
        || ! grep -q '^Inst postgresql-15-pg-rating ' <<<"$plan"; then
    echo "apt-get install --simulate ./$(basename "$deb") fails:"; echo "$plan" | tail -n 5; exit 1
fi
echo "apt-get would install it: $(grep '^Inst postgresql-15-pg-rating ' <<<"$plan")"

root=$(mktemp -d /tmp/pg_rating_deb_root.XXXXXX)
chmod 755 "$root"
trap 'cluster_stop; rm -rf "$root"' EXIT
mkdir -p "$root/usr/lib/postgresql" "$root/usr/share/postgresql"
cp -a /usr/lib/postgresql/15 "$root/usr/lib/postgresql/"
cp -a /usr/share/postgresql/15 "$root/usr/share/postgresql/"
rm -f "$root"/usr/lib/postgresql/15/lib/pg_rating*.so "$root"/usr/share/postgresql/15/extension/pg_rating*
dpkg -x "$deb" "$root"

PG_BIN=$root/usr/lib/postgresql/15/bin
cluster_start
export PGDATABASE=postgres
# every sql block of the README's quick start (the section up to the next heading)
quick_start=$(awk '/^## / {on = /^## Quick start/} on && /^```sql/ {block = 1; next} block && /^```/ {block = 0}
                   block' "$here/../../README.md")
psql -X -q -v ON_ERROR_STOP=1 <<<"$quick_start" >/dev/null
extensions=$(psql -X -At -c "SELECT string_agg(extname || ' ' || extversion, ', ' ORDER BY extname)
                              FROM pg_extension WHERE extname LIKE 'pg_rating%'")
echo "extensions: $extensions"
[[ $extensions == "pg_rating $version, pg_rating_random_chess $version" ]] || { echo "wrong extensions"; exit 1; }
# the backend's own memory map, read once a call has loaded the library (superuser: absolute paths
# are allowed)
library=$(psql -X -At -c "SELECT game_score('(1-0,TIMEOUT)')" -c "SELECT pg_read_file('/proc/self/maps')" \
              | grep -o '/[^ ]*pg_rating\.so' | sort -u)
echo "the backend loaded $library"
[[ $library == "$root/usr/lib/postgresql/15/lib/pg_rating.so" ]] || { echo "not the package's library"; exit 1; }
ratings=$(psql -X -At -c "SELECT string_agg(user_id_in_service || '=' || round(elo), ' ' ORDER BY user_id_in_service) FROM elo_history")
echo "quick start's ratings: $ratings"
[[ $ratings == "1=820 2=780" ]] || { echo "expected 1=820 2=780"; exit 1; }
