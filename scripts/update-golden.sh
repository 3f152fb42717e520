#!/usr/bin/env bash
# Rewrites the expected event log (`NAME.expected.jsonl`) of every scenario in Scenarios/ from what
# `petspot run --json` prints now. Review the diff before committing it.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product petspot
for scenario in Scenarios/*.json; do
    .build/debug/petspot run --scenario "$scenario" --json > "${scenario%.json}.expected.jsonl"
done
git status --short Scenarios/
