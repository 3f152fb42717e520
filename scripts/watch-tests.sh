#!/usr/bin/env bash
# Runs the tests under a time limit, and explains a hang instead of waiting for it:
#
#     scripts/watch-tests.sh [--timeout SECONDS] [--] swift test [ARGUMENT...]
#     scripts/watch-tests.sh [--timeout SECONDS] [--] .build/debug/PetSpotPackageTests.xctest --testing-library swift-testing [ARGUMENT...]
#
# The command is `swift test` or the test bundle itself; the script adds Swift Testing's event-stream
# options, so what ran is known even when the process never exits. When the
# time limit passes with the tests still running, the script prints
#   - every test that had started and not finished,
#   - every thread's backtrace of the stuck test process (gdb; install Debian's `gdb` for this),
# then kills the test process and everything it started, and exits 124. Otherwise it exits with the
# command's status. Default limit: 1200 s (PETSPOT_TEST_TIMEOUT overrides it).
set -uo pipefail

usage() {
    sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
}

timeout_seconds="${PETSPOT_TEST_TIMEOUT:-1200}"
while (($#)); do
    case "$1" in
        --timeout)
            (($# >= 2)) || { echo "watch-tests: --timeout needs a number of seconds" >&2; exit 2; }
            timeout_seconds="$2"; shift 2 ;;
        --timeout=*) timeout_seconds="${1#--timeout=}"; shift ;;
        --help|-h) usage ;;
        --) shift; break ;;
        *) break ;;
    esac
done
[[ "$timeout_seconds" =~ ^[1-9][0-9]*$ ]] \
    || { echo "watch-tests: the time limit must be a whole number of seconds, got '$timeout_seconds'" >&2; exit 2; }
(($#)) || { echo "watch-tests: no test command given" >&2; usage; }

here="$(cd "$(dirname "$0")" && pwd)"
workdir="$(mktemp -d "${TMPDIR:-/tmp}/petspot-watch.XXXXXX")" || { echo "watch-tests: no temporary directory" >&2; exit 2; }
workdir="$(cd "$workdir" && pwd -P)"
events="$workdir/events.jsonl"

# The command and every process it started, at any depth: `swift test` starts the test bundle in a
# process group of its own, and tests start `petspot` children, so a process group is not enough.
family() {
    local queue=("$1") pid child
    while ((${#queue[@]})); do
        pid="${queue[0]}"
        queue=("${queue[@]:1}")
        echo "$pid"
        for child in $(pgrep -P "$pid"); do queue+=("$child"); done
    done
}

end_all() {
    local pids
    pids="$(family "$leader")"
    # shellcheck disable=SC2086
    kill -KILL $pids 2>/dev/null
    wait "$leader" 2>/dev/null
}

"$@" --event-stream-output-path "$events" --event-stream-version 0 &
leader=$!
trap 'rm -rf "$workdir"' EXIT
trap 'end_all; rm -rf "$workdir"; trap - INT; kill -INT $$' INT
trap 'end_all; rm -rf "$workdir"; trap - TERM; kill -TERM $$' TERM

deadline=$((SECONDS + timeout_seconds))
while kill -0 "$leader" 2>/dev/null && ((SECONDS < deadline)); do
    sleep 0.2
done

if ! kill -0 "$leader" 2>/dev/null; then
    wait "$leader"
    exit $?
fi

echo "" >&2
echo "watch-tests: HUNG: the tests were still running after ${timeout_seconds} s" >&2
echo "== tests that started and did not finish" >&2
python3 "$here/unfinished-tests.py" "$events" >&2 || echo "(python3 is needed to read $events)" >&2
# The test process is the one that opened the event stream: the command itself, or the child that
# `swift test` starts.
for pid in $(family "$leader"); do
    if ls -l "/proc/$pid/fd" 2>/dev/null | grep -qF "$events"; then
        echo "== every thread of the test process $pid ($(tr '\0' ' ' <"/proc/$pid/cmdline" | cut -c1-120))" >&2
        if command -v gdb >/dev/null; then
            timeout 120 gdb -p "$pid" -batch -nx -ex "set pagination off" -ex "thread apply all bt" 2>&1 \
                | grep -v "^\[New LWP\|^warning: \|^\[Thread debugging\|^Using host libthread_db" >&2
            ((PIPESTATUS[0] == 0)) || echo "(gdb could not attach: the process may not be traceable here)" >&2
        else
            echo "(gdb is not installed: apt-get install -y gdb)" >&2
        fi
    fi
done
end_all
exit 124
