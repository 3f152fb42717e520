#!/usr/bin/env python3
"""Checks that every requirement, story, departure and iOS rule cited in Sources/ and Tests/ is defined
in docs/requirements.md, and that each citation is written the one way the project writes it.

    scripts/check-requirement-refs.py [--check-evidence]

One id per citation, as docs/requirements.md names its entries: FR-001, SC-002, PG-FR-003, PG-SC-001,
US1, US1-2, rule 18 (or Rule 18), departure 5. Lists, ranges to a bare number and stories in words
("rules 5 and 7", "FR-003/004", "rule 13–16", "user story 3", "US1 scenario 2", "fr-003") are refused:
write each id ("rule 5, rule 7", "rule 13 to rule 16", "US3", "US1-2"). Test names (rule07_…) are
identifiers, not citations.
--check-evidence also checks that every entry names a test (`File.swift` › `givenX_whenY_thenZ`) or a
scenario (`name.json` in Sources/ScenarioRunner/Scenarios/) that exists, or says "not covered".
Exit status: 0 when all is well (one OK line), 1 with a line per problem.
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs/requirements.md"
SCENARIOS = ROOT / "Sources/ScenarioRunner/Scenarios"
# One id, as a citation writes it; `(?<![\w-])` keeps "PG-FR-003" from also citing "FR-003".
CITATION = re.compile(r"(?<![\w-])(?:(?:PG-)?(?:FR|SC)-\d+|US\d+(?:-\d+)?(?![\w-])|(?i:rule|departure) \d+)\b")
# Other ways of citing, which the one spelling replaces. SEP: a list or range going on to a bare number.
SEP = r"\s*(?:[/–—‒…-]|\.\.|\bto\b|\bthrough\b)\s*\d+"
OTHER = re.compile(
    rf"\b(?:rules|departures)\s+\d+|\b(?:rule|departure)(?:(?! \d)\s+\d+|\s+no\.\s*\d+|\s+\d+{SEP})"
    rf"|\b(?:FR|SC)-\d+{SEP}|\bUS\d+(?:-\d+)?-US\d+|(?-i:\b(?:pg-)?(?:fr|sc)-\d+)"
    r"|\buser\s+stor(?:y|ies)\s+\d+|\bUS\d+,?\s+(?:acceptance\s+)?scenario\s+\d+", re.IGNORECASE)
ENTRY = re.compile(r"^\s*[-*+] \*\*([^*]+)\*\*")


def key(ident: str) -> str:
    """An id as compared: upper case, one space, no leading zeros."""
    return re.sub(r"\b0+(\d)", r"\1", " ".join(ident.upper().split()))


def entries() -> dict[str, tuple[int, str]]:
    """Each entry of the requirements file by id: its line and its text with continuation lines."""
    found: dict[str, tuple[int, str]] = {}
    current = None
    for number, line in enumerate(DOC.read_text(encoding="utf-8").splitlines(), 1):
        if match := ENTRY.match(line):
            current = key(match[1])
            found[current] = (number, line)
        elif current and line.strip() and not re.match(r"^\s*([-*+] |#)", line):
            found[current] = (found[current][0], found[current][1] + "\n" + line)
        else:
            current = None
    return found


def evidence_problems(defined: dict[str, tuple[int, str]], tests: dict[str, str]) -> list[str]:
    problems = []
    for ident, (number, text) in defined.items():
        where, shown, current = f"docs/requirements.md:{number}: {ident}", 0, None
        for name in re.findall(r"`([^`\s]+)`", text):
            if name.endswith(".swift"):
                current = Path(name).name
                if current not in tests:
                    problems.append(f"{where} names `{name}`, which is not under Tests/")
            elif name.endswith(".json"):
                if (SCENARIOS / name).is_file():
                    shown += 1
                else:
                    problems.append(f"{where} names a missing scenario `{name}`")
            elif re.fullmatch(r"(?:rule\d+_)?given\w*_when\w*", name):
                # In the file named just before it, if one is; else anywhere under Tests/.
                source = tests.get(current or "", "\n".join(tests.values()))
                if re.search(rf"\bfunc\s+{name}\s*\(", source):
                    shown += 1
                else:
                    problems.append(f"{where} names a missing test `{name}`")
        if not shown and "not covered" not in text.lower():
            problems.append(f'{where} names no existing test or scenario and does not say "not covered"')
    return problems


def main() -> int:
    defined = entries()
    problems, count = [], 0
    for path in sorted((ROOT / "Sources").rglob("*.swift")) + sorted((ROOT / "Tests").rglob("*.swift")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            where = f"{path.relative_to(ROOT)}:{number}"
            for match in OTHER.finditer(line):
                problems.append(f"{where}: write '{match[0]}' as one id per citation (e.g. 'rule 5, rule 7')")
            for match in CITATION.finditer(line):
                count += 1
                if key(match[0]) not in defined:
                    problems.append(f"{where}: unresolved reference '{match[0]}'")
    if "--check-evidence" in sys.argv[1:]:
        tests = {p.name: p.read_text(encoding="utf-8") for p in (ROOT / "Tests").rglob("*.swift")}
        problems += evidence_problems(defined, tests)
    for problem in problems:
        print(problem)
    if problems:
        print(f"check-requirement-refs: FAILED: {len(problems)} problem(s)")
        return 1
    print(f"check-requirement-refs: OK: {count} citations, each defined in docs/requirements.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
