"""Paint My Town's walk screen: the walk's state, distance and steps, what became of the last walk,
and its buttons (PaintMyTownFeature's `WalkAccessibilityIdentifiers`)."""

from selenium.common.exceptions import TimeoutException

from .base import Screen

CONTROLS = ("start", "pause", "resume", "end")


class WalkScreen(Screen):
    PERMISSIONS_BUTTON = "walk.permissions"
    STATUS = "walk.status"
    DISTANCE = "walk.distance"
    STEPS = "walk.steps"
    NOTICE = "walk.notice"
    LAST_WALK = "walk.lastWalk"
    HEALTH = "walk.health"

    @staticmethod
    def control_id(control):
        return f"walk.{control}"

    IDENTIFIERS = [PERMISSIONS_BUTTON, STATUS, DISTANCE, STEPS, NOTICE, LAST_WALK, HEALTH] + [
        f"walk.{control}" for control in CONTROLS
    ]

    def wait_until_showing(self):
        self.wait_for(self.STATUS)

    def open_permissions(self):
        self.tap(self.PERMISSIONS_BUTTON)

    def text(self, identifier):
        """The element's text, or None when the screen does not show it."""
        element = self.find(identifier)
        return element.text if element is not None else None

    def tap_control(self, control):
        self.tap(self.control_id(control))

    def wait_for_text(self, identifier, accept, what, timeout=None):
        """Waits until the element's text satisfies `accept` (the deadline fixed as the wait begins);
        fails saying what it showed last."""
        seen = []

        def accepted():
            seen.append(self.text(identifier))
            return seen[-1] is not None and accept(seen[-1])

        try:
            self.wait(accepted, what, timeout)
        except TimeoutException:
            raise AssertionError(f"{what}: '{identifier}' shows {seen[-1:]}") from None
        return seen[-1]

    @staticmethod
    def kilometres(text):
        """A distance such as "Distance: 0.03 km" or "Distance: 0.02 mi" (the locale's unit), in km."""
        value = WalkScreen.number(text) or 0
        return value * 1.609344 if text.rstrip().endswith("mi") else value

    @staticmethod
    def number(text):
        """The first number in a text such as "Distance: 0.03 km" or "Steps: 41"."""
        for word in text.replace(",", "").split():
            try:
                return float(word)
            except ValueError:
                continue
        return None
