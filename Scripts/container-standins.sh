#!/usr/bin/env bash
# For machines whose Docker engine cannot pull from Docker Hub (this project's build machines):
# builds local stand-ins for the three base images from Debian 12's own packages, tagged
# verdict-standin/… so they are never mistaken for the official images, and prints the variables
# that make Scripts/container-check.sh use them:
#   verdict-standin/debian:bookworm-slim  debootstrap --variant=minbase bookworm
#   verdict-standin/swift:6.3-bookworm    the same plus the official swift image's build packages,
#                                         the Swift toolchain installed on this machine
#                                         ($SWIFT_TOOLCHAIN, default /opt/swift) in /usr, and the
#                                         machine's package mirror when git redirects GitHub to one
#   verdict-standin/postgres:15           Debian's PostgreSQL 15 with the official postgres image's
#                                         POSTGRES_USER/PASSWORD/DB and data directory
# Needs root, debootstrap and Debian's mirror. Takes a few minutes and ≈ 5 GB of disk.
#
#   eval "$(Scripts/container-standins.sh)" && Scripts/container-check.sh
set -euo pipefail
toolchain=${SWIFT_TOOLCHAIN:-/opt/swift}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -x "$toolchain/usr/bin/swift" ] || { echo "no Swift toolchain at $toolchain (set SWIFT_TOOLCHAIN)" >&2; exit 1; }

# Imports the root file system in $1 as image $2.
import_root() {
    rm -rf "$1"/var/cache/apt/archives/*.deb "$1"/var/lib/apt/lists/*
    tar -C "$1" -c . | docker import -c 'CMD ["bash"]' - "$2" >/dev/null
}

echo "building verdict-standin/debian:bookworm-slim" >&2
debootstrap --variant=minbase bookworm "$work/slim" "$mirror" >&2
import_root "$work/slim" verdict-standin/debian:bookworm-slim

echo "building verdict-standin/swift:6.3-bookworm" >&2
debootstrap --variant=minbase --include=binutils,git,gnupg2,libc6-dev,libcurl4-openssl-dev,libedit2,libgcc-12-dev,libpython3-dev,libsqlite3-0,libstdc++-12-dev,libxml2-dev,libncurses-dev,libz3-dev,pkg-config,tzdata,zlib1g-dev,unzip,ca-certificates \
    bookworm "$work/swift" "$mirror" >&2
cp -a "$toolchain/usr/." "$work/swift/usr/"
# A machine that resolves packages from a local mirror (git's url.<mirror>.insteadOf) lends it.
packages=$(git config --system --get-regexp '^url\..*\.insteadof$' 2>/dev/null | awk '$2 == "https://github.com/" { print $1; exit }' \
    | sed -e 's/^url\.//' -e 's/\.insteadof$//')
if [ -n "$packages" ] && [ -d "$packages" ]; then
    mkdir -p "$work/swift/$(dirname "$packages")"
    cp -a "$packages" "$work/swift/$packages"
    printf '[url "%s"]\n\tinsteadOf = https://github.com/\n' "$packages" > "$work/swift/etc/gitconfig"
fi
import_root "$work/swift" verdict-standin/swift:6.3-bookworm

echo "building verdict-standin/postgres:15" >&2
mkdir -p "$work/postgres"
cat > "$work/postgres/entrypoint.sh" <<'EOF'
#!/bin/bash
set -euo pipefail
user=${POSTGRES_USER:-postgres}
mkdir -p "$PGDATA" /run/postgresql
chown -R postgres:postgres "$PGDATA" /run/postgresql
chmod 700 "$PGDATA"
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    printf '%s\n' "${POSTGRES_PASSWORD:?POSTGRES_PASSWORD is required}" > /tmp/password
    chown postgres /tmp/password
    su postgres -c "initdb -D '$PGDATA' -U '$user' --pwfile=/tmp/password --auth-host=scram-sha-256 --auth-local=trust" >/dev/null
    rm /tmp/password
    echo "host all all 0.0.0.0/0 scram-sha-256" >> "$PGDATA/pg_hba.conf"
    su postgres -c "pg_ctl -D '$PGDATA' -o '-c listen_addresses=' -w start" >/dev/null
    [ "${POSTGRES_DB:-$user}" = postgres ] || su postgres -c "createdb -U '$user' '${POSTGRES_DB:-$user}'"
    su postgres -c "pg_ctl -D '$PGDATA' -m fast -w stop" >/dev/null
fi
exec su postgres -c "exec postgres -D '$PGDATA' -c listen_addresses='*'"
EOF
chmod 755 "$work/postgres/entrypoint.sh"
cat > "$work/postgres/Dockerfile" <<'EOF'
FROM verdict-standin/debian:bookworm-slim
RUN apt-get -q update && DEBIAN_FRONTEND=noninteractive apt-get -q install -y --no-install-recommends postgresql-15 \
    && rm -rf /var/lib/apt/lists/*
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
COPY entrypoint.sh /usr/local/bin/entrypoint.sh
ENTRYPOINT ["/usr/local/bin/entrypoint.sh"]
EOF
docker build -q -t verdict-standin/postgres:15 "$work/postgres" >&2

echo "SWIFT_IMAGE=verdict-standin/swift:6.3-bookworm RUNTIME_IMAGE=verdict-standin/debian:bookworm-slim POSTGRES_IMAGE=verdict-standin/postgres:15; export SWIFT_IMAGE RUNTIME_IMAGE POSTGRES_IMAGE"
