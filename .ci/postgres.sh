#!/usr/bin/env bash
# Sourced by .ci/run: starts a throwaway PostgreSQL on 127.0.0.1 (trust auth, free port) and exports
# VERDICT_TEST_POSTGRES_URL for the storage tests. The server and its directory are removed on exit.
# Installs PostgreSQL with apt-get when initdb/pg_ctl are missing. Works as root (runs the server as
# the `postgres` user) or as an ordinary user.

verdict_pg_setup() {
    local bindir
    if ! command -v initdb >/dev/null 2>&1 || ! command -v pg_ctl >/dev/null 2>&1; then
        bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
        if [ -z "$bindir" ]; then
            echo "== installing PostgreSQL (apt-get)"
            local sudo=""
            [ "$(id -u)" -ne 0 ] && sudo="sudo"
            $sudo apt-get update -qq
            DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null
            bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
        fi
        [ -n "$bindir" ] || { echo "postgres.sh: PostgreSQL binaries not found" >&2; return 1; }
        export PATH="$bindir:$PATH"
    fi

    local user run_as
    if [ "$(id -u)" -eq 0 ]; then
        user=postgres
        id "$user" >/dev/null 2>&1 || useradd --system --no-create-home --shell /bin/sh "$user"
        if command -v runuser >/dev/null 2>&1; then
            run_as=(runuser -u "$user" --)
        else
            run_as=(su "$user" -s /bin/sh -c '"$0" "$@"')
        fi
    else
        user=$(id -un)
        run_as=()
    fi

    VERDICT_PG_DIR=$(mktemp -d /tmp/verdict-pg.XXXXXX)
    chmod 700 "$VERDICT_PG_DIR"
    [ "$(id -u)" -eq 0 ] && chown "$user" "$VERDICT_PG_DIR"

    local port
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()' 2>/dev/null) \
        || port=$(( 20000 + RANDOM % 20000 ))

    "${run_as[@]}" env PATH="$PATH" initdb -D "$VERDICT_PG_DIR/data" -U "$user" --auth=trust \
        --encoding=UTF8 --no-locale >"$VERDICT_PG_DIR/initdb.log" 2>&1 \
        || { cat "$VERDICT_PG_DIR/initdb.log" >&2; return 1; }
    "${run_as[@]}" env PATH="$PATH" pg_ctl -D "$VERDICT_PG_DIR/data" -l "$VERDICT_PG_DIR/server.log" -w -t 60 \
        -o "-c listen_addresses=127.0.0.1 -p $port -k $VERDICT_PG_DIR -c max_connections=300 -c fsync=off" \
        start >/dev/null || { cat "$VERDICT_PG_DIR/server.log" >&2; return 1; }
    VERDICT_PG_RUN_AS=("${run_as[@]}")
    trap verdict_pg_teardown EXIT

    local i
    for i in $(seq 1 60); do
        pg_isready -h 127.0.0.1 -p "$port" -q && break
        sleep 0.5
    done
    pg_isready -h 127.0.0.1 -p "$port" -q || { echo "postgres.sh: server not ready" >&2; return 1; }
    "${run_as[@]}" env PATH="$PATH" createdb -h 127.0.0.1 -p "$port" -U "$user" verdict_test

    export VERDICT_TEST_POSTGRES_URL="postgres://$user@127.0.0.1:$port/verdict_test?sslmode=disable"
    echo "== PostgreSQL $(postgres --version | awk '{print $3}') on 127.0.0.1:$port (VERDICT_TEST_POSTGRES_URL set)"
}

verdict_pg_teardown() {
    if [ -n "${VERDICT_PG_DIR:-}" ] && [ -d "$VERDICT_PG_DIR" ]; then
        "${VERDICT_PG_RUN_AS[@]}" env PATH="$PATH" pg_ctl -D "$VERDICT_PG_DIR/data" -m immediate -w stop >/dev/null 2>&1 || true
        rm -rf "$VERDICT_PG_DIR"
    fi
}

verdict_pg_setup || { echo "postgres.sh: could not start PostgreSQL" >&2; return 1 2>/dev/null || exit 1; }
