#!/usr/bin/env bash
# The chaos run, longer than CI's: Scripts/chaos.sh [NOTIFICATIONS] [KILL_MILLISECONDS]
# (defaults 10000 and 3000). Starts a throwaway PostgreSQL server of its own (installed with
# apt-get if missing; .ci/postgres.sh), builds the tests, and runs ChaosTests: two `verdict serve`
# processes on that server, one SIGKILLed every KILL_MILLISECONDS and restarted, the server itself
# restarted twice, the simulator delivering with Apple's retries. Prints the figures
# (docs/reliability.md); exits non-zero when anything was lost, repeated unseen, or left dead.
set -euo pipefail
cd "$(dirname "$0")/.."
notifications=${1:-10000}
kill_ms=${2:-3000}
source .ci/postgres.sh
verdict_pg_start_chaos
swift build --build-tests
VERDICT_CHAOS_NOTIFICATIONS=$notifications VERDICT_CHAOS_KILL_MILLISECONDS=$kill_ms \
    swift test --skip-build --filter ChaosTests
