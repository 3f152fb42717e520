#!/usr/bin/env python3
"""Checks what SwiftPM does not: that no target declares a dependency it never imports, and the layering
rule that keeps low targets on interfaces only. (An import a target does not declare, SwiftPM itself
refuses: `swift build --explicit-target-dependency-import-check error`, as .ci/run builds.)

    scripts/check-manifest.py [--only-on TARGET=A,B]... [--package-path DIR] [--manifest-json FILE]

The manifest is read from `swift package dump-package` (or a saved dump, --manifest-json). Each target's
Swift files are read for `import` lines (also `@testable import`, `import struct X.Y`, `public import`
and imports inside `#if canImport(...)`); lines in comments and string literals are skipped. A product
provides the module of its name, but where PRODUCT_MODULES says otherwise.
  - `Package.swift: target 'X' declares 'Y' but never imports it`
  - with --only-on TARGET=A,B (the layering rule): `Package.swift: target 'X' depends on 'Y', but may
    depend only on A, B` for any of this package's targets outside the list (products are not limited).
Exit status: 0 and one OK line when all is well; 1 with a line per problem; 2 when the check cannot run.
"""
import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

PRODUCT_MODULES = {"GRDB-dynamic": {"GRDB"}, "_NIOFileSystem": {"_NIOFileSystem", "NIOFileSystem"}}
IMPORT = re.compile(
    r"^\s*(?:@[\w()]+\s+)*(?:(?:public|package|internal|fileprivate|private)\s+)?import\s+"
    r"(?:(?:struct|class|enum|protocol|typealias|func|let|var)\s+)?(\w+)")


def imports(folder: Path) -> set[str]:
    """The modules that the Swift files under `folder` import, outside comments and string literals."""
    found: set[str] = set()
    for path in folder.rglob("*.swift"):
        in_comment = in_string = False
        for line in path.read_text(encoding="utf-8").splitlines():
            stripped = line.strip()
            if in_comment or in_string:
                in_comment = in_comment and "*/" not in stripped
                in_string = in_string and '"""' not in stripped
                continue
            if stripped.startswith("/*") and "*/" not in stripped:
                in_comment = True
            elif stripped.count('"""') % 2 == 1:
                in_string = True
            elif match := IMPORT.match(line):
                found.add(match[1])
    return found


def declared(target: dict) -> dict[str, set[str]]:
    """Each dependency of `target` by name, with the modules it provides."""
    result: dict[str, set[str]] = {}
    for dependency in target.get("dependencies", []):
        kind, value = next(iter(dependency.items()))
        name = value[0]
        result[name] = PRODUCT_MODULES.get(name, {name}) if kind == "product" else {name}
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--package-path", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--manifest-json", type=Path)
    parser.add_argument("--only-on", action="append", default=[], metavar="TARGET=A,B")
    args = parser.parse_args()
    root = args.package_path
    try:
        if args.manifest_json:
            text = args.manifest_json.read_text(encoding="utf-8")
        else:
            text = subprocess.run(["swift", "package", "dump-package"], cwd=root, check=True,
                                  capture_output=True, text=True).stdout
        manifest = json.loads(text)
    except (OSError, subprocess.CalledProcessError, json.JSONDecodeError) as error:
        print(f"check-manifest: cannot read the manifest: {error}", file=sys.stderr)
        return 2
    layering = {rule.split("=")[0]: set(filter(None, rule.split("=", 1)[-1].split(","))) for rule in args.only_on}
    own = {target["name"] for target in manifest["targets"]}
    problems, checked = [], 0
    for target in manifest["targets"]:
        if target["type"] not in ("regular", "executable", "test", "macro"):
            continue
        name = target["name"]
        folder = root / (target.get("path") or f"{'Tests' if target['type'] == 'test' else 'Sources'}/{name}")
        if not folder.is_dir() or not any(folder.rglob("*.swift")):
            continue  # no Swift files (resources only): nothing to judge
        used = imports(folder)
        checked += 1
        for dependency, modules in declared(target).items():
            if not modules & used:
                problems.append(f"Package.swift: target '{name}' declares '{dependency}' but never imports it")
            allowed = layering.get(name)
            if allowed is not None and dependency in own and dependency not in allowed:
                problems.append(f"Package.swift: target '{name}' depends on '{dependency}', but may depend only on "
                                f"{', '.join(sorted(allowed))}")
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-manifest: FAILED: {len(problems)} problem(s) in Package.swift")
        return 1
    print(f"check-manifest: OK: {checked} targets import every dependency they declare; the layering holds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
