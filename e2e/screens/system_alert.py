"""iOS's own alerts (location, motion, Health), answered by the labels iOS shows on their buttons."""

from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.support.ui import WebDriverWait

from .base import DEFAULT_TIMEOUT, POLL


class SystemAlert:
    def __init__(self, driver, timeout=DEFAULT_TIMEOUT):
        self.driver = driver
        self.timeout = timeout

    def buttons(self):
        """The labels of the alert's buttons, or an empty list when no alert is up."""
        try:
            return self.driver.execute_script("mobile: alert", {"action": "getButtons"})
        except NoAlertPresentException:
            return []

    def wait_until_shown(self):
        return WebDriverWait(self.driver, self.timeout, poll_frequency=POLL).until(
            lambda _: self.buttons(), "no iOS alert appeared"
        )

    def text(self):
        return self.driver.switch_to.alert.text

    def tap(self, label):
        """Taps the button labelled `label`; "Don't Allow" as written matches iOS's "Don’t Allow"."""
        buttons = self.wait_until_shown()
        typographic = label.replace("'", "\u2019")
        if label not in buttons and typographic in buttons:
            label = typographic
        self.driver.execute_script("mobile: alert", {"action": "accept", "buttonLabel": label})
