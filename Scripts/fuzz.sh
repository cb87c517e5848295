#!/usr/bin/env bash
# Runs one of Verdict's libFuzzer targets for SECONDS seconds:
#   Scripts/fuzz.sh TARGET SECONDS [libFuzzer flags…]      e.g. Scripts/fuzz.sh intake 600 -jobs=2
#   Scripts/fuzz.sh --build                                 only builds the fuzzing binary
# Builds `verdict-fuzz` with -sanitize=fuzzer,address (VERDICT_FUZZ_SANITIZERS to change) into
# VERDICT_FUZZ_SCRATCH (default .build-fuzz, so the normal build is left alone; VERDICT_FUZZ_CONFIGURATION
# =release builds it optimised, for long runs), seeds it with the
# committed corpus Fuzz/TARGET/corpus and the regression inputs Fuzz/TARGET/crashes, and keeps what
# it learns in .build-fuzz/corpus/TARGET. libFuzzer's running log goes to .build-fuzz/TARGET.log;
# its last lines (the statistics, or the report of a finding) are printed at the end. A finding is
# written to .build-fuzz/findings/TARGET/ and the script fails; add the file to
# Fuzz/TARGET/crashes so `swift test` replays it from then on.
set -euo pipefail
cd "$(dirname "$0")/.."

usage="usage: Scripts/fuzz.sh TARGET SECONDS [libFuzzer flags…] | Scripts/fuzz.sh --build"
target=${1:?$usage}
build_only=""
if [ "$target" = "--build" ]; then
    build_only=yes
else
    seconds=${2:?$usage}
    shift 2
    [ -d "Fuzz/$target" ] || { echo "fuzz.sh: no target '$target' (targets: $(ls Fuzz | tr '\n' ' '))" >&2; exit 2; }
fi

scratch=${VERDICT_FUZZ_SCRATCH:-.build-fuzz}
sanitizers=${VERDICT_FUZZ_SANITIZERS:-fuzzer,address}
configuration=${VERDICT_FUZZ_CONFIGURATION:-debug}
mkdir -p "$scratch"
binary="$scratch/$configuration/verdict-fuzz"
# VERDICT_FUZZ_PREBUILT=1 (set by .ci/run right after `fuzz.sh --build`) skips the no-op rebuild.
if [ -z "$build_only" ] && [ "${VERDICT_FUZZ_PREBUILT:-0}" = 1 ] && [ -x "$binary" ]; then
    :
else
    # The linker warns once per sanitizer symbol ("Cannot export local symbol"): the build's output is
    # kept in a file and shown whole only when the build fails.
    if ! swift build --scratch-path "$scratch" -c "$configuration" --product verdict-fuzz \
        -Xswiftc "-sanitize=$sanitizers" -Xswiftc -DVERDICT_FUZZING >"$scratch/build.log" 2>&1; then
        cat "$scratch/build.log" >&2
        exit 1
    fi
    grep -v "Cannot export local symbol" "$scratch/build.log" | tail -n 3
    [ -z "$build_only" ] || exit 0
fi

learned="$scratch/corpus/$target"
findings="$scratch/findings/$target"
log="$scratch/$target.log"
mkdir -p "$learned" "$findings"
echo "== fuzzing $target for ${seconds}s (sanitizers: $sanitizers; log: $log)"
# The first directory receives new inputs; the committed ones are only read (a target without
# regressions has no crashes folder: git keeps no empty folder).
committed=("Fuzz/$target/corpus")
[ ! -d "Fuzz/$target/crashes" ] || committed+=("Fuzz/$target/crashes")
status=0
VERDICT_FUZZ_TARGET="$target" ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}" "$binary" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$findings/" "$@" "$learned" "${committed[@]}" >"$log" 2>&1 || status=$?
grep -v -E '^(#[0-9]+[[:space:]]+(NEW|REDUCE|pulse)|"|###### )' "$log" | tail -n 60
if [ "$status" -ne 0 ]; then
    echo "== fuzz.sh: $target found a problem (exit $status); inputs in $findings/" >&2
fi
exit "$status"
