#!/usr/bin/env bash
# The API against its own OpenAPI document: serves a fresh SQLite database (500 demo pets) and runs
# schemathesis with every check (response schemas, status codes, headers, schema-valid requests
# accepted, invalid ones refused, undeclared methods answered 405 with Allow, …), deterministically:
#
#     scripts/conformance.sh [PETSPOT_BINARY]
#
# PETSPOT_BINARY defaults to .build/release/petspot, then .build/debug/petspot, and is built (release)
# when neither exists. schemathesis (pinned
# below) is installed from PyPI into a temporary virtual environment. Exits with schemathesis's status:
# 0 when it found nothing, 1 when it found a failure (each printed with a curl line that reproduces it).
set -euo pipefail
cd "$(dirname "$0")/.."
version="4.32.5"

binary="${1:-}"
if [[ -z "$binary" ]]; then
    for candidate in .build/release/petspot .build/debug/petspot; do
        if [[ -x "$candidate" ]]; then binary="$candidate"; break; fi
    done
fi
if [[ -z "$binary" ]]; then
    echo "conformance: building petspot (release)" >&2
    swift build -c release --product petspot >&2
    binary="$(swift build -c release --show-bin-path)/petspot"
fi
[[ -x "$binary" ]] || { echo "conformance: $binary is not an executable petspot" >&2; exit 2; }

work="$(mktemp -d)"
server=""
cleanup() {
    if [[ -n "$server" ]]; then kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

echo "conformance: installing schemathesis $version" >&2
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$version"

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
"$binary" serve --port "$port" --database "$work/pets.sqlite" > "$work/server.log" 2>&1 &
server=$!
base="http://127.0.0.1:$port"

status=0
"$work/venv/bin/schemathesis" --no-color run "$base/openapi.yaml" --url "$base" --wait-for-schema 60 \
    --checks all --generation-deterministic --max-examples 100 --workers 1 < /dev/null || status=$?
if ((status != 0)); then
    # What the server said about the failing requests (its log is otherwise deleted with the work folder).
    echo "conformance: schemathesis exited $status; the server's log:" >&2
    tail -n 100 "$work/server.log" >&2
fi
exit "$status"
