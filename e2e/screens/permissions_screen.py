"""The permissions screen: a card per permission (its state, Learn more and its action), and Done."""

from selenium.common.exceptions import TimeoutException

from .base import Screen

PERMISSIONS = ("location", "motion", "healthKit")


class PermissionsScreen(Screen):
    DONE = "permissions.done"
    ERROR = "permissions.error"
    DETAIL_ACTION = "permissionDetail.action"
    DETAIL_DONE = "permissionDetail.done"

    @staticmethod
    def status_id(permission):
        return f"permissions.{permission}.status"

    @staticmethod
    def action_id(permission):
        return f"permissions.{permission}.action"

    @staticmethod
    def learn_more_id(permission):
        return f"permissions.{permission}.learnMore"

    IDENTIFIERS = [DONE, ERROR, DETAIL_ACTION, DETAIL_DONE] + [
        f"permissions.{permission}.{part}" for permission in PERMISSIONS for part in ("status", "action", "learnMore")
    ]

    def wait_until_showing(self):
        self.wait_for(self.DONE)

    def status(self, permission):
        return self.wait_for(self.status_id(permission)).text

    def wait_for_status(self, permission, text):
        seen = []

        def says():
            seen.append(self.status(permission))
            return seen[-1] == text

        try:
            self.wait(says, f"the {permission} card's state")
        except TimeoutException:
            raise AssertionError(f"the {permission} card did not come to say {text!r} (it says {seen[-1:]})") from None

    def action_label(self, permission):
        element = self.find(self.action_id(permission))
        return element.get_attribute("label") if element is not None else None

    def tap_action(self, permission):
        self.tap(self.action_id(permission))

    def error(self):
        """The line under the cards about the last request that could not be made."""
        return self.wait_for(self.ERROR).text

    # "Learn more": the details of one card, over the cards.

    def open_details(self, permission):
        self.tap(self.learn_more_id(permission))
        self.wait_for(self.DETAIL_DONE)

    def details_action_label(self):
        element = self.find(self.DETAIL_ACTION)
        return element.get_attribute("label") if element is not None else None

    def close_details(self):
        self.tap(self.DETAIL_DONE)
        self.wait_until_gone(self.DETAIL_DONE)

    def done(self):
        self.wait(lambda: (self.find(self.DONE) or False) and self.find(self.DONE).is_enabled(), "Done stayed disabled")
        self.tap(self.DONE)
        self.wait_until_gone(self.DONE)
