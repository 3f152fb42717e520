# The specification's edge cases that matter to a person, end to end.
@ios @edge
Feature: Edge cases of the startup screen

  @simulated
  Scenario: The first fix is too slow
    Given user has previously granted "While Using App" location permission
    And the first location fix takes 20 seconds
    When startup screen appears
    Then app queries server without coordinates and displays animal listings (fallback mode)

  @simulated
  Scenario: Location Services are off
    Given user has previously granted "While Using App" location permission
    And Location Services are off
    When startup screen appears
    Then custom informational popup is displayed explaining permission status
    When user taps "Cancel"
    Then user can browse available animals without location filtering

  @simulated
  Scenario: Allow Once lapses while the app is away
    Given system permission alert is displayed
    When user taps "Allow Once"
    Then app fetches current location and queries server for animal listings
    When user leaves the app for 12 seconds
    Then iOS system alert requesting location permission is displayed

  Scenario: iOS's alert left unanswered comes back on return
    Given system permission alert is displayed
    When user leaves the app for 2 seconds
    Then iOS system alert requesting location permission is displayed
    When user taps "Allow While Using App"
    Then app fetches current location and queries server for animal listings

  Scenario: Nobody nearby
    Given user has previously granted "While Using App" location permission
    And the phone is in the middle of the Atlantic
    When startup screen appears
    Then the listing says nobody is nearby and shows pets from everywhere

  @simulated
  Scenario: Server unreachable, then Retry
    Given user has previously granted "While Using App" location permission
    And the server cannot be reached
    When startup screen appears
    Then an error with Retry is displayed
    When the server can be reached again
    And user taps Retry
    Then app fetches current location and queries server for animal listings
