#!/usr/bin/env bash
# The tests of scripts/check-requirement-refs.py, on throw-away repositories (the real one is not
# touched): a clean one passes; an undefined id, a list of ids, each other spelling of a citation, and
# an entry naming a missing test each fail with a line that names the file and what is wrong. Prints
# PASS/FAIL per case; exits 1 if any case fails.
set -uo pipefail
cd "$(dirname "$0")/.."
checker="$PWD/scripts/check-requirement-refs.py"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0

# make_repo NAME SWIFT DOC: a repository with one test file and a requirements file.
make_repo() {
    local root="$work/$1"
    mkdir -p "$root/scripts" "$root/docs" "$root/Sources/A" "$root/Tests/ATests"
    cp "$checker" "$root/scripts/"
    printf '%s\n' "$2" > "$root/Tests/ATests/ATests.swift"
    printf '%s\n' "$3" > "$root/docs/requirements.md"
    echo "$root"
}

# expect NAME REPO STATUS TEXT [ARGS...]: the checker exits with STATUS and prints TEXT.
expect() {
    local name="$1" repo="$2" status="$3" text="$4"
    shift 4
    local output actual
    output="$(python3 "$repo/scripts/check-requirement-refs.py" "$@" 2>&1)"
    actual=$?
    if [[ $actual == "$status" ]] && grep -qF -- "$text" <<<"$output"; then
        echo "PASS $name"
    else
        echo "FAIL $name: exit $actual (want $status), output:"; echo "$output"
        failures=$((failures + 1))
    fi
}

doc='- **FR-001** Read the status. `ATests.swift` › `givenA_whenB_thenC`
- **Rule 5** A rule.
  Not covered.'
test_file='// FR-001, rule 5
func givenA_whenB_thenC() {}'

clean="$(make_repo clean "$test_file" "$doc")"
expect givenCitationsOfDefinedIds_whenChecked_thenOK "$clean" 0 "OK: 2 citations" --check-evidence
undefined="$(make_repo undefined "$test_file
// rule 9" "$doc")"
expect givenAnUndefinedRule_whenChecked_thenItIsNamedWithItsLine "$undefined" 1 "Tests/ATests/ATests.swift:3: unresolved reference 'rule 9'"
listed="$(make_repo listed "$test_file
// rules 5 and 7" "$doc")"
expect givenAListOfRules_whenChecked_thenOneIdPerCitationIsAsked "$listed" 1 "write 'rules 5' as one id per citation"
others="$(make_repo others "$test_file
// rule 5–7; FR-001/002; user story 1; fr-001; rule no. 5; departures 5 and 7" "$doc")"
expect givenEachOtherSpelling_whenChecked_thenEachIsRefused "$others" 1 "FAILED: 6 problem(s)"
missing="$(make_repo missing "// FR-001" "$doc")"
expect givenAnEntryNamingAMissingTest_whenEvidenceChecked_thenItIsReported "$missing" 1 "names a missing test \`givenA_whenB_thenC\`" --check-evidence

((failures == 0)) || exit 1
