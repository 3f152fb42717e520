#!/usr/bin/env python3
"""Checks that Package.swift declares exactly what each target imports: nothing unused, nothing missing.

    scripts/check-manifest.py [--package-path DIR] [--manifest-json FILE]
                              [--system MODULE]... [--product-module PRODUCT=MODULE[,MODULE]]...
                              [--only-on TARGET=TARGET[,TARGET]]... [--list]

Why: SwiftPM lets a file import a module its target never declared as long as some other target
happened to build it first (a missing dependency then breaks a clean or filtered build, or a build
on another platform), and it never complains about a declared dependency nobody imports (dead
edges slow builds and hide the real architecture). This check makes the manifest the truth.

How:
  1. The manifest is read as JSON from `swift package dump-package` run in the package root
     (--package-path; the default is this script's parent folder, the repository root). This only
     evaluates Package.swift; it does not build. --manifest-json FILE reads a dump made earlier
     (the tests use it, so they need no toolchain).
  2. Every regular, executable, macro and test target is checked (system, binary and plugin
     targets are skipped). Its folder is its declared `path`, or else Sources/<name> (tests:
     Tests/<name>), with SwiftPM's other default folders (Source, src, srcs) as fallbacks.
     Files under its `exclude` and `resources` paths and hidden files are left out; when it
     lists `sources`, only those are read.
  3. Every *.swift file is scanned, line by line, for import declarations, with comments (line
     and nested block comments) and string literals (single- and multi-line, raw) blanked out:
         import X                 @testable import X       @_exported import X
         @preconcurrency import X @_implementationOnly / @_spi(S) import X
         public / package / internal / fileprivate / private import X
         import struct X.Y        (also class, enum, protocol, typealias, func, let, var)
         import X.Y               (a submodule: module X)
     Imports inside `#if canImport(...)` / `#if os(...)` blocks count like any other: an
     Apple-only target, whose files are wrapped whole in `#if canImport(SwiftUI)`, still declares
     what it imports on Apple platforms.
  4. A module in SYSTEM_MODULES (below; extend with --system MODULE) is the toolchain's or the
     SDK's and needs no declaration. Importing the target's own module is ignored.
     Every other imported module must be declared by the same target: a dependency `byName` or
     `.target` of that name, or a `.product` that provides it. A product provides the module of
     the same name, except where PRODUCT_MODULES (below; extend with --product-module) says
     otherwise; a product's moduleAliases are applied.
  5. --only-on TARGET=A,B restricts which of this package's targets TARGET may depend on (products
     are not restricted): the layering rule that keeps a low target on interfaces only, e.g.
     `--only-on DeviceSimulator=PetSpotDomain,DeviceInterfaces`. A dependency outside the list:
         Package.swift: target 'X' depends on 'Y', but may depend only on A, B
  6. Problems, each an error:
         Package.swift: target 'X' imports 'Y' but does not declare it (Sources/X/File.swift:3)
         Package.swift: target 'X' declares 'Y' but never imports it
     A missing import names its first file:line (and how many other files import it too).
     A target with no Swift files at all (resources only, or empty) is skipped, not reported.

Exit status: 0 when every target's declarations match its imports (one OK line is printed),
1 when there is a problem (each printed, then a FAILED summary), 2 when the check cannot run
(no manifest, dump-package fails, unreadable JSON).

Options:
  --package-path DIR          the package root (default: the parent of this script's folder)
  --manifest-json FILE        read the manifest from this `swift package dump-package` output
                              instead of running it (source folders still resolve against
                              --package-path)
  --system MODULE             treat MODULE as a system module too (repeatable)
  --product-module P=M[,M]    product P provides module(s) M (repeatable; adds to PRODUCT_MODULES)
  --list                      also print every target's imported modules and declared dependencies
  -h, --help                  show this text
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

# ---------------------------------------------------------------------------------------------------
# Configuration

# Modules of the Swift toolchain, the C libraries and Apple's SDKs: importing them needs no entry
# in Package.swift. Extend on the command line with --system MODULE.
SYSTEM_MODULES = frozenset({
    # Swift standard library, runtime and toolchain
    "Swift", "_Concurrency", "_StringProcessing", "RegexBuilder", "Synchronization", "Observation",
    "Distributed", "SwiftShims", "Cxx", "CxxStdlib",
    # Foundation (swift-corelibs-foundation / swift-foundation) and Dispatch
    "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking",
    "FoundationXML", "CoreFoundation", "Dispatch",
    # C libraries
    "Glibc", "Musl", "Darwin", "Android", "Bionic", "WASILibc", "WinSDK", "ucrt", "CRT",
    # Testing
    "XCTest", "Testing",
    # Apple SDK frameworks
    "os", "OSLog", "ObjectiveC", "Security", "Network", "Combine", "SwiftUI", "UIKit", "AppKit",
    "CoreLocation", "CoreMotion", "HealthKit", "CoreGraphics", "QuartzCore", "MapKit",
    "UserNotifications", "AVFoundation", "CoreData", "CloudKit", "StoreKit", "WidgetKit",
    # Package manifests and plugins
    "PackageDescription", "PackagePlugin",
})

# Products whose module is not the module of the same name. A product maps to the module(s) it
# provides; importing any one of them uses the product, and an import of any one of them is
# satisfied by declaring the product. Every product this package uses today (ArgumentParser,
# Logging, NIOCore, ServiceLifecycle, Hummingbird, HummingbirdTesting, GRDB, PostgresNIO,
# ConcurrencyExtras, CustomDump) has a module of its own name, so none needs an entry.
# Keys are "PRODUCT" or, to pin one package's product, "PACKAGE/PRODUCT" (package identity).
PRODUCT_MODULES: dict[str, tuple[str, ...]] = {
    "GRDB-dynamic": ("GRDB",),                                 # GRDB.swift: GRDB as a dynamic library
    "swift-nio/_NIOFileSystem": ("_NIOFileSystem", "NIOFileSystem"),  # one product, two modules
}

CHECKED_TYPES = ("regular", "executable", "test", "macro")
SOURCE_DIRS = ("Sources", "Source", "src", "srcs")
TEST_DIRS = ("Tests",) + SOURCE_DIRS
TOOL = "check-manifest"


class CannotRun(Exception):
    """The check cannot run at all (exit status 2)."""


# ---------------------------------------------------------------------------------------------------
# Scanning Swift files


def code_lines(text: str) -> list[str]:
    """Each line of `text` with comments and the contents of string literals removed (best effort,
    line by line: nested block comments and multi-line strings carry over to later lines)."""
    out: list[str] = []
    depth = 0  # block comment nesting
    multiline_hashes: int | None = None  # inside a """ string with this many #s
    for line in text.split("\n"):
        buf: list[str] = []
        i, n = 0, len(line)
        while i < n:
            if depth:
                if line.startswith("/*", i):
                    depth += 1
                    i += 2
                elif line.startswith("*/", i):
                    depth -= 1
                    i += 2
                else:
                    i += 1
                continue
            if multiline_hashes is not None:
                close = '"""' + "#" * multiline_hashes
                if line.startswith("\\", i):
                    i += 2
                elif line.startswith(close, i):
                    multiline_hashes = None
                    buf.append('""')
                    i += len(close)
                else:
                    i += 1
                continue
            if line.startswith("//", i):
                break
            if line.startswith("/*", i):
                depth = 1
                buf.append(" ")
                i += 2
                continue
            opening = re.match(r'(#*)("""|")', line[i:])
            if opening:
                hashes = len(opening.group(1))
                if opening.group(2) == '"""':
                    multiline_hashes = hashes
                    i += opening.end()
                    continue
                i += opening.end()
                close = '"' + "#" * hashes
                escape = "\\" + "#" * hashes
                while i < n:
                    if line.startswith(escape, i):
                        i += len(escape) + 1
                    elif line.startswith(close, i):
                        i += len(close)
                        break
                    else:
                        i += 1
                buf.append('""')
                continue
            buf.append(line[i])
            i += 1
        out.append("".join(buf))
    return out


_ATTRIBUTE = r"@[A-Za-z_]\w*(?:\([^)]*\))?"
_IMPORT = re.compile(
    rf"""^\s*
        (?:{_ATTRIBUTE}\s*)*                                              # @testable, @_spi(X), ...
        (?:(?:public|package|internal|fileprivate|private|open)\s+)?      # access level on the import
        (?:{_ATTRIBUTE}\s*)*
        import\s+
        (?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?     # import struct X.Y
        (`[^`]+`|[A-Za-z_]\w*)                                             # the module (X of X.Y)
    """,
    re.VERBOSE,
)
_ATTRIBUTES_ONLY = re.compile(rf"^\s*(?:{_ATTRIBUTE}\s*)+$")


@dataclass
class Import:
    module: str
    path: str  # relative to the package root
    line: int


def scan_imports(text: str, path: str) -> list[Import]:
    found: list[Import] = []
    pending = ""  # attributes alone on the previous line(s): "@testable\nimport X"
    for number, code in enumerate(code_lines(text), start=1):
        if _ATTRIBUTES_ONLY.match(code):
            pending += code + " "
            continue
        for statement in code.split(";"):
            match = _IMPORT.match(pending + statement)
            if match:
                found.append(Import(match.group(1).strip("`"), path, number))
            pending = ""
        if code.strip():
            pending = ""
    return found


# ---------------------------------------------------------------------------------------------------
# The manifest


@dataclass
class Dependency:
    name: str  # as Package.swift spells it
    kind: str  # byName, target, product
    package: str | None
    modules: frozenset[str]


@dataclass
class Target:
    name: str
    type: str
    folder: Path | None
    dependencies: list[Dependency]
    imports: list[Import] = field(default_factory=list)
    swift_files: int = 0


def dump_manifest(package: Path) -> dict:
    if not (package / "Package.swift").is_file():
        raise CannotRun(f"no Package.swift in {package}")
    try:
        result = subprocess.run(
            ["swift", "package", "--package-path", str(package), "dump-package"],
            capture_output=True, text=True,
        )
    except OSError as error:
        raise CannotRun(f"cannot run `swift package dump-package`: {error}")
    if result.returncode != 0:
        raise CannotRun(f"`swift package dump-package` failed (exit {result.returncode}):\n{result.stderr.strip()}")
    try:
        return json.loads(result.stdout)
    except json.JSONDecodeError as error:
        raise CannotRun(f"`swift package dump-package` printed no JSON: {error}")


def load_manifest(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise CannotRun(f"cannot read {path}: {error}")
    except json.JSONDecodeError as error:
        raise CannotRun(f"{path} is not JSON: {error}")


def product_modules(product: str, package: str | None, aliases: dict | None, table: dict) -> frozenset[str]:
    modules = table.get(f"{package}/{product}") if package else None
    modules = modules or table.get(product) or (product,)
    if aliases:  # moduleAliases: {"Original": "Alias"}: the target imports the alias
        modules = tuple(aliases.get(m, m) for m in modules)
    return frozenset(modules)


def parse_dependency(entry: dict, local_targets: set[str], table: dict) -> Dependency | None:
    if "byName" in entry:
        name = entry["byName"][0]
        if name in local_targets:
            return Dependency(name, "byName", None, frozenset({name}))
        return Dependency(name, "byName", None, product_modules(name, None, None, table))
    if "target" in entry:
        name = entry["target"][0]
        return Dependency(name, "target", None, frozenset({name}))
    if "product" in entry:
        fields = entry["product"]
        name = fields[0]
        package = fields[1] if len(fields) > 1 else None
        aliases = fields[2] if len(fields) > 2 and isinstance(fields[2], dict) else None
        return Dependency(name, "product", package, product_modules(name, package, aliases, table))
    return None


def target_folder(package: Path, raw: dict) -> Path | None:
    if raw.get("path"):
        return package / raw["path"]
    roots = TEST_DIRS if raw.get("type") == "test" else SOURCE_DIRS
    for root in roots:
        candidate = package / root / raw["name"]
        if candidate.is_dir():
            return candidate
    return None


def swift_files(folder: Path, raw: dict) -> list[Path]:
    if folder is None or not folder.is_dir():
        return []
    left_out = [folder / p for p in raw.get("exclude") or []]
    left_out += [folder / r["path"] for r in raw.get("resources") or [] if r.get("path")]
    only = [folder / p for p in raw["sources"]] if raw.get("sources") else None

    def under(path: Path, roots: list[Path]) -> bool:
        return any(path == root or root in path.parents for root in roots)

    files = []
    for directory, subdirectories, names in os.walk(folder):
        subdirectories[:] = sorted(d for d in subdirectories if not d.startswith("."))
        for name in sorted(names):
            path = Path(directory) / name
            if name.startswith(".") or not name.endswith(".swift"):
                continue
            if under(path, left_out) or (only is not None and not under(path, only)):
                continue
            files.append(path)
    return files


def read_targets(manifest: dict, package: Path, table: dict) -> tuple[list[Target], int]:
    raws = manifest.get("targets")
    if not isinstance(raws, list):
        raise CannotRun("the manifest JSON has no `targets` list (is it `swift package dump-package` output?)")
    local = {raw["name"] for raw in raws}
    targets, skipped = [], 0
    for raw in raws:
        if raw.get("type") not in CHECKED_TYPES:
            skipped += 1
            continue
        dependencies = [d for d in (parse_dependency(e, local, table) for e in raw.get("dependencies") or []) if d]
        folder = target_folder(package, raw)
        target = Target(raw["name"], raw["type"], folder, dependencies)
        for file in swift_files(folder, raw):
            target.swift_files += 1
            relative = os.path.relpath(file, package)
            text = file.read_text(encoding="utf-8", errors="replace")
            target.imports.extend(scan_imports(text, relative))
        targets.append(target)
    return targets, skipped


# ---------------------------------------------------------------------------------------------------
# The check


def check(
    targets: list[Target], system: frozenset[str], only_on: dict[str, tuple[str, ...]] | None = None
) -> tuple[list[str], list[str]]:
    """Returns (problems, unknown modules): each problem is one printed line."""
    problems: list[str] = []
    unknown: set[str] = set()
    local = {t.name for t in targets}
    for target in targets:
        allowed = (only_on or {}).get(target.name)
        if allowed is not None:
            for dependency in target.dependencies:
                if dependency.kind != "product" and dependency.name not in allowed:
                    problems.append(
                        f"Package.swift: target '{target.name}' depends on '{dependency.name}', "
                        f"but may depend only on {', '.join(allowed)}"
                    )
        if target.swift_files == 0:
            continue
        imported: dict[str, list[Import]] = {}
        for imp in target.imports:
            if imp.module != target.name:
                imported.setdefault(imp.module, []).append(imp)
        declared = set().union(*(d.modules for d in target.dependencies)) if target.dependencies else set()
        for module in sorted(imported):
            if module in system or module in declared:
                continue
            first = imported[module][0]
            others = len({i.path for i in imported[module]}) - 1
            more = f", and {others} other file{'s' if others > 1 else ''}" if others else ""
            problems.append(
                f"Package.swift: target '{target.name}' imports '{module}' but does not declare it "
                f"({first.path}:{first.line}{more})"
            )
            if module not in local:
                unknown.add(module)
        for dependency in target.dependencies:
            if not dependency.modules & imported.keys():
                problems.append(f"Package.swift: target '{target.name}' declares '{dependency.name}' but never imports it")
    return problems, sorted(unknown)


def parse_mapping(text: str) -> tuple[str, tuple[str, ...]]:
    product, separator, modules = text.partition("=")
    names = tuple(m.strip() for m in modules.split(",") if m.strip())
    if not separator or not product.strip() or not names:
        raise argparse.ArgumentTypeError(f"expected PRODUCT=MODULE[,MODULE], got {text!r}")
    return product.strip(), names


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--package-path", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--manifest-json", type=Path)
    parser.add_argument("--system", action="append", default=[])
    parser.add_argument("--product-module", action="append", default=[], type=parse_mapping)
    parser.add_argument("--only-on", action="append", default=[], type=parse_mapping)
    parser.add_argument("--list", action="store_true")
    parser.add_argument("-h", "--help", action="store_true")
    args = parser.parse_args(argv)
    if args.help:
        print(__doc__.strip())
        return 0

    package = args.package_path.resolve()
    table = dict(PRODUCT_MODULES)
    table.update(dict(args.product_module))
    system = SYSTEM_MODULES | frozenset(args.system)
    try:
        if not package.is_dir():
            raise CannotRun(f"no such folder: {package}")
        manifest = load_manifest(args.manifest_json) if args.manifest_json else dump_manifest(package)
        targets, skipped = read_targets(manifest, package, table)
    except CannotRun as error:
        print(f"{TOOL}: {error}", file=sys.stderr)
        return 2

    if args.list:
        for target in targets:
            modules = sorted({i.module for i in target.imports})
            declared = [d.name for d in target.dependencies]
            print(f"{target.name} ({target.type}, {target.swift_files} Swift files): "
                  f"imports {', '.join(modules) or '-'}; declares {', '.join(declared) or '-'}")

    only_on = dict(args.only_on)
    for name in only_on:
        if name not in {t.name for t in targets}:
            print(f"{TOOL}: --only-on names no checked target: {name}", file=sys.stderr)
            return 2
    problems, unknown = check(targets, system, only_on)
    provided: dict[str, set[str]] = {}  # module -> the product declarations that provide it
    for target in targets:
        for dependency in target.dependencies:
            if dependency.kind == "product":
                for module in dependency.modules:
                    provided.setdefault(module, set()).add(
                        f'.product(name: "{dependency.name}", package: "{dependency.package}")')
    checked = [t for t in targets if t.swift_files]
    imports = sum(len(t.imports) for t in checked)
    files = sum(t.swift_files for t in checked)
    dependencies = sum(len(t.dependencies) for t in checked)
    for problem in problems:
        print(problem)
    if problems:
        for module in unknown:
            if module in provided:
                print(f"{TOOL}: note: '{module}' is provided by {' or '.join(sorted(provided[module]))}, "
                      f"as other targets declare it")
            else:
                print(f"{TOOL}: note: '{module}' is neither a target of this package nor a product any "
                      f"target declares: declare the product that provides it, or, if the toolchain or "
                      f"an SDK provides it, add it to SYSTEM_MODULES (or pass --system {module})")
        missing = sum(" imports '" in p for p in problems)
        layering = sum(" depends on '" in p for p in problems)
        unused = len(problems) - missing - layering
        print(f"{TOOL}: FAILED: {missing} undeclared import{'s' if missing != 1 else ''}, "
              f"{unused} unused dependenc{'ies' if unused != 1 else 'y'}"
              + (f", {layering} layering violation{'s' if layering != 1 else ''}" if layering else "")
              + " in Package.swift")
        return 1
    not_swift = len(targets) - len(checked)
    extra = f"; {not_swift} target{'s' if not_swift != 1 else ''} without Swift files skipped" if not_swift else ""
    extra += f"; {skipped} system/binary/plugin target{'s' if skipped != 1 else ''} skipped" if skipped else ""
    print(f"{TOOL}: OK: {len(checked)} targets checked: {imports} import declarations in {files} Swift files "
          f"match {dependencies} declared dependencies{extra}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
