#!/usr/bin/env bash
# Builds the Debian package target/debian/postgresql-15-pg-rating_<version>-1_amd64.deb: the
# release library and both extensions (pg_rating, pg_rating_random_chess) laid out where Debian's
# PostgreSQL 15 looks for them, with a control file, the licence and a changelog. It installs with
# `apt-get install ./<file>.deb` on Debian 12 with PostgreSQL 15; no Rust needed there.
# Prints the path of the package.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
ensure_setup >&2
cd "$REPO_ROOT"

name=postgresql-15-pg-rating
version=$(extension_version)
revision=1
out=$REPO_ROOT/target/debian
root=$(mktemp -d /tmp/pg_rating_deb.XXXXXX)
trap 'rm -rf "$root"' EXIT

log "cargo pgrx package (release build)"
cargo pgrx package --pg-config "$PG_CONFIG" --out-dir "$root" >&2
install_random_chess "$root$("$PG_CONFIG" --sharedir)/extension"
library=$root$("$PG_CONFIG" --pkglibdir)/pg_rating.so
strip --strip-unneeded "$library"

# The library's own needs: the C library version it links against, and libgcc_s (unwinding).
glibc=$(objdump -T "$library" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1)

# The maintainer: DEB_MAINTAINER, else the author of the commit built.
maintainer=${DEB_MAINTAINER:-$(git log -1 --format='%an <%ae>' 2>/dev/null || echo "pg_rating developers <root@localhost>")}

doc=$root/usr/share/doc/$name
mkdir -p "$doc" "$root/DEBIAN"
cat > "$doc/copyright" <<COPYRIGHT
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: pg_rating

Files: *
Copyright: the pg_rating developers
License: GPL-3.0-or-later
 This program is free software: you can redistribute it and/or modify it under the terms of the GNU
 General Public License as published by the Free Software Foundation, either version 3 of the License,
 or (at your option) any later version.
 .
 On Debian systems, the complete text of the GNU General Public License version 3 can be found in
 /usr/share/common-licenses/GPL-3.
COPYRIGHT
{
    echo "$name ($version-$revision) bookworm; urgency=medium"
    echo
    # The release's entry of CHANGELOG.md, as the changelog's items.
    awk -v v="## $version" 'index($0, v) == 1 {on = 1; next} on && /^## / {exit} on' CHANGELOG.md \
        | sed -e '/^$/d' -e 's/^- /  * /' -e 's/^  \([^ *]\)/    \1/'
    echo
    echo " -- $maintainer  $(date -R -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)")"
} | gzip -9n > "$doc/changelog.Debian.gz"

size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
cat > "$root/DEBIAN/control" <<CONTROL
Package: $name
Version: $version-$revision
Architecture: amd64
Maintainer: $maintainer
Installed-Size: $size
Depends: postgresql-15, libc6 (>= $glibc), libgcc-s1 (>= 4.2)
Section: database
Priority: optional
Description: ratings, chess and Swiss tournaments inside PostgreSQL 15
 Two extensions: pg_rating (Elo, FIDE, Skemino and Glicko-2 ratings, chess positions, SAN and PGN,
 rating ledgers kept by triggers on any games table) and pg_rating_random_chess (the Random Chess
 schema with its rankings and Swiss tournaments). Run CREATE EXTENSION pg_rating; or
 CREATE EXTENSION pg_rating_random_chess CASCADE; in a database.
CONTROL

mkdir -p "$out"
deb=$out/${name}_${version}-${revision}_amd64.deb
chmod -R u+rwX,go+rX,go-w "$root"
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >&2
echo "$deb"
