#!/usr/bin/env python3
"""Checks that every requirement, criterion, story, departure and iOS rule cited in the Swift sources
has an entry in docs/requirements.md.

    scripts/check-requirement-refs.py [--root DIR] [--doc FILE] [--list] [--check-evidence]
    scripts/check-requirement-refs.py --self-test

Scans every *.swift file under Sources/ and Tests/ (relative to the repository root, which is this
script's parent folder unless --root says otherwise) for citations in any of the forms the code uses,
case-insensitively:

    FR-001  SC-002  PG-FR-003  PG-SC-001       one id; "FR-009/FR-014" is two
    FR-001…FR-015  FR-001–FR-015  FR-003/004    a range or a short list of one kind
    US4  US4-4  US1 scenario 2  user story 3    a story, or one of its acceptance scenarios
    us1-2-granted-always                        a scenario file's name cites US1-2
    rule 7  Rule 13–16  rules 5 and 7           iOS rules; plural forms take lists and ranges:
    rules 11, 13–18  rules 12-14                "rules 1 and 10", "rules 8, 10", "rules 19–22"
    rule07_givenX_whenY_thenZ                   a test named after a rule cites that rule
    departure 5  departures 5 and 7             deliberate departures, same list forms

An id resolves when docs/requirements.md has an entry for it: a list item whose text starts with the
id in bold, e.g. "- **FR-001** …", "- **US1-2** …", "- **Rule 18** …", "- **Departure 5** …"
(indented items count too; case and leading zeros do not matter).

Each unresolved citation is printed as `FILE:LINE: unresolved reference 'rule 31'`, followed by a
summary; the exit status is then 1. When everything resolves, one OK line is printed and the exit
status is 0. Status 2 means the tool could not run (no such root, no requirements file).

Options:
  --root DIR        the repository root (default: the parent of this script's folder)
  --doc FILE        the requirements file, relative to the root (default: docs/requirements.md)
  --list            also print every citation found: FILE:LINE: ID (as cited)
  --check-evidence  also check the requirements file itself: every entry names a test or a scenario
                    that exists (a backticked `givenX_whenY_thenZ` / `ruleNN_…` test function defined
                    under Tests/, a `*.json` scenario under Sources/ScenarioRunner/Scenarios/, a
                    `*.swift` file under Tests/) or says "not covered"
  --self-test       run this tool against throw-away repositories and check its answers
  -h, --help        show this text
"""
from __future__ import annotations

import argparse
import bisect
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

SCAN_DIRS = ("Sources", "Tests")
DEFAULT_DOC = "docs/requirements.md"
SCENARIO_DIR = "Sources/ScenarioRunner/Scenarios"

# ---------------------------------------------------------------------------------------------------
# Ids

# An id is a tuple: ("FR", n), ("SC", n), ("PG-FR", n), ("PG-SC", n), ("US", story, scenario-or-0),
# ("RULE", n), ("DEPARTURE", n).
Id = tuple


def canonical(ident: Id) -> str:
    """The id as the requirements file spells it."""
    kind = ident[0]
    if kind in ("FR", "SC", "PG-FR", "PG-SC"):
        return f"{kind}-{ident[1]:03d}"
    if kind == "US":
        return f"US{ident[1]}" if ident[2] == 0 else f"US{ident[1]}-{ident[2]}"
    return f"{kind.capitalize()} {ident[1]}"


def spoken(ident: Id) -> str:
    """The id as a message names it: "rule 31", "departure 10", "FR-016", "US4-5"."""
    text = canonical(ident)
    return text.lower() if ident[0] in ("RULE", "DEPARTURE") else text


_ENTRY_ID = re.compile(
    r"(?:(?P<pg>PG-)?(?P<frsc>FR|SC)-(?P<n>\d+))"
    r"|(?:US(?P<story>\d+)(?:-(?P<scenario>\d+))?)"
    r"|(?:(?P<word>rule|departure)\s+(?P<m>\d+))",
    re.IGNORECASE,
)


def parse_entry_id(text: str) -> Id | None:
    """The id of a requirements-file entry's bold text, or None if it is not an id."""
    match = _ENTRY_ID.fullmatch(text.strip())
    if not match:
        return None
    if match["frsc"]:
        kind = match["frsc"].upper()
        return ((f"PG-{kind}" if match["pg"] else kind), int(match["n"]))
    if match["story"]:
        return ("US", int(match["story"]), int(match["scenario"] or 0))
    return (match["word"].upper(), int(match["m"]))


# ---------------------------------------------------------------------------------------------------
# Citations in the sources

_RANGE = r"\s*(?:–|—|‒|-|…|\.\.\.?|\bto\b|\bthrough\b)\s*"
_LIST = r"\s*(?:,|/|&|\band\b|\bor\b)\s*(?:and\s+|or\s+)?"
_ITEM = rf"\d+(?:{_RANGE}\d+)?"

PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    # "rules 5 and 7", "rules 11, 13–18", "departures 5–7"
    ("plural", re.compile(rf"\b(?P<word>rule|departure)s\s+(?P<items>{_ITEM}(?:{_LIST}{_ITEM})*)",
                          re.IGNORECASE)),
    # "rule 7", "Rule 13–16", "departure 5"
    ("singular", re.compile(rf"\b(?P<word>rule|departure)\s+(?:no\.\s*)?(?P<items>{_ITEM})(?![\d])",
                            re.IGNORECASE)),
    # "rule07_givenX_whenY_thenZ": a test named after a rule
    ("test-name", re.compile(r"\b(?P<word>rule)(?P<items>\d+)_", re.IGNORECASE)),
    # "FR-001…FR-015", "SC-001 – SC-002", "PG-FR-001 to PG-FR-004"
    ("id-range", re.compile(
        r"(?<![A-Za-z]-)\b(?P<pg>PG-)?(?P<kind>FR|SC)-(?P<a>\d+)"
        r"\s*(?:…|\.\.\.?|–|—|‒|\bto\b|\bthrough\b)\s*"
        r"(?P<pg2>PG-)?(?P<kind2>FR|SC)-(?P<b>\d+)", re.IGNORECASE)),
    # "FR-003", "PG-SC-001", with a short tail: "FR-003/004", "FR-003–005"
    ("id", re.compile(
        r"(?<![A-Za-z]-)\b(?P<pg>PG-)?(?P<kind>FR|SC)-(?P<a>\d+)\b"
        r"(?P<tail>(?:\s*(?:/|–|—|‒)\s*\d+\b(?!-))*)", re.IGNORECASE)),
    # "US1–US4", "US1 to US4"
    ("story-range", re.compile(
        r"\bUS(?P<a>\d+)\s*(?:–|—|‒|…|\.\.\.?|-|\bto\b|\bthrough\b)\s*US(?P<b>\d+)\b", re.IGNORECASE)),
    # "US4", "US4-4", "us1-2-granted-always", "US1 scenario 2", "US1, acceptance scenario 2"
    ("story", re.compile(
        r"\bUS(?P<story>\d+)(?:-(?P<scenario>\d+)"
        r"|,?\s+(?:acceptance\s+)?scenario\s+(?P<scenario2>\d+))?(?!\d)", re.IGNORECASE)),
    # "user story 3", "user stories 1 and 2", "user story 1, scenario 2"
    ("user-story", re.compile(
        rf"\buser\s+stor(?:y|ies)\s+(?P<items>{_ITEM}(?:{_LIST}{_ITEM})*)"
        r"(?:,?\s+(?:acceptance\s+)?scenario\s+(?P<scenario>\d+))?", re.IGNORECASE)),
]


@dataclass(frozen=True)
class Citation:
    path: str
    line: int
    ident: Id
    text: str  # the citation as written (a whole range or list when the id came from one)


class Malformed(Exception):
    pass


def _numbers(items: str) -> list[int]:
    """The numbers of "5 and 7", "11, 13–18", "12-14"."""
    numbers: list[int] = []
    for item in re.split(_LIST, items):
        bounds = [int(n) for n in re.split(_RANGE, item.strip()) if n]
        if len(bounds) == 1:
            numbers.append(bounds[0])
        else:
            low, high = bounds
            if low > high:
                raise Malformed(item)
            numbers.extend(range(low, high + 1))
    return numbers


def ids_of(kind: str, match: re.Match[str]) -> list[Id]:
    if kind in ("plural", "singular", "test-name"):
        word = match["word"].upper()
        return [(word, n) for n in _numbers(match["items"])]
    if kind == "id-range":
        first = ((("PG-" if match["pg"] else "") + match["kind"].upper()))
        second = ((("PG-" if match["pg2"] else "") + match["kind2"].upper()))
        low, high = int(match["a"]), int(match["b"])
        if first != second or low > high:
            raise Malformed(match[0])
        return [(first, n) for n in range(low, high + 1)]
    if kind == "id":
        prefix = ("PG-" if match["pg"] else "") + match["kind"].upper()
        numbers = [int(match["a"])]
        for separator, n in re.findall(r"\s*(/|–|—|‒)\s*(\d+)", match["tail"] or ""):
            n = int(n)
            if separator == "/":
                numbers.append(n)
            else:
                if n < numbers[-1]:
                    raise Malformed(match[0])
                numbers.extend(range(numbers[-1] + 1, n + 1))
        return [(prefix, n) for n in numbers]
    if kind == "story-range":
        low, high = int(match["a"]), int(match["b"])
        if low > high:
            raise Malformed(match[0])
        return [("US", n, 0) for n in range(low, high + 1)]
    if kind == "story":
        scenario = match["scenario"] or match["scenario2"]
        return [("US", int(match["story"]), int(scenario or 0))]
    if kind == "user-story":
        stories = _numbers(match["items"])
        if match["scenario"] and len(stories) == 1:
            return [("US", stories[0], int(match["scenario"]))]
        return [("US", n, 0) for n in stories]
    raise AssertionError(kind)


_COMMENT_PREFIX = re.compile(r"^\s*(?:/\*+|\*+/?|//+)?\s?")


def scan_text(path: str, text: str) -> tuple[list[Citation], list[tuple[str, int, str]]]:
    """The citations of one file, and its malformed ones as (path, line, text).

    Lines are joined after their comment markers are removed, so a citation wrapped onto the next
    comment line ("rules 5 and" / "// 7") is still read whole; it is reported at its first line.
    """
    starts: list[int] = []
    pieces: list[str] = []
    offset = 0
    for line in text.split("\n"):
        stripped = _COMMENT_PREFIX.sub("", line, count=1)
        starts.append(offset)
        pieces.append(stripped)
        offset += len(stripped) + 1
    joined = " ".join(pieces)

    found: dict[tuple[int, Id], Citation] = {}
    malformed: list[tuple[str, int, str]] = []
    for kind, pattern in PATTERNS:
        for match in pattern.finditer(joined):
            line = bisect.bisect_right(starts, match.start())
            try:
                idents = ids_of(kind, match)
            except Malformed:
                malformed.append((path, line, match[0].strip()))
                continue
            for ident in idents:
                key = (line, ident)
                # Keep the most telling text: a range or list rather than the bare id inside it.
                if key not in found or len(idents) > 1:
                    found[key] = Citation(path, line, ident, match[0].strip())
    citations = sorted(found.values(), key=lambda c: (c.line, canonical(c.ident)))
    return citations, sorted(set(malformed))


def swift_files(root: Path) -> list[Path]:
    files: list[Path] = []
    for folder in SCAN_DIRS:
        base = root / folder
        if not base.is_dir():
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            files.extend(Path(dirpath) / name for name in sorted(filenames) if name.endswith(".swift"))
    return files


# ---------------------------------------------------------------------------------------------------
# The requirements file

_ENTRY = re.compile(r"^\s*[-*+]\s+\*\*(?P<id>[^*]+?)\*\*")


@dataclass
class Entry:
    ident: Id
    line: int
    text: str  # the item and its continuation lines


def read_entries(doc: Path) -> list[Entry]:
    entries: list[Entry] = []
    current: Entry | None = None
    for number, line in enumerate(doc.read_text(encoding="utf-8", errors="replace").split("\n"), 1):
        match = _ENTRY.match(line)
        if match and (ident := parse_entry_id(match["id"])):
            current = Entry(ident, number, line)
            entries.append(current)
        elif current and line.strip() and not re.match(r"^\s*([-*+]\s|#)", line):
            current.text += "\n" + line
        else:
            current = None
    return entries


def check_evidence(root: Path, entries: list[Entry], doc_name: str) -> list[str]:
    """Problems with the evidence the entries name.

    A test function counts when it is defined under Tests/ (in the file named just before it, if
    one is: "`ATests.swift` › `givenX_whenY_thenZ`"); a scenario when its file is in the bundled
    scenarios. A file name alone is not evidence, but it must exist.
    """
    functions_by_file: dict[str, set[str]] = {}
    for path in swift_files(root):
        if path.relative_to(root).parts[0] != "Tests":
            continue
        names = re.findall(r"\bfunc\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(",
                           path.read_text(encoding="utf-8", errors="replace"))
        functions_by_file.setdefault(path.name, set()).update(names)
    all_functions = set().union(*functions_by_file.values()) if functions_by_file else set()
    scenario_dir = root / SCENARIO_DIR
    scenarios = {p.name for p in scenario_dir.glob("*.json")} if scenario_dir.is_dir() else set()

    problems: list[str] = []
    for entry in entries:
        evidence = 0
        current_file: str | None = None
        where = f"{doc_name}:{entry.line}: {canonical(entry.ident)}"
        for name in re.findall(r"`([^`\s]+)`", entry.text):
            if name.endswith(".swift"):
                current_file = Path(name).name
                if current_file not in functions_by_file and not (root / name).is_file():
                    problems.append(f"{where} names `{name}`, which does not exist under Tests/")
                    current_file = None
            elif name.endswith(".json"):
                if name in scenarios:
                    evidence += 1
                else:
                    problems.append(f"{where} names scenario `{name}`, which is not in {SCENARIO_DIR}/")
            elif re.fullmatch(r"(?:rule\d+_)?given[A-Za-z0-9]*_when[A-Za-z0-9_]*", name):
                if current_file in functions_by_file:
                    found = name in functions_by_file[current_file]
                    place = f" in {current_file}"
                else:
                    found = name in all_functions
                    place = ""
                if found:
                    evidence += 1
                else:
                    problems.append(f"{where} names `{name}`, which does not exist{place}")
        if evidence == 0 and "not covered" not in entry.text.lower():
            problems.append(f"{where} names no existing test or scenario and does not say \"not covered\"")
    return problems


# ---------------------------------------------------------------------------------------------------


def run(root: Path, doc_name: str, list_all: bool, evidence: bool) -> int:
    if not root.is_dir():
        print(f"check-requirement-refs: no such folder: {root}", file=sys.stderr)
        return 2
    doc = root / doc_name
    if not doc.is_file():
        print(f"check-requirement-refs: no requirements file at {doc}", file=sys.stderr)
        return 2
    entries = read_entries(doc)
    known = {entry.ident for entry in entries}

    citations: list[Citation] = []
    malformed: list[tuple[str, int, str]] = []
    files = swift_files(root)
    for path in files:
        relative = path.relative_to(root).as_posix()
        found, bad = scan_text(relative, path.read_text(encoding="utf-8", errors="replace"))
        citations.extend(found)
        malformed.extend(bad)

    if list_all:
        for c in citations:
            print(f"{c.path}:{c.line}: {canonical(c.ident)} ({c.text})")

    unresolved = [c for c in citations if c.ident not in known]
    for c in unresolved:
        cited = f" (cited as '{c.text}')" if c.text.lower() != spoken(c.ident).lower() else ""
        print(f"{c.path}:{c.line}: unresolved reference '{spoken(c.ident)}'{cited}")
    for path, line, text in malformed:
        print(f"{path}:{line}: malformed citation '{text}' (a range must run upwards within one kind)")
    problems = check_evidence(root, entries, doc_name) if evidence else []
    for problem in problems:
        print(problem)

    distinct = {c.ident for c in citations}
    if unresolved or malformed or problems:
        parts = []
        if unresolved:
            missing = sorted({c.ident for c in unresolved}, key=lambda i: (i[0], i[1:]))
            parts.append(f"{len(unresolved)} unresolved citation(s) of {len(missing)} id(s) missing from "
                         f"{doc_name}: {', '.join(spoken(i) for i in missing)}")
        if malformed:
            parts.append(f"{len(malformed)} malformed citation(s)")
        if problems:
            parts.append(f"{len(problems)} problem(s) with the evidence {doc_name} names")
        print(f"check-requirement-refs: FAILED: {'; '.join(parts)} "
              f"({len(citations)} citations in {len(files)} Swift files checked)")
        return 1
    extra = f"; {len(entries)} entries name existing evidence" if evidence else ""
    print(f"check-requirement-refs: OK: {len(citations)} citations of {len(distinct)} distinct ids in "
          f"{len(files)} Swift files all resolve to entries in {doc_name}{extra}")
    return 0


# ---------------------------------------------------------------------------------------------------
# Self-test


def self_test() -> int:
    script = Path(__file__).resolve()
    failures: list[str] = []

    def make_repo(base: Path, swift: str, doc: str) -> Path:
        (base / "Sources" / "X").mkdir(parents=True)
        (base / "Tests" / "XTests").mkdir(parents=True)
        (base / "docs").mkdir()
        (base / "Sources" / "X" / "a.swift").write_text(swift, encoding="utf-8")
        (base / "Tests" / "XTests" / "ATests.swift").write_text(
            "@Test func rule05_givenAllowOnce_whenAway_thenLapses() {}\n", encoding="utf-8")
        (base / "docs" / "requirements.md").write_text(doc, encoding="utf-8")
        return base

    def check(name: str, repo: Path, want_status: int, want_lines: list[str], absent: list[str] = (),
              extra: list[str] = ()) -> None:
        result = subprocess.run([sys.executable, str(script), "--root", str(repo), *extra],
                                capture_output=True, text=True)
        output = result.stdout + result.stderr
        if result.returncode != want_status:
            failures.append(f"{name}: exit {result.returncode}, wanted {want_status}\n{output}")
        for line in want_lines:
            if line not in output:
                failures.append(f"{name}: output lacks {line!r}\n{output}")
        for line in absent:
            if line in output:
                failures.append(f"{name}: output has {line!r}\n{output}")

    swift = (
        "/// Asks again after a lapse (rules 5 and 7); FR-003/FR-004 and FR-009/014.\n"
        "/// Every rule of the screen (FR-001…\n"
        "/// FR-003). US1-2, us2-1-first-launch, US3 scenario 1, user story 4.\n"
        "// Rule 13–14; rules 12-14; departures 5 and 6; see rule 31.\n"
    )
    doc_complete = "# Requirements\n\n" + "".join(
        f"- **{i}** text `givenA_whenB_thenC`\n" for i in
        ["FR-001", "FR-002", "FR-003", "FR-004", "FR-009", "FR-010", "FR-011", "FR-012", "FR-013", "FR-014",
         "US1", "US1-2", "US2", "US2-1", "US3", "US3-1", "US4",
         "Departure 5", "Departure 6", "Rule 5", "Rule 7", "Rule 12", "Rule 13", "Rule 14"])
    with tempfile.TemporaryDirectory() as tmp:
        missing = make_repo(Path(tmp) / "missing", swift, doc_complete)
        check("givenACitationOfAMissingRule_whenChecked_thenExit1NamingFileLineAndRule", missing, 1,
              ["Sources/X/a.swift:4: unresolved reference 'rule 31'", "check-requirement-refs: FAILED"],
              absent=["'rule 12'", "'FR-003'", "'FR-002'", "'US1-2'", "'departure 6'"])

        passing = make_repo(Path(tmp) / "passing", swift, doc_complete + "  - **rule 31** nested, lower case\n")
        check("givenEveryCitationHasAnEntry_whenChecked_thenExit0WithOneOkLine", passing, 0,
              ["check-requirement-refs: OK: "], absent=["unresolved"])

        ranged = make_repo(Path(tmp) / "ranged", "// rules 12–14 and FR-001…FR-003\n",
                           "- **Rule 12** a\n- **Rule 14** b\n- **FR-001** c\n- **FR-003** d\n")
        check("givenRangesWithAGap_whenChecked_thenTheMiddleIdsAreReported", ranged, 1,
              ["Sources/X/a.swift:1: unresolved reference 'rule 13' (cited as 'rules 12–14')",
               "Sources/X/a.swift:1: unresolved reference 'FR-002' (cited as 'FR-001…FR-003')"])

        backwards = make_repo(Path(tmp) / "backwards", "// rules 14–12\n", "- **Rule 12** a\n")
        check("givenABackwardsRange_whenChecked_thenItIsMalformed", backwards, 1,
              ["Sources/X/a.swift:1: malformed citation 'rules 14–12'"])

        evidence = make_repo(Path(tmp) / "evidence", "// rule 5\n",
                             "- **Rule 5** `rule05_givenAllowOnce_whenAway_thenLapses`\n"
                             "- **Rule 6** `givenGone_whenRun_thenMissing`\n"
                             "- **Rule 7** not covered\n- **Rule 8** nothing\n"
                             "- **Rule 9** `ATests.swift` › `rule05_givenAllowOnce_whenAway_thenLapses`\n"
                             "- **Rule 10** `BTests.swift` › `rule05_givenAllowOnce_whenAway_thenLapses`\n")
        check("givenEntriesNamingMissingTests_whenEvidenceChecked_thenEachIsReported", evidence, 1,
              ["docs/requirements.md:2: Rule 6 names `givenGone_whenRun_thenMissing`, which does not exist",
               "docs/requirements.md:4: Rule 8 names no existing test",
               "docs/requirements.md:6: Rule 10 names `BTests.swift`, which does not exist under Tests/"],
              absent=["Rule 5 names", "Rule 7 names", "Rule 9 names"], extra=["--check-evidence"])

        check("givenNoRequirementsFile_whenChecked_thenExit2", Path(tmp) / "nowhere", 2,
              ["check-requirement-refs: no such folder"])

    for failure in failures:
        print(f"check-requirement-refs --self-test: FAILED: {failure}", file=sys.stderr)
    if failures:
        return 1
    print("check-requirement-refs --self-test: OK: 6 cases passed")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(
        prog="check-requirement-refs.py", add_help=False,
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter, usage=argparse.SUPPRESS)
    parser.add_argument("-h", "--help", action="store_true")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    parser.add_argument("--doc", default=DEFAULT_DOC)
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--check-evidence", action="store_true")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.help:
        print(__doc__.strip())
        return 0
    if args.self_test:
        return self_test()
    root = args.root.resolve()
    if root.is_dir():
        os.chdir(root)
    return run(root, args.doc, args.list, args.check_evidence)


if __name__ == "__main__":
    sys.exit(main())
