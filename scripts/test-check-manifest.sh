#!/usr/bin/env bash
# The tests of scripts/check-manifest.py, on a throw-away package: a hand-written manifest JSON in
# `swift package dump-package`'s format (passed with --manifest-json, so no Swift toolchain runs)
# plus a source tree (passed with --package-path). The repository is not touched.
#   1. a file importing a module its target does not declare: exit 1, naming target, module, file:line
#   2. a declared dependency no file of the target imports: exit 1, naming target and dependency
#   3. a clean package: exit 0 and one OK line; system modules, the target's own module, commented-out
#      and string-literal imports, @testable / struct / submodule imports, an Apple-only file wrapped
#      in `#if canImport(SwiftUI)`, a test target, a resource-only target and a declared `path` all
#      pass without a report
#   4. an import inside a wholly `#if canImport(...)`-wrapped file still counts (missing is reported)
#   5. --system MODULE lets a module through without a declaration
# Prints PASS/FAIL per case; exits 1 if any case fails.
set -euo pipefail
cd "$(dirname "$0")/.."
check="$PWD/scripts/check-manifest.py"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# --- the clean fixture ------------------------------------------------------------------------------
# Core (no dependencies), Feature (Core + product Logging), AppleUI (Apple only: Feature, wrapped whole
# in #if canImport(SwiftUI)), Assets (resources only, declared path), FeatureTests (test target).
make_fixture() {
    local root="$1"
    mkdir -p "$root/Sources/Core" "$root/Sources/Feature" "$root/Sources/AppleUI" \
        "$root/Resources/Assets/images" "$root/Tests/FeatureTests"
    cat > "$root/Sources/Core/Core.swift" <<'EOF'
import Foundation
#if canImport(Glibc)
    import Glibc
#endif

public struct Core {}
EOF
    cat > "$root/Sources/Feature/Feature.swift" <<'EOF'
// Feature: uses Core and logs.
import Foundation
import struct Core.Core
import Logging
// import Unused
/* import AlsoUnused
   still a comment */
let example = "import NotAModule"
let template = """
import NotAModuleEither
"""

public struct Feature { let core = Core() }
EOF
    cat > "$root/Sources/AppleUI/FeatureView.swift" <<'EOF'
#if canImport(SwiftUI)
    import Feature
    import SwiftUI

    struct FeatureView: View { var body: some View { Text("hi") } }
#endif
EOF
    printf 'not swift\n' > "$root/Resources/Assets/images/readme.txt"
    cat > "$root/Tests/FeatureTests/FeatureTests.swift" <<'EOF'
@testable import Feature
import Core.Submodule
import Testing
import XCTest

@Test func works() {}
EOF
    cat > "$root/manifest.json" <<'EOF'
{
  "name" : "Fixture",
  "dependencies" : [],
  "products" : [],
  "targets" : [
    { "name" : "Core", "type" : "regular", "dependencies" : [], "exclude" : [], "resources" : [],
      "settings" : [], "packageAccess" : true },
    { "name" : "Feature", "type" : "regular",
      "dependencies" : [
        { "byName" : [ "Core", null ] },
        { "product" : [ "Logging", "swift-log", null, null ] }
      ],
      "exclude" : [], "resources" : [], "settings" : [], "packageAccess" : true },
    { "name" : "AppleUI", "type" : "regular",
      "dependencies" : [ { "target" : [ "Feature", null ] } ],
      "exclude" : [], "resources" : [], "settings" : [], "packageAccess" : true },
    { "name" : "Assets", "type" : "regular", "path" : "Resources/Assets", "dependencies" : [],
      "exclude" : [], "resources" : [ { "path" : "images", "rule" : { "copy" : {} } } ],
      "settings" : [], "packageAccess" : true },
    { "name" : "FeatureTests", "type" : "test",
      "dependencies" : [ { "byName" : [ "Feature", null ] }, { "byName" : [ "Core", null ] } ],
      "exclude" : [], "resources" : [], "settings" : [], "packageAccess" : true }
  ]
}
EOF
}

failures=0
output=""
status=0

# run NAME [args...]: runs the check on fixture $work/NAME; leaves $output and $status
run() {
    local root="$work/$1"
    shift
    status=0
    output="$(python3 "$check" --package-path "$root" --manifest-json "$root/manifest.json" "$@" 2>&1)" || status=$?
}

# verdict NAME CONDITION...: PASS if every condition (a shell test, evaluated) holds
verdict() {
    local name="$1"
    shift
    local condition
    for condition in "$@"; do
        if ! eval "$condition"; then
            echo "FAIL: $name: not [$condition]"
            echo "--- check-manifest.py printed (exit $status):"
            printf '%s\n' "$output" | sed 's/^/    /'
            failures=$((failures + 1))
            return
        fi
    done
    echo "PASS: $name"
}

has() { printf '%s\n' "$output" | grep -qF -- "$1"; }
lacks() { ! has "$1"; }

# 1. Missing: Feature's second file imports Core's sibling module Extra, undeclared, on line 3.
make_fixture "$work/missing"
mkdir -p "$work/missing/Sources/Extra"
printf 'public let extra = 1\n' > "$work/missing/Sources/Extra/Extra.swift"
python3 - "$work/missing/manifest.json" <<'EOF'
import json, sys
path = sys.argv[1]
manifest = json.load(open(path))
manifest["targets"].append({"name": "Extra", "type": "regular", "dependencies": [], "exclude": [],
                            "resources": [], "settings": [], "packageAccess": True})
json.dump(manifest, open(path, "w"), indent=2)
EOF
printf 'import Foundation\n\nimport Extra\n' > "$work/missing/Sources/Feature/UsesExtra.swift"
run missing
verdict "givenAnUndeclaredImport_whenChecked_thenExit1NamingTargetModuleAndFileLine" \
    '[ "$status" -eq 1 ]' \
    "has \"Package.swift: target 'Feature' imports 'Extra' but does not declare it (Sources/Feature/UsesExtra.swift:3)\"" \
    'has "check-manifest: FAILED: 1 undeclared import, 0 unused dependencies"' \
    "lacks \"declares\""

# 2. Unused: Core declares the product CustomDump but imports nothing of it.
make_fixture "$work/unused"
python3 - "$work/unused/manifest.json" <<'EOF'
import json, sys
path = sys.argv[1]
manifest = json.load(open(path))
core = next(t for t in manifest["targets"] if t["name"] == "Core")
core["dependencies"].append({"product": ["CustomDump", "swift-custom-dump", None, None]})
json.dump(manifest, open(path, "w"), indent=2)
EOF
run unused
verdict "givenAnUnusedDependency_whenChecked_thenExit1NamingTargetAndDependency" \
    '[ "$status" -eq 1 ]' \
    "has \"Package.swift: target 'Core' declares 'CustomDump' but never imports it\"" \
    'has "check-manifest: FAILED: 0 undeclared imports, 1 unused dependency"' \
    "lacks \"does not declare\""

# 3. Clean.
make_fixture "$work/clean"
run clean
verdict "givenACleanPackage_whenChecked_thenExit0WithOneOkLine" \
    '[ "$status" -eq 0 ]' \
    '[ "$(printf "%s\n" "$output" | wc -l)" -eq 1 ]' \
    'has "check-manifest: OK: 4 targets checked"' \
    'has "1 target without Swift files skipped"'

# 4. Apple-only: AppleUI's wrapped file also imports Core, which AppleUI does not declare.
make_fixture "$work/apple"
sed -i 's/^    import Feature$/    import Feature\n    import Core/' "$work/apple/Sources/AppleUI/FeatureView.swift"
run apple
verdict "givenAWhollyCanImportWrappedFile_whenChecked_thenItsImportsCount" \
    '[ "$status" -eq 1 ]' \
    "has \"Package.swift: target 'AppleUI' imports 'Core' but does not declare it (Sources/AppleUI/FeatureView.swift:3)\""

# 5. --system: an SDK module the list does not know, let through on the command line.
make_fixture "$work/system"
sed -i 's/^import Foundation$/import Foundation\nimport MapKitExtras/' "$work/system/Sources/Core/Core.swift"
run system
verdict "givenAnUnknownSystemModule_whenChecked_thenMissingUntilPassedWithSystem" \
    '[ "$status" -eq 1 ]' \
    "has \"target 'Core' imports 'MapKitExtras' but does not declare it (Sources/Core/Core.swift:2)\"" \
    'has "pass --system MapKitExtras"'
run system --system MapKitExtras
verdict "givenAnUnknownSystemModulePassedWithSystem_whenChecked_thenOk" '[ "$status" -eq 0 ]'

# 6. --only-on: AppleUI may depend on Core only, but depends on Feature.
make_fixture "$work/layers"
run layers --only-on AppleUI=Core
verdict "givenALayeringRule_whenATargetDependsOutsideIt_thenExit1NamingTheEdge" \
    '[ "$status" -eq 1 ]' \
    "has \"Package.swift: target 'AppleUI' depends on 'Feature', but may depend only on Core\"" \
    'has "1 layering violation"'
run layers --only-on AppleUI=Feature,Core
verdict "givenALayeringRule_whenEveryEdgeIsAllowed_thenOk" '[ "$status" -eq 0 ]'

if ((failures)); then
    echo "test-check-manifest: $failures case(s) FAILED"
    exit 1
fi
echo "test-check-manifest: all cases passed"
