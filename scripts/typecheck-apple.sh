#!/usr/bin/env bash
# Type-checks every Apple-only Swift file on Linux, in Swift 6 language mode, against declaration-only
# stand-ins of Apple's frameworks (AppleSDKStubs/) and the package's own modules.
#
# Apple-only files: Sources/PlatformLive/*.swift, Sources/PlatformLiveFitness/*.swift,
# Sources/CoreUI/*.swift, Sources/AppUI/*.swift, Sources/PaintMyTownUI/*.swift (each wrapped whole in `#if
# canImport(<Framework>)`) and App/<App>/*.swift (each iOS app host). Every file found there is
# checked; a target's files are checked together under the target's module name, in dependency order
# (PlatformLive, PlatformLiveFitness, CoreUI, AppUI, PaintMyTownUI, then each App/<App>/ as
# module <App>).
#
# `#if canImport(X)` is true because the stub module X is on the search path: the files are checked
# as they are, with no -D conditions. Fails (non-zero, the compiler's messages shown) on any error or
# warning in those files — an unknown symbol, a wrong label or type, a concurrency violation, or a
# delegate method that only "nearly matches" its requirement (a callback that would never be
# called) — and on any Apple-only source file not wrapped whole in `#if canImport(...)` of a
# framework that has a stub here.
#
# Whatever step fails — compiling a stub module, building the package modules the Apple-only files
# import, or type-checking those files — the run goes on with what does not depend on it, then ends
# with one summary: "typecheck-apple: FAILED (...)" and a line per problem, naming the module and the
# file(s) the compiler's `path:line:col: error:` lines point at (or, when it names none, the module's
# files), and exits 1.
#
# APPLE_SDK_STUBS=DIR takes the stub modules from DIR instead of AppleSDKStubs/ (the script's own test
# uses it to check that a broken stub is reported).
set -euo pipefail
cd "$(dirname "$0")/.."
stub_root="${APPLE_SDK_STUBS:-AppleSDKStubs}"

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
platform_live_fitness=(Sources/PlatformLiveFitness/*.swift)
permissions_ui=(Sources/CoreUI/*.swift)
app_ui=(Sources/AppUI/*.swift)
paint_my_town_ui=(Sources/PaintMyTownUI/*.swift)
app_hosts=()
for folder in App/*/; do
    files=("$folder"*.swift)
    ((${#files[@]} == 0)) || app_hosts+=("$(basename "$folder")")
done
app=()
for host in "${app_hosts[@]}"; do
    app+=(App/"$host"/*.swift)
done

root="$PWD"
real_root="$(pwd -P)"   # SwiftPM may print paths with symbolic links resolved
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
stubs="$work/stubs"        # compiled stub modules
apple="$work/apple"        # modules of the Apple-only targets, built here against the stubs
package="$work/package"    # the package's own modules (without its empty Apple-only ones)
mkdir -p "$stubs" "$apple" "$package"

failures=0
problems=()   # one line per failure, repeated in the summary at the end
fail() {
    echo "typecheck-apple: $*" >&2
    problems+=("$*")
    failures=$((failures + 1))
}

# error_files <log> <kinds>: the files that the compiler's `path:line:col: <kind>:` lines in <log>
# point at (<kinds>: an extended regex, `error` or `error|warning`), relative to the repository when
# inside it, one per line, each once.
error_files() {
    local path
    { grep -oE "^[^[:space:]:][^:]*:[0-9]+:[0-9]+: ($2):" "$1" || true; } |
        sed -E "s/:[0-9]+:[0-9]+: ($2):\$//" |
        while IFS= read -r path; do
            path="${path#"$real_root"/}"
            printf '%s\n' "${path#"$root"/}"
        done |
        sort -u
}

# file_list <files...>: the files, separated by ", ".
file_list() {
    local file separator=""
    for file in "$@"; do
        printf '%s%s' "$separator" "$file"
        separator=", "
    done
}

# named_files <log> <kinds> <module files...>: the files the log's diagnostics name, or, when they
# name none, all of the module's files, said as such.
named_files() {
    local log="$1" kinds="$2"
    shift 2
    local named=()
    mapfile -t named < <(error_files "$log" "$kinds")
    if ((${#named[@]})); then
        file_list "${named[@]}"
    else
        printf 'no file named by the compiler; the module is %s' "$(file_list "$@")"
    fi
}

failed_modules=()   # stub and Apple-only modules that did not compile, or were skipped because of one
# imported_failure <files...>: the first module of failed_modules that one of the files imports.
imported_failure() {
    local failed
    for failed in "${failed_modules[@]}"; do
        if grep -qE "^[[:space:]]*(@[A-Za-z_]+[[:space:]]+)*import[[:space:]]+$failed\b" "$@"; then
            printf '%s' "$failed"
            return 0
        fi
    done
    return 1
}

echo "== Apple-only files wrapped whole in #if canImport(...)"
for file in "${platform_live[@]}" "${platform_live_fitness[@]}" "${app_ui[@]}" "${paint_my_town_ui[@]}"; do
    # First and last lines that are neither blank nor comments.
    code="$(grep -vE '^[[:space:]]*(//.*)?$' "$file" || true)"
    first="$(printf '%s\n' "$code" | head -n 1)"
    last="$(printf '%s\n' "$code" | tail -n 1)"
    if [[ "$first" != "#if canImport("* || "$last" != "#endif"* ]]; then
        fail "$file is not wrapped whole in '#if canImport(...)' … '#endif' (it would break the Linux build)"
    fi
done
for file in "${platform_live[@]}" "${platform_live_fitness[@]}" "${app_ui[@]}" "${paint_my_town_ui[@]}" "${app[@]}"; do
    # A condition on a framework without a stub would be false here and hide the code unchecked.
    for framework in $(grep -oE 'canImport\([A-Za-z_]+\)' "$file" | sed -E 's/canImport\((.*)\)/\1/' | sort -u); do
        if [[ ! -d "$stub_root/$framework" ]]; then
            fail "$file tests canImport($framework) but $stub_root/$framework does not exist: add a stub module"
        fi
    done
    if grep -nE '^[[:space:]]*#(if|elseif).*(os\(|targetEnvironment\()' "$file" >/dev/null; then
        echo "note: $file has #if os(...)/targetEnvironment(...) branches; those false on Linux are not checked"
    fi
done

for folder in "$stub_root"/*/; do
    name="$(basename "$folder")"
    if [[ " ${stub_modules[*]} " != *" $name "* ]]; then
        fail "$stub_root/$name is not in stub_modules of $0: it would never be compiled"
    fi
done

echo "== package modules the Apple-only files import"
package_built=1
package_log="$work/package-build.log"
status=0
# The UI modules' dependencies, and every other package module an Apple-only file imports (App/
# imports PetAPI, which AppUI does not): built here, so that the script needs no earlier build.
targets=(CoreUI AppUI)
while read -r module; do
    [[ -d "Sources/$module" && "$module" != CoreUI && "$module" != AppUI && "$module" != PaintMyTownUI && "$module" != PlatformLive && "$module" != PlatformLiveFitness ]] &&
        targets+=("$module")
done < <(sed -nE 's/^[[:space:]]*import ([A-Za-z_][A-Za-z0-9_]*).*/\1/p' "${platform_live[@]}" "${platform_live_fitness[@]}" "${permissions_ui[@]}" "${app_ui[@]}" "${paint_my_town_ui[@]}" "${app[@]}" | sort -u)
for target in "${targets[@]}"; do
    ((status == 0)) || break
    swift build --target "$target" 2>&1 | tee -a "$package_log" || status=$?
done
bin=""
if ((status == 0)); then
    bin="$(swift build --show-bin-path 2>>"$package_log")" || status=$?
fi
if ((status != 0)); then
    package_built=0
    mapfile -t broken < <(error_files "$package_log" error)
    if ((${#broken[@]} == 0)); then
        fail "package modules do not build ('swift build --target' of ${targets[*]} failed; see its output above)"
    else
        # One problem per target, named by its folder (Sources/<Target>/...); then any other file.
        targets=()
        mapfile -t targets < <(printf '%s\n' "${broken[@]}" | sed -nE 's|^Sources/([^/]+)/.*|\1|p' | sort -u)
        for target in "${targets[@]}"; do
            files=()
            for file in "${broken[@]}"; do
                [[ "$file" != "Sources/$target/"* ]] || files+=("$file")
            done
            fail "package module $target does not build: $(file_list "${files[@]}")"
        done
        files=()
        for file in "${broken[@]}"; do
            [[ "$file" == Sources/* ]] || files+=("$file")
        done
        if ((${#files[@]})); then
            fail "package modules do not build: $(file_list "${files[@]}")"
        fi
    fi
else
    modules="$bin/Modules"
    [[ -d "$modules" ]] || modules="$bin"
    for module in "$modules"/*.swiftmodule; do
        case "$(basename "$module")" in
            PlatformLive.swiftmodule | PlatformLiveFitness.swiftmodule | CoreUI.swiftmodule | AppUI.swiftmodule | PaintMyTownUI.swiftmodule) ;; # empty on Linux; rebuilt below
            *) ln -s "$(cd "$(dirname "$module")" && pwd)/$(basename "$module")" "$package/" ;;
        esac
    done
fi

echo "== stub modules: ${stub_modules[*]}"
for module in "${stub_modules[@]}"; do
    sources=("$stub_root/$module"/*.swift)
    if ((${#sources[@]} == 0)); then
        fail "stub module $module not compiled: $stub_root/$module/ has no .swift file"
        failed_modules+=("$module")
        continue
    fi
    if failed="$(imported_failure "${sources[@]}")"; then
        fail "stub module $module not compiled: it imports $failed, which failed above"
        failed_modules+=("$module")
        continue
    fi
    # Library evolution makes the stubs' enums non-frozen, like the SDK's imported enums.
    log="$work/stub-$module.log"
    status=0
    swiftc -emit-module -parse-as-library -swift-version 6 -enable-library-evolution -suppress-warnings \
        -I "$stubs" -module-name "$module" -emit-module-path "$stubs/$module.swiftmodule" "${sources[@]}" \
        >"$log" 2>&1 || status=$?
    cat "$log"
    if ((status != 0)); then
        fail "stub module $module ($stub_root/$module) does not compile: $(named_files "$log" error "${sources[@]}")"
        failed_modules+=("$module")
    fi
done

checked=0
# check <module name> <files...>: type-checks the files as one module, then emits that module for
# the targets that import it.
check() {
    local module="$1"
    shift
    (($#)) || return 0
    echo "-- $module ($# files)"
    if ((!package_built)); then
        fail "$module not type-checked: the package modules it imports did not build"
        failed_modules+=("$module")
        return 0
    fi
    local failed
    if failed="$(imported_failure "$@")"; then
        fail "$module not type-checked: it imports $failed, which failed above"
        failed_modules+=("$module")
        return 0
    fi
    local status=0 log="$work/check-$module.log"
    swiftc -typecheck -parse-as-library "${swift_flags[@]}" -warnings-as-errors \
        -I "$stubs" -I "$apple" -I "$package" -module-name "$module" "$@" >"$log" 2>&1 || status=$?
    cat "$log"
    if ((status != 0)); then
        # Warnings count too: -warnings-as-errors makes them fail the check.
        fail "$module does not type-check against the Apple SDK stubs: $(named_files "$log" 'error|warning' "$@")"
        failed_modules+=("$module")
        return 0
    fi
    checked=$((checked + $#))
    status=0
    swiftc -emit-module -parse-as-library "${swift_flags[@]}" -suppress-warnings \
        -I "$stubs" -I "$apple" -I "$package" -module-name "$module" \
        -emit-module-path "$apple/$module.swiftmodule" "$@" >"$log" 2>&1 || status=$?
    if ((status != 0)); then
        cat "$log"
        fail "$module type-checks but its module was not emitted for what imports it: $(named_files "$log" error "$@")"
        failed_modules+=("$module")
    fi
}

echo "== type-check (Swift 6 language mode, warnings are errors)"
check PlatformLive "${platform_live[@]}"
check PlatformLiveFitness "${platform_live_fitness[@]}"
check CoreUI "${permissions_ui[@]}"
check AppUI "${app_ui[@]}"
check PaintMyTownUI "${paint_my_town_ui[@]}"
for host in "${app_hosts[@]}"; do
    check "$host" App/"$host"/*.swift
done

total=$((${#platform_live[@]} + ${#platform_live_fitness[@]} + ${#permissions_ui[@]} + ${#app_ui[@]} + ${#paint_my_town_ui[@]} + ${#app[@]}))
if ((failures)); then
    echo "typecheck-apple: FAILED ($failures problem(s); $checked of $total Apple-only files type-checked)" >&2
    for problem in "${problems[@]}"; do
        echo "  - $problem" >&2
    done
    exit 1
fi
echo "typecheck-apple: all $checked Apple-only files type-check against the Apple SDK stubs"
