"""The screen objects and the apps cannot drift apart.

- Every accessibility id a screen object names was found in the running app's element tree during
  the feature suite (`screens.base.FOUND_IDENTIFIERS`), the tree `petspot appium` serves. This runs
  after tests/test_features.py and needs all of it to have passed: against a real Appium server the
  @simulated scenarios are skipped, and so is this check.
- Every such id is an identifier constant of the apps (StartupFeature's `AccessibilityIdentifiers`,
  Permissions' `PermissionsAccessibilityIdentifiers`, PaintMyTownFeature's
  `WalkAccessibilityIdentifiers`), and a SwiftUI view in Sources/CoreUI, Sources/AppUI or
  Sources/PaintMyTownUI sets it. The SwiftUI views cannot run here, so this part reads their Swift
  sources."""

import re
from pathlib import Path

import pytest

import conftest
from screens import PermissionsScreen, StartupScreen, WalkScreen
from screens.base import FOUND_IDENTIFIERS

ROOT = Path(__file__).resolve().parents[2]
CONSTANT_FILES = [
    ROOT / "Sources/StartupFeature/AccessibilityIdentifiers.swift",
    ROOT / "Sources/Permissions/PermissionsAccessibilityIdentifiers.swift",
    ROOT / "Sources/PaintMyTownFeature/WalkAccessibilityIdentifiers.swift",
]
VIEWS = [ROOT / "Sources/CoreUI", ROOT / "Sources/AppUI", ROOT / "Sources/PaintMyTownUI"]

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


SCREEN_OBJECT_IDS = StartupScreen.IDENTIFIERS + PermissionsScreen.IDENTIFIERS + WalkScreen.IDENTIFIERS


def test_given_the_whole_feature_suite_when_it_has_run_then_every_screen_object_id_was_found_in_the_apps_tree(request):
    features = [item.nodeid for item in request.session.items if "test_features.py" in item.nodeid]
    left_out = [nodeid for nodeid in conftest.DESELECTED if "test_features.py" in nodeid]
    if not features or left_out:
        pytest.skip("needs every feature scenario in this run")
    not_passed = [nodeid for nodeid in features if conftest.OUTCOMES.get(nodeid) != "passed"]
    if not_passed:
        pytest.skip(f"{len(not_passed)} feature scenarios did not pass, so not every screen was reached")
    def found(identifier):
        # A row's id stands for every row: any row found in a listing counts.
        if identifier.startswith(StartupScreen.ROW_PREFIX):
            return any(seen.startswith(StartupScreen.ROW_PREFIX) for seen in FOUND_IDENTIFIERS)
        return identifier in FOUND_IDENTIFIERS

    missing = sorted(identifier for identifier in set(SCREEN_OBJECT_IDS) if not found(identifier))
    assert not missing, f"no feature scenario found these ids in the app's tree: {missing}"


@pytest.mark.parametrize("identifier", SCREEN_OBJECT_IDS)
def test_given_a_screen_object_id_when_checked_then_a_view_sets_its_constant(identifier):
    matching = [(name, is_function) for name, pattern, is_function in constants() if pattern.match(identifier)]
    assert matching, f"'{identifier}' is no identifier constant of the app"
    views = "\n".join(path.read_text() for folder in VIEWS for path in sorted(folder.glob("*.swift")))
    for name, is_function in matching:
        used = name + ("(" if is_function else "")
        assert used in views, f"'{identifier}' is {name}, which no view in Sources/CoreUI, Sources/AppUI or Sources/PaintMyTownUI sets"
