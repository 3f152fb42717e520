#!/usr/bin/env bash
# The end-to-end suite (e2e/: Gherkin features, screen objects, Appium) against the simulated iPhone:
#
#     scripts/e2e.sh [PYTEST ARGS...]          # e.g. scripts/e2e.sh -k US3
#     E2E_SERVER=http://mac.local:4723 scripts/e2e.sh   # a real Appium server (docs/e2e.md)
#
# Without E2E_SERVER it starts `petspot appium` on a free port (building petspot when
# PETSPOT_BINARY is not given and .build/debug/petspot is missing) and stops it afterwards. The Python
# packages, pinned in e2e/requirements.txt, go into e2e/.venv. Reports: a JUnit XML and an HTML report in
# E2E_REPORTS (default .build/e2e). Exits with pytest's status; on a failure the server's log is printed.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
reports="${E2E_REPORTS:-$root/.build/e2e}"
mkdir -p "$reports"

venv="$root/e2e/.venv"
if [[ ! -x "$venv/bin/python" ]] || ! cmp -s e2e/requirements.txt "$venv/requirements.txt"; then
    echo "e2e: installing $(grep -cv '^#' e2e/requirements.txt) pinned packages into e2e/.venv" >&2
    rm -rf "$venv"
    python3 -m venv "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check -r e2e/requirements.txt
    cp e2e/requirements.txt "$venv/requirements.txt"
fi

server=""
log="$reports/appium-server.log"
cleanup() {
    if [[ -n "$server" ]]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
}
trap cleanup EXIT

if [[ -z "${E2E_SERVER:-}" ]]; then
    binary="${PETSPOT_BINARY:-.build/debug/petspot}"
    if [[ ! -x "$binary" ]]; then
        echo "e2e: building petspot" >&2
        swift build --product petspot
    fi
    port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    "$binary" appium --port "$port" > "$log" 2>&1 &
    server=$!
    export E2E_SERVER="http://127.0.0.1:$port"
    # Up to 120 s for the listing server's demo pets and the WebDriver port (a deadline, not a guess).
    deadline=$((SECONDS + 120))
    until curl -fsS "$E2E_SERVER/status" > /dev/null 2>&1; do
        if ! kill -0 "$server" 2>/dev/null; then echo "e2e: petspot appium exited:" >&2; cat "$log" >&2; exit 2; fi
        if (( SECONDS >= deadline )); then echo "e2e: petspot appium did not answer within 120 s" >&2; cat "$log" >&2; exit 2; fi
        sleep 0.2
    done
fi

echo "e2e: running against $E2E_SERVER" >&2
status=0
(cd e2e && "$venv/bin/python" -m pytest --junitxml="$reports/junit.xml" --html="$reports/report.html" \
    --self-contained-html "$@") || status=$?
if (( status != 0 )) && [[ -n "$server" ]]; then
    echo "e2e: failed; the simulated iPhone's server log:" >&2
    tail -n 50 "$log" >&2 || true
fi
exit "$status"
