#!/usr/bin/env bash
# Builds the Docker image and checks it in a real container engine, end to end:
#   1. `docker build` (the Dockerfile as shipped; base images overridable, see below);
#   2. the image runs as uid 10001 with `verdict serve` as its entry point;
#   3. `docker run` on SQLite in a volume: /readyz answers 200, the image's HEALTHCHECK turns
#      healthy, and `verdict bench intake` (run from the same image) posts validly signed
#      notifications that are all stored (2xx) and processed;
#   4. `docker compose` with the shipped docker-compose.yml (Verdict + PostgreSQL), running the
#      image built in step 1: the same.
# Needs Docker with the compose plugin and, for the runtime stage, Debian's package mirror.
# Everything it creates (containers, volumes, a temporary directory) is removed on exit.
#
#   Scripts/container-check.sh
#   SWIFT_IMAGE=… RUNTIME_IMAGE=… POSTGRES_IMAGE=… Scripts/container-check.sh   # other base images
set -euo pipefail
cd "$(dirname "$0")/.."
image=verdict:check
count=${CHECK_COUNT:-500}
work=$(mktemp -d)
chmod 755 "$work"
token=$(od -An -N24 -tx1 /dev/urandom | tr -d ' \n')
sqlite_port=18080
compose_port=18081

cleanup() {
    docker rm -f verdict-check-sqlite >/dev/null 2>&1 || true
    docker volume rm verdict-check-data >/dev/null 2>&1 || true
    if [ -f "$work/compose/docker-compose.yml" ]; then
        docker compose --project-name verdict-check --env-file "$work/compose/.env" \
            -f "$work/compose/docker-compose.yml" -f "$work/compose/override.yml" down -v >/dev/null 2>&1 || true
    fi
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "container check FAILED: $*" >&2; exit 1; }
step() { echo "== $*"; }

# Polls the service at $1 until /readyz answers 200 (at most $2 seconds), naming database $3.
wait_ready() {
    for _ in $(seq "$2"); do
        if [ "$(curl -s -o "$work/readyz" -w '%{http_code}' "$1/readyz" || true)" = 200 ]; then
            grep -q "$3" "$work/readyz" || fail "$1/readyz does not report $3"
            return 0
        fi
        sleep 1
    done
    fail "$1/readyz did not answer 200 within $2 s"
}

# Waits for a container's HEALTHCHECK to report healthy (the first probe runs after 30 s).
wait_healthy() {
    for _ in $(seq 90); do
        status=$(docker inspect --format '{{.State.Health.Status}}' "$1")
        [ "$status" = healthy ] && return 0
        [ "$status" = unhealthy ] && fail "$1 is unhealthy"
        sleep 1
    done
    fail "$1 did not turn healthy within 90 s"
}

# Runs the load generator from the image against $1, waiting for processing (--token).
bench() {
    docker run --rm --network host --user "$(id -u):$(id -g)" -v "$work/bench:/bench" "$image" \
        bench intake --url "$1/v1/notifications" --count "$count" --concurrency 8 --state-dir /bench \
        --token "$token" || fail "bench intake against $1"
}

step "docker build"
build_args=()
[ -n "${SWIFT_IMAGE:-}" ] && build_args+=(--build-arg "SWIFT_IMAGE=$SWIFT_IMAGE")
[ -n "${RUNTIME_IMAGE:-}" ] && build_args+=(--build-arg "RUNTIME_IMAGE=$RUNTIME_IMAGE")
docker build "${build_args[@]}" -t "$image" .

step "image: user and entry point"
[ "$(docker run --rm --entrypoint id "$image" -u)" = 10001 ] || fail "the image does not run as uid 10001"
[ "$(docker image inspect --format '{{json .Config.Entrypoint}} {{json .Config.Cmd}}' "$image")" = '["verdict"] ["serve"]' ] \
    || fail "the entry point is not verdict serve"

step "bench PKI"
mkdir -p "$work/bench"
chmod 777 "$work/bench"
docker run --rm --user "$(id -u):$(id -g)" -v "$work/bench:/bench" "$image" \
    bench intake --print-setup --state-dir /bench >/dev/null
chmod -R a+rX "$work/bench"
[ -f "$work/bench/pki/root.der" ] || fail "the bench wrote no root certificate"

step "docker run on SQLite"
docker run -d --name verdict-check-sqlite -p "127.0.0.1:$sqlite_port:8080" \
    -e VERDICT_BUNDLE_ID=com.example.bench -e VERDICT_ENVIRONMENTS=Sandbox \
    -e VERDICT_ROOT_CERTIFICATES=/bench/pki/root.der -e VERDICT_API_TOKENS="$token" \
    -e VERDICT_RECONCILE_INTERVAL=0 -e VERDICT_LOG_LEVEL=warning \
    -v "$work/bench/pki:/bench/pki:ro" -v verdict-check-data:/var/lib/verdict "$image" >/dev/null
wait_ready "http://127.0.0.1:$sqlite_port" 60 sqlite
bench "http://127.0.0.1:$sqlite_port"
wait_healthy verdict-check-sqlite
docker exec verdict-check-sqlite test -s /var/lib/verdict/verdict.sqlite || fail "no SQLite database in the volume"

step "docker compose with PostgreSQL"
mkdir -p "$work/compose/secrets"
cp docker-compose.yml "$work/compose/"
cat > "$work/compose/.env" <<EOF
VERDICT_BUNDLE_ID=com.example.bench
VERDICT_ENVIRONMENTS=Sandbox
VERDICT_API_TOKENS=$token
VERDICT_PUBLISHED_PORT=$compose_port
VERDICT_LOG_LEVEL=warning
POSTGRES_PASSWORD=check$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
EOF
# The check's own additions: the image built above, the bench's root certificate trusted.
{
    echo "services:"
    if [ -n "${POSTGRES_IMAGE:-}" ]; then
        echo "  postgres:"
        echo "    image: $POSTGRES_IMAGE"
    fi
    echo "  verdict:"
    echo "    image: $image"
    echo "    environment:"
    echo "      VERDICT_ROOT_CERTIFICATES: /bench/pki/root.der"
    echo "      VERDICT_RECONCILE_INTERVAL: \"0\""
    echo "    volumes:"
    echo "      - $work/bench/pki:/bench/pki:ro"
} > "$work/compose/override.yml"
compose=(docker compose --project-name verdict-check --env-file "$work/compose/.env"
         -f "$work/compose/docker-compose.yml" -f "$work/compose/override.yml")
# The image built above (same Dockerfile and context): no second release build.
"${compose[@]}" up -d --no-build
wait_ready "http://127.0.0.1:$compose_port" 120 postgres
bench "http://127.0.0.1:$compose_port"
wait_healthy "$("${compose[@]}" ps -q verdict)"

echo "container check passed"
