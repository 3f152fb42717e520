#!/usr/bin/env bash
# Type-checks every Apple-only Swift file on Linux, in Swift 6 language mode, against declaration-only
# stand-ins of Apple's frameworks (AppleSDKStubs/) and the package's own modules.
#
# Apple-only files: Sources/PlatformLive/*.swift, Sources/StartupFeatureUI/*.swift (each wrapped
# whole in `#if canImport(<Framework>)`) and App/*.swift (the iOS app host). Every file found there
# is checked; a target's files are checked together under the target's module name, in dependency
# order (PlatformLive, StartupFeatureUI, then App/ as module PetSpot).
#
# `#if canImport(X)` is true because the stub module X is on the search path: the files are checked
# as they are, with no -D conditions. Fails (non-zero, the compiler's messages shown) on any error or
# warning in those files — an unknown symbol, a wrong label or type, a concurrency violation, or a
# delegate method that only "nearly matches" its requirement (a callback that would never be
# called) — and on any Apple-only source file not wrapped whole in `#if canImport(...)` of a
# framework that has a stub here.
set -euo pipefail
cd "$(dirname "$0")/.."

# Stub modules, in dependency order (SwiftUI re-exports UIKit, as on iOS).
stub_modules=(CoreLocation CoreMotion HealthKit UIKit SwiftUI)
# The package's language settings (Package.swift's `swiftSettings`), in Swift 6 language mode.
swift_flags=(
    -swift-version 6
    -enable-upcoming-feature ExistentialAny
    -enable-upcoming-feature MemberImportVisibility
)

shopt -s nullglob
platform_live=(Sources/PlatformLive/*.swift)
startup_feature_ui=(Sources/StartupFeatureUI/*.swift)
app=(App/*.swift)

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
stubs="$work/stubs"        # compiled stub modules
apple="$work/apple"        # modules of the Apple-only targets, built here against the stubs
package="$work/package"    # the package's own modules (without its empty Apple-only ones)
mkdir -p "$stubs" "$apple" "$package"

failures=0
fail() {
    echo "typecheck-apple: $*" >&2
    failures=$((failures + 1))
}

echo "== Apple-only files wrapped whole in #if canImport(...)"
for file in "${platform_live[@]}" "${startup_feature_ui[@]}"; do
    # First and last lines that are neither blank nor comments.
    code="$(grep -vE '^[[:space:]]*(//.*)?$' "$file" || true)"
    first="$(printf '%s\n' "$code" | head -n 1)"
    last="$(printf '%s\n' "$code" | tail -n 1)"
    if [[ "$first" != "#if canImport("* || "$last" != "#endif"* ]]; then
        fail "$file is not wrapped whole in '#if canImport(...)' … '#endif' (it would break the Linux build)"
    fi
done
for file in "${platform_live[@]}" "${startup_feature_ui[@]}" "${app[@]}"; do
    # A condition on a framework without a stub would be false here and hide the code unchecked.
    for framework in $(grep -oE 'canImport\([A-Za-z_]+\)' "$file" | sed -E 's/canImport\((.*)\)/\1/' | sort -u); do
        if [[ ! -d "AppleSDKStubs/$framework" ]]; then
            fail "$file tests canImport($framework) but AppleSDKStubs/$framework does not exist: add a stub module"
        fi
    done
    if grep -nE '^[[:space:]]*#(if|elseif).*(os\(|targetEnvironment\()' "$file" >/dev/null; then
        echo "note: $file has #if os(...)/targetEnvironment(...) branches; those false on Linux are not checked"
    fi
done

for folder in AppleSDKStubs/*/; do
    name="$(basename "$folder")"
    if [[ " ${stub_modules[*]} " != *" $name "* ]]; then
        fail "AppleSDKStubs/$name is not in stub_modules of $0: it would never be compiled"
    fi
done

echo "== package modules the Apple-only files import"
swift build --target StartupFeatureUI
bin="$(swift build --show-bin-path)"
modules="$bin/Modules"
[[ -d "$modules" ]] || modules="$bin"
for module in "$modules"/*.swiftmodule; do
    case "$(basename "$module")" in
        PlatformLive.swiftmodule | StartupFeatureUI.swiftmodule) ;; # empty on Linux; rebuilt below
        *) ln -s "$(cd "$(dirname "$module")" && pwd)/$(basename "$module")" "$package/" ;;
    esac
done

echo "== stub modules: ${stub_modules[*]}"
for module in "${stub_modules[@]}"; do
    sources=(AppleSDKStubs/"$module"/*.swift)
    # Library evolution makes the stubs' enums non-frozen, like the SDK's imported enums.
    swiftc -emit-module -parse-as-library -swift-version 6 -enable-library-evolution -suppress-warnings \
        -I "$stubs" -module-name "$module" -emit-module-path "$stubs/$module.swiftmodule" "${sources[@]}"
done

checked=0
failed_modules=()
# check <module name> <files...>: type-checks the files as one module, then emits that module for
# the targets that import it.
check() {
    local module="$1"
    shift
    (($#)) || return 0
    echo "-- $module ($# files)"
    local failed
    for failed in "${failed_modules[@]}"; do
        if grep -qE "^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*import[[:space:]]+$failed\b" "$@"; then
            fail "$module not type-checked: it imports $failed, which failed above"
            failed_modules+=("$module")
            return 0
        fi
    done
    local output status=0
    output="$(swiftc -typecheck -parse-as-library "${swift_flags[@]}" -warnings-as-errors \
        -I "$stubs" -I "$apple" -I "$package" -module-name "$module" "$@" 2>&1)" || status=$?
    [[ -z "$output" ]] || printf '%s\n' "$output"
    if ((status != 0)); then
        fail "$module does not type-check against the Apple SDK stubs (see above)"
        failed_modules+=("$module")
        return 0
    fi
    checked=$((checked + $#))
    swiftc -emit-module -parse-as-library "${swift_flags[@]}" -suppress-warnings \
        -I "$stubs" -I "$apple" -I "$package" -module-name "$module" \
        -emit-module-path "$apple/$module.swiftmodule" "$@"
}

echo "== type-check (Swift 6 language mode, warnings are errors)"
check PlatformLive "${platform_live[@]}"
check StartupFeatureUI "${startup_feature_ui[@]}"
check PetSpot "${app[@]}"

total=$((${#platform_live[@]} + ${#startup_feature_ui[@]} + ${#app[@]}))
if ((failures)); then
    echo "typecheck-apple: FAILED ($failures problem(s); $checked of $total Apple-only files type-checked)" >&2
    exit 1
fi
echo "typecheck-apple: all $checked Apple-only files type-check against the Apple SDK stubs"
