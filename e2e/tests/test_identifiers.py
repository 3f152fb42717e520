"""The screen objects and the SwiftUI views cannot drift apart: every accessibility id a screen object
finds must be an identifier constant of the apps (StartupFeature's `AccessibilityIdentifiers`,
Permissions' `PermissionsAccessibilityIdentifiers`, PaintMyTownFeature's `WalkAccessibilityIdentifiers`),
and that constant must be set by a view in Sources/AppUI or Sources/PaintMyTownUI. Reads the Swift
sources only; needs no server."""

import re
from pathlib import Path

import pytest

from screens import PermissionsScreen, StartupScreen, WalkScreen

ROOT = Path(__file__).resolve().parents[2]
CONSTANT_FILES = [
    ROOT / "Sources/StartupFeature/AccessibilityIdentifiers.swift",
    ROOT / "Sources/Permissions/PermissionsAccessibilityIdentifiers.swift",
    ROOT / "Sources/PaintMyTownFeature/WalkAccessibilityIdentifiers.swift",
]
VIEWS = [ROOT / "Sources/AppUI", ROOT / "Sources/PaintMyTownUI"]

DECLARATION = re.compile(r'(?:enum (\w+)|static (?:let (\w+) = |func (\w+)\([^)]*\) -> String \{ )"([^"]*)"(?: \})?)|(\})')
COMMENT = re.compile(r"//[^\n]*")


def constants():
    """Each identifier constant: its qualified Swift name and a pattern of the ids it makes."""
    found = []
    for path in CONSTANT_FILES:
        scope = []
        for match in DECLARATION.finditer(COMMENT.sub("", path.read_text())):
            enum, let_name, func_name, value, closing = match.groups()
            if enum:
                scope.append(enum)
            elif closing:
                if scope:
                    scope.pop()
            else:
                name = ".".join(scope + [let_name or func_name])
                # `\(…)` interpolations (a permission, an animal's id) match any non-empty text.
                pattern = "".join(".+" if part.startswith("\\(") else re.escape(part)
                                  for part in re.split(r"(\\\([^)]*\))", value))
                found.append((name, re.compile(pattern + r"\Z"), func_name is not None))
    return found


def test_given_the_identifier_files_when_read_then_every_kind_of_constant_is_found():
    names = {name for name, _, _ in constants()}
    assert "AccessibilityIdentifiers.PermissionPopup.cancel" in names
    assert "AccessibilityIdentifiers.AnimalList.row" in names
    assert "PermissionsAccessibilityIdentifiers.status" in names
    assert "PermissionsAccessibilityIdentifiers.Detail.done" in names


@pytest.mark.parametrize("identifier", StartupScreen.IDENTIFIERS + PermissionsScreen.IDENTIFIERS + WalkScreen.IDENTIFIERS)
def test_given_a_screen_object_id_when_checked_then_a_view_sets_its_constant(identifier):
    matching = [(name, is_function) for name, pattern, is_function in constants() if pattern.match(identifier)]
    assert matching, f"'{identifier}' is no identifier constant of the app"
    views = "\n".join(path.read_text() for folder in VIEWS for path in sorted(folder.glob("*.swift")))
    for name, is_function in matching:
        used = name + ("(" if is_function else "")
        assert used in views, f"'{identifier}' is {name}, which no view in Sources/AppUI or Sources/PaintMyTownUI sets"
