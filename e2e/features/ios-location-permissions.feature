# Every acceptance scenario of the specification's user stories US1–US4, in its own words, and the
# plan's Allow Once relaunch.
# Scenarios tagged @simulated need a phone state no Appium command can set on a real device
# (a restricted permission, a GPS without signal); they are skipped against a real Appium server.
@ios
Feature: iOS location permissions on the startup screen

  @US1
  Scenario: US1-1 While Using App granted earlier
    Given user has previously granted "While Using App" location permission
    When startup screen appears
    Then app fetches current location and queries server for animal listings

  @US1
  Scenario: US1-2 Always granted earlier
    Given user has previously granted "Always" location permission
    When startup screen appears
    Then app fetches current location and queries server for animal listings

  @US1
  Scenario: US1-3 Listings once the coordinates are obtained
    Given location fetch succeeds
    When coordinates are obtained
    Then animal listings are displayed on startup screen

  @US1 @simulated
  Scenario: US1-4 Location fetch fails
    Given user has granted location permission
    When location fetch fails (timeout, GPS unavailable, error)
    Then app queries server without coordinates and displays animal listings (fallback mode)

  @US2
  Scenario: US2-1 First launch asks
    Given user hasn't been asked about location permissions (notDetermined status)
    When startup screen appears
    Then iOS system alert requesting location permission is displayed

  @US2
  Scenario: US2-2 Allow While Using App
    Given system permission alert is displayed
    When user taps "Allow While Using App"
    Then app fetches current location and queries server for animal listings

  @US2
  Scenario: US2-3 Don't Allow
    Given system permission alert is displayed
    When user taps "Don't Allow"
    Then app queries server without location coordinates and displays animal listings

  @US2
  Scenario: US2-4 Denied still browses
    Given user denied permission via system alert
    When animal listings are displayed
    Then user can still browse available animals (no location filtering)

  # The plan's end-to-end test of "Allow Once": the grant ends with the app, and the next launch asks again.
  @US2
  Scenario: Allow Once lasts until the app ends
    Given system permission alert is displayed
    When user taps "Allow Once"
    Then app fetches current location and queries server for animal listings
    When the app is terminated and launched again
    Then iOS system alert requesting location permission is displayed

  @US3
  Scenario: US3-1 Denied shows the popup
    Given user previously denied location permission (denied status)
    When startup screen appears
    Then custom informational popup is displayed explaining permission status

  @US3 @simulated
  Scenario: US3-2 Restricted shows the popup
    Given user previously denied location permission (restricted status)
    When startup screen appears
    Then custom informational popup is displayed explaining permission status

  @US3
  Scenario: US3-3 Go to Settings
    Given custom permission popup is displayed
    When user taps "Go to Settings"
    Then iOS Settings app opens to this app's permission screen

  @US3
  Scenario: US3-4 Cancel
    Given custom permission popup is displayed
    When user taps "Cancel"
    Then popup closes and app queries server without location coordinates

  @US3
  Scenario: US3-5 Browse after Cancel
    Given user dismissed popup with "Cancel"
    When animal listings load
    Then user can browse available animals without location filtering

  @US4
  Scenario: US4-1 Granted in Settings
    Given app is observing location permission changes
    When user grants permission (e.g., returns from Settings after enabling)
    Then app automatically fetches location and updates animal listings

  @US4
  Scenario: US4-2 Denied, granted in Settings, back in the app
    Given app is on startup screen with denied permissions
    When user grants permission via Settings and returns to app
    Then location is fetched and animal query is executed with coordinates

  @US4
  Scenario: US4-3 Revoked while running
    Given app is observing permission changes
    When permission status changes to denied/restricted
    Then app continues operating in fallback mode without location

  @US4
  Scenario: US4-4 Revoked, then the next query
    Given permission changes from granted to denied while on startup screen
    When next animal query occurs
    Then query executes without location coordinates
