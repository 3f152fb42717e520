"""Step definitions. They speak only Appium and WebDriver (through the screen objects), so the same
suite drives the simulated iPhone here and the real app on the iOS Simulator."""

from pytest_bdd import given, parsers, then, when

from conftest import PAINT_MY_TOWN_BUNDLE_ID, SETTINGS_BUNDLE_ID

# XCUITest's app states.
SUSPENDED = 2
RUNNING_IN_BACKGROUND = 3
RUNNING_IN_FOREGROUND = 4

# Given: the phone before the app starts (capabilities), or the app brought to a state.


@given(parsers.parse('user has previously granted "{grant}" location permission'))
def granted(phone, grant):
    phone.permissions["location"] = {"While Using App": "inuse", "Always": "always"}[grant]


@given("location fetch succeeds")
@given("user has granted location permission")
def granted_while_using(phone):
    phone.permissions["location"] = "inuse"


@given("user hasn't been asked about location permissions (notDetermined status)")
def not_asked(phone):
    phone.permissions["location"] = "unset"


@given("user hasn't been asked about any permission")
def nothing_asked(phone):
    phone.permissions.update(location="unset", motion="unset", health="unset")


@given("user previously denied location permission (denied status)")
def denied(phone):
    phone.permissions["location"] = "never"


@given("user previously denied location permission (restricted status)")
def restricted(phone):
    # No Appium command restricts a permission: on a real phone that takes device management.
    phone.device["authorization"] = "restricted"


@given("system permission alert is displayed")
def alert_displayed(phone):
    not_asked(phone)
    phone.launch()
    phone.alert.wait_until_shown()


@given("user denied permission via system alert")
def denied_via_alert(phone):
    alert_displayed(phone)
    phone.alert.tap("Don't Allow")


@given("custom permission popup is displayed")
@given("app is on startup screen with denied permissions")
def popup_displayed(phone):
    denied(phone)
    phone.launch()
    phone.startup.wait_for_popup()


@given('user dismissed popup with "Cancel"')
@given("app is observing location permission changes")
def popup_cancelled(phone):
    popup_displayed(phone)
    phone.startup.popup_button("Cancel").click()


@given("app is observing permission changes")
def observing_with_location(phone):
    granted_while_using(phone)
    phone.launch()
    phone.startup.wait_for_listing(near=True)


@given("permission changes from granted to denied while on startup screen")
def revoked_on_screen(phone):
    observing_with_location(phone)
    change_in_settings(phone, "never")


@given(parsers.parse("the first location fix takes {seconds:d} seconds"))
def slow_fix(phone, seconds):
    # Neither GPS nor the coarse Wi-Fi fix comes sooner.
    phone.device["fixDelayMs"] = seconds * 1000
    phone.device["coarseFixDelayMs"] = seconds * 1000


@given("Location Services are off")
def services_off(phone):
    phone.device["locationServicesEnabled"] = False


@given("the phone is in the middle of the Atlantic")
def in_the_atlantic(phone):
    phone.driver.execute_script("mobile: setSimulatedLocation", {"latitude": 30.0, "longitude": -40.0})


@given("the server cannot be reached")
def server_unreachable(phone):
    phone.network["reachable"] = False


# When: what the person does.


@when("startup screen appears")
def startup_appears(phone):
    phone.launch()
    phone.startup.wait_until_showing()


@when("coordinates are obtained")
def coordinates_obtained(phone):
    phone.launch()
    phone.startup.wait_for_listing(near=True)


@when("location fetch fails (timeout, GPS unavailable, error)")
def fetch_fails(phone):
    # The phone is somewhere no fix can be had (no GPS signal, no Wi-Fi); the app's bound on the wait ends it.
    assert not phone.started, "the GPS is set up with the session, before it starts"
    phone.device["position"] = None
    phone.launch()


@when(parsers.parse('user taps "{label}"'))
def taps(phone, label):
    """A button by the label the person reads: on iOS's alert when one is up, else on the popup."""
    if phone.alert.buttons():
        phone.alert.tap(label)
        return
    button = phone.startup.popup_button(label)
    assert button is not None, f"neither an iOS alert nor the popup shows a '{label}' button"
    button.click()


@when("user taps Retry")
def taps_retry(phone):
    phone.startup.tap_retry()


@when("animal listings are displayed")
@when("animal listings load")
def listings_load(phone):
    phone.startup.wait_for_listing()


def change_in_settings(phone, value):
    """The person goes to Settings, changes Location for PetSpot, and comes back."""
    phone.open_settings_app()
    phone.set_permission("location", value)
    phone.return_to_app()


@when("user grants permission (e.g., returns from Settings after enabling)")
def grants_in_settings(phone):
    change_in_settings(phone, "inuse")


@when("user grants permission via Settings and returns to app")
def grants_via_popup_settings(phone):
    phone.startup.popup_button("Go to Settings").click()
    assert phone.app_state(SETTINGS_BUNDLE_ID) == RUNNING_IN_FOREGROUND
    allows_in_settings(phone)


@when("user allows location in Settings and returns to the app")
def allows_in_settings(phone):
    phone.set_permission("location", "inuse")
    phone.return_to_app()


@when("the app is terminated and launched again")
def relaunched(phone):
    phone.terminate()
    phone.launch()


@when("permission status changes to denied/restricted")
def revoked(phone):
    change_in_settings(phone, "never")


@when("next animal query occurs")
def next_query(phone):
    phone.startup.pull_to_refresh()


@when(parsers.parse("user leaves the app for {seconds:d} seconds"))
def leaves(phone, seconds):
    phone.driver.execute_script("mobile: backgroundApp", {"seconds": seconds})


@when("the server can be reached again")
def server_reachable(phone):
    phone.driver.execute_script("petspot: setNetwork", {"reachable": True})


@when("user opens the permissions screen")
def opens_permissions(phone):
    phone.startup.open_permissions()
    phone.permissions_screen.wait_until_showing()


@when(parsers.parse("user taps the {permission} card's \"{label}\""))
def taps_card(phone, permission, label):
    shown = phone.permissions_screen.action_label(permission)
    assert shown == label, f"the {permission} card shows {shown!r}, not {label!r}"
    phone.permissions_screen.tap_action(permission)


@when("user closes the permissions screen")
def closes_permissions(phone):
    phone.permissions_screen.done()


@when(parsers.parse("user opens \"Learn more\" of the {permission} card"))
def opens_details(phone, permission):
    phone.permissions_screen.open_details(permission)


@when("user closes the details")
def closes_details(phone):
    phone.permissions_screen.close_details()


@given(parsers.parse('user chose "{text}" from the listing\'s header'))
def chose_from_header(phone, text):
    if not phone.started:
        phone.launch()
    startup = phone.startup
    startup.wait(lambda: startup.is_shown(startup.POPUP) or startup.is_shown(startup.CHOOSE_PLACE), "no popup and no Choose a Place")
    if startup.is_shown(startup.POPUP):
        startup.popup_button("Cancel").click()
    startup.open_place_picker()
    chooses(phone, text)


@given("the app is on its listing without location")
def on_listing_without_location(phone):
    phone.launch()
    phone.startup.wait_for_popup()
    phone.startup.popup_button("Cancel").click()
    phone.startup.wait_for_listing(near=False)


@when(parsers.parse('user chooses "{text}" and the first suggestion'))
def chooses(phone, text):
    if not phone.startup.is_shown(phone.startup.PLACE_SEARCH_FIELD):
        phone.startup.open_place_picker()
    phone.startup.type_place(text)
    phone.startup.choose_suggestion(0)


@when("user clears the place")
def clears_place(phone):
    phone.startup.clear_place()


@when(parsers.parse('the server cannot be reached while user types "{text}"'))
def types_offline(phone, text):
    phone.driver.execute_script("petspot: setNetwork", {"reachable": False})
    phone.startup.open_place_picker()
    phone.startup.type_place(text)


@when(parsers.parse('user types "{text}" more'))
def types_more(phone, text):
    phone.startup.type_place(text)


@then(parsers.parse('the listing is the pets near "{name}"'))
def listing_near_place(phone, name):
    assert phone.startup.wait_for_place_listing(name)


@then(parsers.parse('the picker says places could not be loaded and still holds "{text}"'))
def picker_failed(phone, text):
    phone.startup.wait_for(phone.startup.PLACE_FAILED)
    assert phone.startup.place_field_text() == text


@then(parsers.parse('the picker suggests "{label}"'))
def picker_suggests(phone, label):
    assert label in phone.startup.suggestions()


# Then: what the person sees.


@then("app fetches current location and queries server for animal listings")
@then("app automatically fetches location and updates animal listings")
@then("location is fetched and animal query is executed with coordinates")
@then("animal listings are displayed on startup screen")
def listing_near(phone):
    rows = phone.startup.wait_for_listing(near=True)
    assert rows, "no pets are listed"


@then("app queries server without coordinates and displays animal listings (fallback mode)")
@then("app queries server without location coordinates and displays animal listings")
@then("user can still browse available animals (no location filtering)")
@then("user can browse available animals without location filtering")
@then("query executes without location coordinates")
def listing_without_location(phone):
    rows = phone.startup.wait_for_listing(near=False)
    assert "newest first" in phone.startup.summary()
    assert rows


@then("iOS system alert requesting location permission is displayed")
def location_alert(phone):
    buttons = phone.alert.wait_until_shown()
    assert buttons == ["Allow Once", "Allow While Using App", "Don\u2019t Allow"], buttons
    assert "location" in phone.alert.text()


@then("custom informational popup is displayed explaining permission status")
def popup_explains(phone):
    title, message = phone.startup.wait_for_popup()
    assert title and message
    assert phone.startup.is_shown(phone.startup.GO_TO_SETTINGS)
    assert phone.startup.is_shown(phone.startup.CANCEL)
    # The popup is PetSpot's own, over the screen; iOS shows no alert of its own.
    assert phone.alert.buttons() == []


@then("iOS Settings app opens to this app's permission screen")
def settings_opened(phone):
    phone.startup.wait(
        lambda: phone.app_state(SETTINGS_BUNDLE_ID) == RUNNING_IN_FOREGROUND, "Settings did not come to the front"
    )
    # A real phone soon suspends the app (2); the simulated one keeps it running in the background (3).
    assert phone.app_state() in (SUSPENDED, RUNNING_IN_BACKGROUND)


@then("popup closes and app queries server without location coordinates")
def popup_closes(phone):
    phone.startup.wait_until_gone(phone.startup.POPUP)
    listing_without_location(phone)


@then("app continues operating in fallback mode without location")
def fallback_after_revocation(phone):
    """The listing stays up with no popup (that comes only with a session's first check) and no iOS
    alert; the next listing it fetches is the one without location."""
    phone.startup.wait_for_listing()
    assert not phone.startup.is_shown(phone.startup.POPUP)
    assert phone.alert.buttons() == []
    phone.startup.pull_to_refresh()
    listing_without_location(phone)


@then("the listing says nobody is nearby and shows pets from everywhere")
def nobody_nearby(phone):
    phone.startup.wait_for(phone.startup.NOTHING_NEARBY)
    listing_without_location(phone)


@then("an error with Retry is displayed")
def error_with_retry(phone):
    phone.startup.wait_for(phone.startup.ERROR)
    assert phone.startup.is_shown(phone.startup.RETRY)


@then(parsers.parse('the {permission} card says "{text}"'))
def card_says(phone, permission, text):
    phone.permissions_screen.wait_for_status(permission, text)


@then(parsers.parse('the {permission} card offers "{label}"'))
def card_offers(phone, permission, label):
    assert phone.permissions_screen.action_label(permission) == label


@then(parsers.parse('the details offer "{label}"'))
def details_offer(phone, label):
    shown = phone.permissions_screen.details_action_label()
    assert shown == label, f"the details offer {shown!r}, not {label!r}"


@then(parsers.parse('the permissions screen says {key} is missing and nothing crashed'))
def says_key_missing(phone, key):
    error = phone.permissions_screen.error()
    assert key in error, f"the error line says {error!r}"
    assert phone.app_state() == 4, "the app is no longer running in the foreground"


# Paint My Town: its onboarding and the walk.

# 1 km due north from central Warsaw, walked at 1.4 m/s once the person taps Start (only the
# simulated iPhone walks a route; see docs/scenarios.md, `device.walk`).
WALK = {"path": [[52.2297, 21.0122], [52.2387, 21.0122]], "speedMps": 1.4}


def install_paint_my_town(phone, **permissions):
    phone.bundle_id = PAINT_MY_TOWN_BUNDLE_ID
    phone.permissions.update(permissions)
    phone.device["walk"] = WALK


@given("Paint My Town is installed and nothing was asked")
def paint_my_town_nothing_asked(phone):
    install_paint_my_town(phone, location="unset", motion="unset", health="unset")


@given("Paint My Town is installed with location allowed While Using")
def paint_my_town_while_using(phone):
    install_paint_my_town(phone, location="inuse", motion="unset", health="unset")


@given("Paint My Town is installed and location was denied")
def paint_my_town_denied(phone):
    install_paint_my_town(phone, location="never", motion="unset", health="unset")


@given("Paint My Town is installed with every permission allowed")
def paint_my_town_everything(phone):
    install_paint_my_town(phone, location="inuse", motion="yes", health="yes")


@given("Paint My Town is installed with every permission allowed but Motion")
def paint_my_town_no_motion(phone):
    install_paint_my_town(phone, location="inuse", motion="no", health="yes")


@given("Paint My Town is installed with every permission allowed but Health")
def paint_my_town_no_health(phone):
    install_paint_my_town(phone, location="inuse", motion="yes", health="no")


@given("Paint My Town is installed without a Motion purpose string")
def paint_my_town_without_motion_key(phone):
    install_paint_my_town(phone, location="inuse", motion="unset", health="unset")
    phone.device["infoPlistHasMotionKey"] = False


@when("Paint My Town opens on its onboarding")
def opens_on_onboarding(phone):
    phone.launch()
    phone.permissions_screen.wait_until_showing()


@when("user finishes the onboarding")
def finishes_onboarding(phone):
    phone.permissions_screen.done()
    phone.walk.wait_until_showing()


@when("user opens the permissions from the walk screen")
def opens_permissions_from_walk(phone):
    phone.walk.open_permissions()
    phone.permissions_screen.wait_until_showing()


@then("the walk screen shows")
def walk_screen_shows(phone):
    phone.walk.wait_until_showing()


@when("user starts a walk")
def starts_walk(phone):
    phone.walk.tap_control("start")


@when("user pauses the walk")
def pauses_walk(phone):
    phone.walk.tap_control("pause")


@when("user resumes the walk")
def resumes_walk(phone):
    phone.walk.tap_control("resume")


@when("user ends the walk")
def ends_walk(phone):
    phone.walk.tap_control("end")


@when(parsers.parse("user leaves Paint My Town for {seconds:d} seconds"))
def leaves_paint_my_town(phone, seconds):
    phone.walk_before = (phone.walk.kilometres(phone.walk.text(phone.walk.DISTANCE) or ""), seconds)
    phone.driver.execute_script("mobile: backgroundApp", {"seconds": seconds})


@then("the walk counts what was walked while the person was away")
def counts_while_away(phone):
    """The stretch walked while away is in the walk's distance as the app comes back (at 1.4 m/s,
    all but the last fix's 5 m of it). On this straight route that holds whether the fixes came in
    the background (rule 32) or the first one on the return spans the stretch; that they came in the
    background is shown by the simulated iPhone's own tests and `Scenarios/walk-4-leaves-the-app.json`,
    whose route turns a corner. The fixes may still be on their way to the walk as the app comes
    back, so this waits — 3 s at most, in which walking in the app adds 4 m."""
    before, seconds = phone.walk_before
    expected = (seconds * 1.4 - 5) / 1000
    walk = phone.walk
    # The screen shows hundredths of its unit (a mile here, en_GB): two are allowed for rounding.
    walk.wait_for_text(
        walk.DISTANCE,
        lambda text: walk.kilometres(text) - before >= expected - 0.02 * 1.609344,
        f"the walk did not count what was walked while away ({before} km before leaving)",
        timeout=3.0,
    )


@then("the walk is recording and pauses itself")
def recording_auto_pause(phone):
    phone.walk.wait_for_text(phone.walk.STATUS, lambda text: text == "Recording your walk", "the walk is not recording")
    assert phone.walk.text(phone.walk.NOTICE) is None, phone.walk.text(phone.walk.NOTICE)


@then("the walk is recording and pauses only by hand")
def recording_by_hand(phone):
    phone.walk.wait_for_text(phone.walk.STATUS, lambda text: text == "Recording your walk", "the walk is not recording")
    notice = phone.walk.text(phone.walk.NOTICE) or ""
    assert notice.startswith("Without Motion & Fitness"), notice


@then("the walk is paused")
def walk_paused(phone):
    phone.walk.wait_for_text(phone.walk.STATUS, lambda text: text == "Paused", "the walk did not pause")


@then("the walk screen says location is needed and records nothing")
def location_needed(phone):
    phone.walk.wait_for_text(phone.walk.NOTICE, lambda text: text.startswith("Location is not allowed"), "no word on location")
    assert phone.walk.text(phone.walk.DISTANCE) is None
    assert phone.walk.is_shown(phone.walk.control_id("start"))


@then("the walk counts distance and steps")
def counts_distance_and_steps(phone):
    walk = phone.walk
    walk.wait_for_text(walk.DISTANCE, lambda text: (walk.number(text) or 0) > 0, "no distance walked")
    walk.wait_for_text(walk.STEPS, lambda text: (walk.number(text) or 0) > 0, "no steps counted")


@then("the walk counts distance but no steps")
def counts_distance_only(phone):
    walk = phone.walk
    walk.wait_for_text(walk.DISTANCE, lambda text: (walk.number(text) or 0) > 0, "no distance walked")
    assert walk.text(walk.STEPS) is None, walk.text(walk.STEPS)


@then("the walk screen says it was saved to Health")
def saved_to_health(phone):
    phone.walk.wait_for_text(phone.walk.HEALTH, lambda text: text == "Saved to Health.", "Health did not take the walk")


@then("the walk screen says it was not saved to Health and keeps it")
def not_saved_to_health(phone):
    phone.walk.wait_for_text(
        phone.walk.HEALTH, lambda text: text.startswith("Not saved to Health"), "the screen does not say Health refused it"
    )
    last = phone.walk.text(phone.walk.LAST_WALK) or ""
    assert last.startswith("Last walk:"), last


@then("the walk screen shows the cells it painted")
def cells_painted(phone):
    last = phone.walk.wait_for_text(phone.walk.LAST_WALK, lambda text: text.startswith("Last walk:"), "no last walk")
    assert "New cells painted:" in last, last
