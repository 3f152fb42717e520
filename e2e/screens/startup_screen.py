"""The startup screen: the listing of animals, its states, and the location popup over it."""

from appium.webdriver.common.appiumby import AppiumBy
from selenium.common.exceptions import TimeoutException

from .base import FOUND_IDENTIFIERS, Screen


class StartupScreen(Screen):
    # The popup that explains a denied or restricted permission (StartupFeature's AccessibilityIdentifiers).
    POPUP = "startup.permissionPopup"
    POPUP_TITLE = "startup.permissionPopup.title"
    POPUP_MESSAGE = "startup.permissionPopup.message"
    GO_TO_SETTINGS = "startup.permissionPopup.goToSettings"
    CANCEL = "startup.permissionPopup.cancel"
    # The listing and its states.
    LIST = "startup.animalList"
    ERROR = "startup.animalList.error"
    RETRY = "startup.animalList.retry"
    NOTHING_NEARBY = "startup.animalList.nothingNearby"
    SUMMARY = "startup.animalList.summary"
    PERMISSIONS_BUTTON = "startup.animalList.permissions"
    ROW_PREFIX = "startup.animalList.row."
    # Choosing a place instead of sharing location.
    CHOOSE_PLACE_INSTEAD = "startup.permissionPopup.choosePlace"
    CHOOSE_PLACE = "startup.place.choose"
    CLEAR_PLACE = "startup.place.clear"
    PLACE_PICKER = "startup.place.picker"
    PLACE_SEARCH_FIELD = "startup.place.searchField"
    PLACE_FAILED = "startup.place.failed"
    SUGGESTION_PREFIX = "startup.place.suggestion."

    IDENTIFIERS = [
        POPUP, POPUP_TITLE, POPUP_MESSAGE, GO_TO_SETTINGS, CANCEL, LIST, ERROR, RETRY,
        NOTHING_NEARBY, SUMMARY, PERMISSIONS_BUTTON, ROW_PREFIX + "demo-000001",
        CHOOSE_PLACE_INSTEAD, CHOOSE_PLACE, CLEAR_PLACE, PLACE_PICKER, PLACE_SEARCH_FIELD, PLACE_FAILED,
    ]

    # The screen itself.

    def is_showing(self):
        """The screen is up: its toolbar button, or its popup (which hides the rest from accessibility)."""
        return self.is_shown(self.PERMISSIONS_BUTTON) or self.is_shown(self.POPUP)

    def wait_until_showing(self):
        self.wait(self.is_showing, "the startup screen did not appear")

    # The listing.

    def rows(self):
        """The labels of the rows, as VoiceOver reads them (name, kind and, with location, distance)."""
        listing = self.find(self.LIST)
        if listing is None:
            return []
        cells = listing.find_elements(AppiumBy.CLASS_NAME, "XCUIElementTypeCell")
        rows = [cell for cell in cells if cell.get_attribute("name").startswith(self.ROW_PREFIX)]
        FOUND_IDENTIFIERS.update(cell.get_attribute("name") for cell in rows)
        return [cell.get_attribute("label") for cell in rows]

    def summary(self):
        element = self.find(self.SUMMARY)
        return element.text if element is not None else None

    def wait_for_listing(self, near=None):
        """Waits for rows; with `near` True or False, for a listing with or without the person's location.

        A listing that changes while it is read (its elements go stale) is read again on the next poll."""
        seen = {"summary": None, "rows": []}

        def ready():
            seen["summary"], seen["rows"] = self.summary(), self.rows()
            summary, rows = seen["summary"] or "", seen["rows"]
            if not rows:
                return None
            if near is True and not ("near you" in summary and all(" away" in row for row in rows)):
                return None
            if near is False and ("near you" in summary or any(" away" in row for row in rows)):
                return None
            return rows

        kind = {None: "a listing", True: "a listing near the person", False: "a listing without location"}[near]
        try:
            return self.wait(ready, kind)
        except TimeoutException:
            raise AssertionError(f"{kind} did not appear (last seen: {seen['summary']!r}, rows {seen['rows'][:3]})") from None

    def pull_to_refresh(self):
        listing = self.wait_for(self.LIST)
        self.driver.execute_script("mobile: swipe", {"direction": "down", "elementId": listing.id})

    def tap_retry(self):
        self.tap(self.RETRY)

    def open_permissions(self):
        self.tap(self.PERMISSIONS_BUTTON)

    # The popup.

    def wait_for_popup(self):
        """Waits for the popup; its title and message."""
        title = self.wait_for(self.POPUP_TITLE)
        message = self.wait_for(self.POPUP_MESSAGE)
        return title.text, message.text

    def popup_button(self, label):
        """The popup's button whose label the person reads, found by id."""
        for identifier in (self.GO_TO_SETTINGS, self.CANCEL, self.CHOOSE_PLACE_INSTEAD):
            element = self.find(identifier)
            if element is not None and element.get_attribute("label") == label:
                return element
        return None

    # Choosing a place.

    def open_place_picker(self):
        self.tap(self.CHOOSE_PLACE)
        self.wait_for(self.PLACE_SEARCH_FIELD)

    def type_place(self, text):
        """Types into the picker's field, after what it holds (as XCUITest's typeText does)."""
        self.wait_for(self.PLACE_SEARCH_FIELD).send_keys(text)

    def place_field_text(self):
        return self.wait_for(self.PLACE_SEARCH_FIELD).get_attribute("value")

    def suggestions(self):
        """The suggestions' labels, waiting until there are some."""
        picker = self.wait_for(self.PLACE_PICKER)

        def labels():
            cells = picker.find_elements(AppiumBy.CLASS_NAME, "XCUIElementTypeCell")
            found = [cell for cell in cells if cell.get_attribute("name").startswith(self.SUGGESTION_PREFIX)]
            return [cell.get_attribute("label") for cell in found] or None

        return self.wait(labels, "no place suggestions appeared")

    def choose_suggestion(self, index):
        self.suggestions()
        picker = self.find(self.PLACE_PICKER)
        cells = picker.find_elements(AppiumBy.CLASS_NAME, "XCUIElementTypeCell")
        cells[index].click()
        self.wait_until_gone(self.PLACE_PICKER)

    def wait_for_place_listing(self, name):
        """Waits for the listing near the chosen place: its header names it, its rows have distances."""
        def ready():
            rows = self.rows()
            return rows if self.summary() == f"Pets near {name}" and rows and all(" away" in row for row in rows) else None

        return self.wait(ready, f"the listing near {name} did not appear")

    def clear_place(self):
        self.tap(self.CLEAR_PLACE)
