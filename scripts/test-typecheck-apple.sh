#!/usr/bin/env bash
# The test of scripts/typecheck-apple.sh's failure report:
# given a stub module that does not compile (a data-race error, found only when the stubs are built),
# when typecheck-apple.sh runs on it, then it exits 1 and its FAILED summary names the module and the file.
# The repository is left as it is: the broken stubs are a copy, passed through APPLE_SDK_STUBS.
set -euo pipefail
cd "$(dirname "$0")/.."

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/stubs"
cp -R AppleSDKStubs/. "$work/stubs/"
broken="$work/stubs/CoreLocation/CoreLocation.swift"
# Swift 6: nonisolated global mutable state is a data-race error.
printf '\npublic var sharedCounterForTheTest = 0\n' >> "$broken"

status=0
APPLE_SDK_STUBS="$work/stubs" scripts/typecheck-apple.sh > "$work/out.log" 2>&1 || status=$?

failures=0
expect() {
    if ! "$@"; then
        echo "test-typecheck-apple: FAILED: $*" >&2
        failures=$((failures + 1))
    fi
}
expect test "$status" -eq 1
expect grep -q '^typecheck-apple: FAILED' "$work/out.log"
expect grep -Eq 'stub module CoreLocation \(.*\) does not compile: .*CoreLocation\.swift' "$work/out.log"
if ((failures)); then
    echo "--- typecheck-apple.sh printed:" >&2
    tail -20 "$work/out.log" >&2
    exit 1
fi
echo "test-typecheck-apple: givenBrokenStubModule_whenTypeChecked_thenFailedSummaryNamesTheFile passed"
