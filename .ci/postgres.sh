#!/usr/bin/env bash
# Sourced by .ci/run: starts a throwaway PostgreSQL on 127.0.0.1 (trust auth, free port) and exports
# VERDICT_TEST_POSTGRES_URL for the storage tests. The server and its directory are removed on exit.
# Installs PostgreSQL with apt-get when initdb/pg_ctl are missing. Works as root (runs the server as
# the `postgres` user) or as an ordinary user.
#
# `verdict_pg_start_chaos` (called by .ci/run and Scripts/chaos.sh after sourcing) starts a second
# server of its own for the chaos run, which restarts it: it exports VERDICT_CHAOS_POSTGRES_URL and
# VERDICT_CHAOS_POSTGRES_RESTART, an executable that stops that server the hard way (`-m immediate`,
# as a crash would: it recovers on start) and starts it again.

verdict_pg_binaries() {
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

    if [ "$(id -u)" -eq 0 ]; then
        VERDICT_PG_USER=postgres
        id "$VERDICT_PG_USER" >/dev/null 2>&1 || useradd --system --no-create-home --shell /bin/sh "$VERDICT_PG_USER"
        if command -v runuser >/dev/null 2>&1; then
            VERDICT_PG_RUN_AS=(runuser -u "$VERDICT_PG_USER" --)
        else
            VERDICT_PG_RUN_AS=(su "$VERDICT_PG_USER" -s /bin/sh -c '"$0" "$@"')
        fi
    else
        VERDICT_PG_USER=$(id -un)
        VERDICT_PG_RUN_AS=()
    fi
}

# verdict_pg_instance DIR: initialises and starts a server in DIR on a free port; writes DIR/port
# and DIR/restart [SECONDS] (stop -m immediate, SECONDS down, then start with the same options).
verdict_pg_instance() {
    local dir=$1 port
    chmod 700 "$dir"
    [ "$(id -u)" -eq 0 ] && chown "$VERDICT_PG_USER" "$dir"
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()' 2>/dev/null) \
        || port=$(( 20000 + RANDOM % 20000 ))

    "${VERDICT_PG_RUN_AS[@]}" env PATH="$PATH" initdb -D "$dir/data" -U "$VERDICT_PG_USER" --auth=trust \
        --encoding=UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; return 1; }
    local options="-c listen_addresses=127.0.0.1 -p $port -k $dir -c max_connections=300 -c fsync=off"
    local run_as="" word
    for word in "${VERDICT_PG_RUN_AS[@]}"; do run_as+="$(printf '%q ' "$word")"; done
    cat > "$dir/restart" <<EOF
#!/bin/sh
# Restarts the PostgreSQL server in $dir: an immediate stop (no checkpoint, as after a crash), the
# given number of seconds down (default 0), then a start.
$run_as env PATH=$(printf '%q' "$PATH") pg_ctl -D $dir/data -m immediate -w stop >/dev/null 2>&1 || true
sleep "\${1:-0}"
exec $run_as env PATH=$(printf '%q' "$PATH") pg_ctl -D $dir/data -l $dir/server.log -w -t 60 -o "$options" start >/dev/null
EOF
    chmod 755 "$dir/restart"
    # The first start is the restart script's (its stop finds nothing running).
    "$dir/restart" || { cat "$dir/server.log" >&2; return 1; }

    local i
    for i in $(seq 1 60); do
        pg_isready -h 127.0.0.1 -p "$port" -q && break
        sleep 0.5
    done
    pg_isready -h 127.0.0.1 -p "$port" -q || { echo "postgres.sh: server not ready" >&2; return 1; }
    echo "$port" > "$dir/port"
}

# The servers' directories: in memory (/dev/shm) where the machine has it with room to spare (a
# container's is often 64 MB). The tests create and drop a database for each test; on a disk file
# system that file churn made PostgreSQL's kernel time a sixth of the whole suite's CPU
# (docs/development.md).
verdict_pg_parent() {
    local free_kb
    free_kb=$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $4 }')
    if [ -w /dev/shm ] && [ "${free_kb:-0}" -ge 2097152 ]; then echo /dev/shm; else echo "${TMPDIR:-/tmp}"; fi
}

verdict_pg_setup() {
    verdict_pg_binaries || return 1
    VERDICT_PG_DIR=$(mktemp -d "$(verdict_pg_parent)/verdict-pg.XXXXXX")
    trap verdict_pg_teardown EXIT
    verdict_pg_instance "$VERDICT_PG_DIR" || return 1
    local port
    port=$(cat "$VERDICT_PG_DIR/port")
    "${VERDICT_PG_RUN_AS[@]}" env PATH="$PATH" createdb -h 127.0.0.1 -p "$port" -U "$VERDICT_PG_USER" verdict_test

    export VERDICT_TEST_POSTGRES_URL="postgres://$VERDICT_PG_USER@127.0.0.1:$port/verdict_test?sslmode=disable"
    echo "== PostgreSQL $(postgres --version | awk '{print $3}') on 127.0.0.1:$port (VERDICT_TEST_POSTGRES_URL set)"
}

verdict_pg_start_chaos() {
    VERDICT_CHAOS_PG_DIR=$(mktemp -d "$(verdict_pg_parent)/verdict-chaos-pg.XXXXXX")
    verdict_pg_instance "$VERDICT_CHAOS_PG_DIR" || return 1
    local port
    port=$(cat "$VERDICT_CHAOS_PG_DIR/port")
    "${VERDICT_PG_RUN_AS[@]}" env PATH="$PATH" createdb -h 127.0.0.1 -p "$port" -U "$VERDICT_PG_USER" verdict_chaos
    export VERDICT_CHAOS_POSTGRES_URL="postgres://$VERDICT_PG_USER@127.0.0.1:$port/verdict_chaos?sslmode=disable"
    export VERDICT_CHAOS_POSTGRES_RESTART="$VERDICT_CHAOS_PG_DIR/restart"
    echo "== PostgreSQL for the chaos run on 127.0.0.1:$port (restarted by $VERDICT_CHAOS_POSTGRES_RESTART)"
}

verdict_pg_teardown() {
    local dir
    for dir in "${VERDICT_PG_DIR:-}" "${VERDICT_CHAOS_PG_DIR:-}"; do
        if [ -n "$dir" ] && [ -d "$dir" ]; then
            "${VERDICT_PG_RUN_AS[@]}" env PATH="$PATH" pg_ctl -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
            rm -rf "$dir"
        fi
    done
}

verdict_pg_setup || { echo "postgres.sh: could not start PostgreSQL" >&2; return 1 2>/dev/null || exit 1; }
