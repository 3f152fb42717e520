#!/usr/bin/env python3
"""Prints the tests that started and did not finish, from a Swift Testing event stream (version 0).

    scripts/unfinished-tests.py EVENTS.jsonl

Each line of the stream is one JSON record; `testStarted`/`testEnded` events carry the test's ID, and
`test` records carry its display name. A stream cut off in the middle of a line (the process was
killed while writing) is read up to the last whole line.
"""
import json
import sys


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path = sys.argv[1]
    names: dict[str, str] = {}
    parameterized: set[str] = set()
    running: dict[str, None] = {}  # insertion-ordered: the order in which they started
    running_cases: dict[str, int] = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as stream:
            for line in stream:
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue
                payload = record.get("payload") or {}
                if record.get("kind") == "test":
                    test_id = payload.get("id")
                    if test_id:
                        names[test_id] = payload.get("displayName") or payload.get("name") or test_id
                        if payload.get("isParameterized"):
                            parameterized.add(test_id)
                    continue
                kind = payload.get("kind")
                test_id = payload.get("testID")
                if not test_id:
                    continue
                if kind == "testStarted":
                    running[test_id] = None
                elif kind == "testEnded":
                    running.pop(test_id, None)
                elif kind == "testCaseStarted":
                    running_cases[test_id] = running_cases.get(test_id, 0) + 1
                elif kind == "testCaseEnded":
                    running_cases[test_id] = running_cases.get(test_id, 0) - 1
    except FileNotFoundError:
        print(f"(no event stream at {path}: the test process had not started)")
        return 0
    # Suites end after their tests: list the innermost entries first, suites last.
    tests = [test_id for test_id in running if not any(other != test_id and other.startswith(test_id + "/") for other in running)]
    suites = [test_id for test_id in running if test_id not in tests]
    if not running:
        print("(every test that started had finished)")
    for test_id in tests + suites:
        cases = running_cases.get(test_id, 0)
        extra = f" ({cases} argument case(s) still running)" if cases > 0 and test_id in parameterized else ""
        kind = "suite" if test_id in suites else "test"
        name = names.get(test_id)
        label = f"{test_id} ({name})" if name and name not in test_id else test_id
        print(f"{kind}: {label}{extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
