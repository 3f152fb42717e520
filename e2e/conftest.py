"""The phone under test: an Appium session created on first use from what the Given steps asked for.

`E2E_SERVER` names the Appium server (default http://127.0.0.1:4723, where scripts/e2e.sh starts
`petspot appium`); pointed at a real Appium server with the XCUITest driver, the same suite drives the
iOS app built from App/ (docs/e2e.md), and scenarios tagged @simulated are skipped there.
"""

import json
import os
import urllib.request

import pytest
from appium import webdriver
from appium.options.ios import XCUITestOptions

from screens import PermissionsScreen, StartupScreen, SystemAlert, WalkScreen

SERVER = os.environ.get("E2E_SERVER", "http://127.0.0.1:4723")
# How permissions are written: "applesimutils" (location always | inuse | never | unset, what the
# simulated iPhone and older XCUITest drivers take) or "simctl" (location yes | no | unset and
# location-always yes, what drivers built on `simctl privacy` take). The simulated iPhone takes both.
PERMISSIONS_FORMAT = os.environ.get("E2E_PERMISSIONS", "applesimutils")
SIMCTL_LOCATION = {
    "always": ("location-always", "yes"),
    "inuse": ("location", "yes"),
    "never": ("location", "no"),
    "unset": ("location", "unset"),
}


def driver_permissions(permissions):
    """The permissions as the server's driver takes them (see PERMISSIONS_FORMAT)."""
    if PERMISSIONS_FORMAT != "simctl" or "location" not in permissions:
        return dict(permissions)
    translated = {key: value for key, value in permissions.items() if key != "location"}
    service, value = SIMCTL_LOCATION[permissions["location"]]
    translated[service] = value
    return translated
BUNDLE_ID = "org.petspot.PetSpot"
PAINT_MY_TOWN_BUNDLE_ID = "org.petspot.PaintMyTown"
SETTINGS_BUNDLE_ID = "com.apple.Preferences"


def _server_is_simulated():
    """Whether the server is `petspot appium` (its /status says so), which can set what a real phone cannot."""
    try:
        with urllib.request.urlopen(f"{SERVER}/status", timeout=5) as response:
            status = json.load(response)
    except OSError as error:
        pytest.exit(f"no Appium server answers at {SERVER}: {error}", returncode=3)
    return status.get("value", {}).get("build", {}).get("version") == "petspot"


def pytest_collection_modifyitems(config, items):
    if not any("simulated" in item.keywords for item in items) or _server_is_simulated():
        return
    skip = pytest.mark.skip(reason="needs a phone state only the simulated iPhone can set")
    for item in items:
        if "simulated" in item.keywords:
            item.add_marker(skip)


# What the identifier check needs to know of this run: which scenarios were left out, and how each
# that ran ended (tests/test_identifiers.py).
DESELECTED = []
OUTCOMES = {}


def pytest_deselected(items):
    DESELECTED.extend(item.nodeid for item in items)


def pytest_runtest_logreport(report):
    if report.when == "call" or report.outcome != "passed":
        OUTCOMES[report.nodeid] = report.outcome


class Phone:
    """The session, its capabilities until it starts, and the screens."""

    def __init__(self):
        # The app under test: PetSpot unless a Given step installs Paint My Town.
        self.bundle_id = BUNDLE_ID
        # The walk's distance (km) and the seconds away, as the person leaves Paint My Town.
        self.walk_before = None
        self.permissions = {}
        self.device = {}
        self.network = {}
        self._driver = None

    @property
    def started(self):
        return self._driver is not None

    @property
    def driver(self):
        if self._driver is None:
            options = XCUITestOptions()
            options.platform_name = "iOS"
            options.bundle_id = self.bundle_id
            # The When steps launch the app, after the Given steps have set the phone up.
            options.set_capability("appium:autoLaunch", False)
            options.set_capability("appium:language", "en")
            options.set_capability("appium:locale", "en_GB")
            if self.permissions:
                options.set_capability("appium:permissions", json.dumps({self.bundle_id: driver_permissions(self.permissions)}))
            if self.device:
                options.set_capability("petspot:device", self.device)
            if self.network:
                options.set_capability("petspot:network", self.network)
            self._driver = webdriver.Remote(SERVER, options=options)
        return self._driver

    def launch(self):
        self.driver.execute_script("mobile: launchApp", {"bundleId": self.bundle_id})

    def terminate(self):
        self.driver.execute_script("mobile: terminateApp", {"bundleId": self.bundle_id})

    def app_state(self, bundle_id=None):
        return self.driver.execute_script("mobile: queryAppState", {"bundleId": bundle_id or self.bundle_id})

    def set_permission(self, service, value):
        access = driver_permissions({service: value})
        self.driver.execute_script("mobile: setPermission", {"bundleId": self.bundle_id, "access": access})

    def open_settings_app(self):
        self.driver.execute_script("mobile: activateApp", {"bundleId": SETTINGS_BUNDLE_ID})

    def return_to_app(self):
        self.driver.execute_script("mobile: activateApp", {"bundleId": self.bundle_id})

    @property
    def startup(self):
        return StartupScreen(self.driver)

    @property
    def permissions_screen(self):
        return PermissionsScreen(self.driver)

    @property
    def alert(self):
        return SystemAlert(self.driver)

    @property
    def walk(self):
        return WalkScreen(self.driver)

    def quit(self):
        if self._driver is not None:
            self._driver.quit()
            self._driver = None


@pytest.fixture
def phone():
    phone = Phone()
    yield phone
    phone.quit()
