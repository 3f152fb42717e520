#!/usr/bin/env bash
# The tests of scripts/check-manifest.py, on a throw-away package: a hand-written manifest in
# `swift package dump-package`'s format (passed with --manifest-json, so no toolchain runs) and a
# source tree. The repository is not touched. Prints PASS/FAIL per case; exits 1 if any case fails.
set -uo pipefail
cd "$(dirname "$0")/.."
check="$PWD/scripts/check-manifest.py"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0

# Core; Feature (Core, the product Logging, and Extra, imported only in a comment and a string);
# AppleUI (Feature, in a file wrapped in #if canImport); Assets (resources only).
mkdir -p "$work/Sources/Core" "$work/Sources/Feature" "$work/Sources/AppleUI" "$work/Sources/Extra" "$work/Sources/Assets"
echo 'public struct Core {}' > "$work/Sources/Core/Core.swift"
echo 'public struct Extra {}' > "$work/Sources/Extra/Extra.swift"
cat > "$work/Sources/Feature/Feature.swift" <<'SWIFT'
import struct Core.Core
@preconcurrency import Logging
// import Extra
/* import Extra
   still a comment */
let template = """
import Extra
"""
SWIFT
printf '#if canImport(SwiftUI)\n    import Feature\n    import SwiftUI\n#endif\n' > "$work/Sources/AppleUI/View.swift"
echo 'not swift' > "$work/Sources/Assets/readme.txt"

# manifest FEATURE_DEPENDENCIES: the package with Feature's dependencies as given (JSON array items).
manifest() {
    cat > "$work/manifest.json" <<JSON
{ "name": "Fixture", "targets": [
  { "name": "Core", "type": "regular", "dependencies": [] },
  { "name": "Extra", "type": "regular", "dependencies": [] },
  { "name": "Feature", "type": "regular", "dependencies": [ $1 ] },
  { "name": "AppleUI", "type": "regular", "dependencies": [ { "target": [ "Feature", null ] } ] },
  { "name": "Assets", "type": "regular", "dependencies": [ { "byName": [ "Core", null ] } ] } ] }
JSON
}

# expect NAME STATUS TEXT [ARGS...]: the check exits with STATUS and prints TEXT.
expect() {
    local name="$1" status="$2" text="$3"
    shift 3
    local output actual
    output="$(python3 "$check" --package-path "$work" --manifest-json "$work/manifest.json" "$@" 2>&1)"
    actual=$?
    if [[ $actual == "$status" ]] && grep -qF -- "$text" <<<"$output"; then
        echo "PASS $name"
    else
        echo "FAIL $name: exit $actual (want $status), output:"; echo "$output"
        failures=$((failures + 1))
    fi
}

manifest '{ "byName": [ "Core", null ] }, { "product": [ "Logging", "swift-log", null, null ] }'
expect givenEveryDeclaredDependencyImported_whenChecked_thenOK 0 "OK: 4 targets import"
expect givenALayeringRuleKept_whenChecked_thenOK 0 "the layering holds" --only-on AppleUI=Feature
expect givenALayeringRuleBroken_whenChecked_thenTheDependencyIsNamed 1 \
    "target 'AppleUI' depends on 'Feature', but may depend only on Core" --only-on AppleUI=Core
manifest '{ "byName": [ "Core", null ] }, { "product": [ "Logging", "swift-log", null, null ] }, { "byName": [ "Extra", null ] }'
expect givenADependencyImportedOnlyInCommentsAndStrings_whenChecked_thenItIsUnused 1 \
    "target 'Feature' declares 'Extra' but never imports it"
echo '{' > "$work/manifest.json"
expect givenAnUnreadableManifest_whenChecked_thenItCannotRun 2 "cannot read the manifest"

((failures == 0)) || exit 1
