"""Screen objects: every element is found by its accessibility identifier (or, for iOS's own alerts,
through the XCUITest driver's `mobile: alert`), so the steps never depend on layout or wording."""

from .permissions_screen import PermissionsScreen
from .startup_screen import StartupScreen
from .system_alert import SystemAlert
from .walk_screen import WalkScreen

__all__ = ["PermissionsScreen", "StartupScreen", "SystemAlert", "WalkScreen"]
