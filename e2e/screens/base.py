"""What every screen object shares: finding by accessibility id, and waiting with a deadline."""

from appium.webdriver.common.appiumby import AppiumBy
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
from selenium.webdriver.support.ui import WebDriverWait

# Long enough for the app's own 5 s bound on the first fix, and a listing after it.
DEFAULT_TIMEOUT = 15.0
POLL = 0.1

# Every accessibility id a screen object found in the app's element tree during this run: the
# identifier check (tests/test_identifiers.py) asks that each id a screen object names was found.
FOUND_IDENTIFIERS = set()


class Screen:
    def __init__(self, driver, timeout=DEFAULT_TIMEOUT):
        self.driver = driver
        self.timeout = timeout

    def find(self, identifier):
        """The element with this accessibility id, or None when the screen does not show it."""
        try:
            element = self.driver.find_element(AppiumBy.ACCESSIBILITY_ID, identifier)
        except NoSuchElementException:
            return None
        FOUND_IDENTIFIERS.add(identifier)
        return element

    def is_shown(self, identifier):
        element = self.find(identifier)
        try:
            return element is not None and element.is_displayed()
        except StaleElementReferenceException:
            return False

    def wait(self, condition, message, timeout=None):
        """Polls `condition` until it returns something truthy; the deadline is fixed as the wait begins."""
        return WebDriverWait(
            self.driver,
            self.timeout if timeout is None else timeout,
            poll_frequency=POLL,
            ignored_exceptions=(NoSuchElementException, StaleElementReferenceException),
        ).until(lambda _: condition(), message)

    def wait_for(self, identifier, timeout=None):
        return self.wait(lambda: self.find(identifier), f"'{identifier}' did not appear", timeout)

    def wait_until_gone(self, identifier, timeout=None):
        self.wait(lambda: self.find(identifier) is None, f"'{identifier}' did not go away", timeout)

    def tap(self, identifier):
        self.wait_for(identifier).click()
