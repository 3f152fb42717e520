#!/usr/bin/env bash
# Runs the tests many times to find the rare run that hangs:
#
#     scripts/stress-tests.sh RUNS [FILTER]
#
# Builds once, then runs the Swift Testing tests of the built test bundle (what `swift test` runs,
# without its start-up cost) RUNS times, with `--filter FILTER` if given, each under a time limit
# (STRESS_TIMEOUT seconds, default 600; a whole run takes about a minute here). A run still going at
# its limit is a hang: the script prints the tests that had started and not finished and every
# thread's backtrace of the stuck test process (see scripts/watch-tests.sh), kills it and goes on.
# STRESS_SKIP passes `--skip` too.
# Ends with "N of RUNS runs hung" and "M of RUNS runs failed" (a failure that did not hang); exits 1
# if any run hung or failed.
set -uo pipefail

usage() {
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

[[ "${1:-}" == --help || "${1:-}" == -h ]] && usage
(($# >= 1 && $# <= 2)) || usage
runs="$1"
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "stress-tests: RUNS must be a positive whole number, got '$runs'" >&2; exit 2; }
limit="${STRESS_TIMEOUT:-600}"
[[ "$limit" =~ ^[1-9][0-9]*$ ]] || { echo "stress-tests: STRESS_TIMEOUT must be whole seconds, got '$limit'" >&2; exit 2; }

cd "$(dirname "$0")/.."
arguments=(--testing-library swift-testing)
[[ -n "${2:-}" ]] && arguments+=(--filter "$2")
[[ -n "${STRESS_SKIP:-}" ]] && arguments+=(--skip "$STRESS_SKIP")

echo "stress-tests: building the tests once" >&2
swift build --build-tests >&2 || { echo "stress-tests: the build failed" >&2; exit 2; }
bundle="$(swift build --show-bin-path)/PetSpotPackageTests.xctest"
[[ -x "$bundle" ]] || { echo "stress-tests: the test bundle $bundle was not built" >&2; exit 2; }

log="$(mktemp "${TMPDIR:-/tmp}/petspot-stress.XXXXXX")"
trap 'rm -f "$log"' EXIT
hung=0
failed=0
for ((run = 1; run <= runs; run++)); do
    start=$SECONDS
    scripts/watch-tests.sh --timeout "$limit" "$bundle" "${arguments[@]}" >"$log" 2>&1
    status=$?
    if ((status == 124)); then
        hung=$((hung + 1))
        echo "run $run: HUNG after ${limit} s" >&2
        sed -n '/^watch-tests: HUNG/,$p' "$log" >&2
    elif ((status != 0)); then
        failed=$((failed + 1))
        echo "run $run: FAILED (exit $status)" >&2
        grep -E "✘|error:|failed" "$log" | head -40 >&2
    else
        echo "run $run: passed in $((SECONDS - start)) s" >&2
    fi
done
echo "$hung of $runs runs hung"
echo "$failed of $runs runs failed"
((hung == 0 && failed == 0))
