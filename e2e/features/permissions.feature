# The permission manager's five test scenarios (Happy Path, Deny Location, Deny Motion, Deny
# HealthKit, Grant Later), on PetSpot's permissions screen. The manager's own example app checks
# auto-pause and workouts; PetSpot has neither, so "the app still works" is the listing behind it.
# iOS asks for Health on a sheet of its own, not an alert `mobile: alert` can answer: the scenarios
# that answer it are @simulated.
@ios @permissions
Feature: The permissions screen

  @simulated
  Scenario: Happy path, every permission granted
    Given user hasn't been asked about any permission
    When startup screen appears
    And user taps "Allow While Using App"
    And user opens the permissions screen
    And user taps the location card's "Continue"
    And user taps "Change to Always Allow"
    And user taps the motion card's "Continue"
    And user taps "OK"
    And user taps the healthKit card's "Continue"
    And user taps "Turn On All"
    Then the location card says "Always"
    And the motion card says "Allowed"
    And the healthKit card says "Saving allowed"
    When user closes the permissions screen
    Then app fetches current location and queries server for animal listings

  Scenario: Deny location
    Given user hasn't been asked about any permission
    When startup screen appears
    And user taps "Don't Allow"
    And user opens the permissions screen
    Then the location card says "Not allowed"
    And the location card offers "Settings"
    When user taps the location card's "Settings"
    Then iOS Settings app opens to this app's permission screen

  Scenario: Deny motion
    Given user hasn't been asked about any permission
    When startup screen appears
    And user taps "Allow While Using App"
    And user opens the permissions screen
    And user taps the motion card's "Continue"
    And user taps "Don't Allow"
    Then the motion card says "Not allowed"
    When user closes the permissions screen
    Then app fetches current location and queries server for animal listings

  @simulated
  Scenario: Deny HealthKit
    Given user hasn't been asked about any permission
    When startup screen appears
    And user taps "Allow While Using App"
    And user opens the permissions screen
    And user taps the healthKit card's "Continue"
    And user taps "Don't Allow"
    Then the healthKit card says "Saving not allowed"
    When user closes the permissions screen
    Then app fetches current location and queries server for animal listings

  Scenario: Grant later
    Given user previously denied location permission (denied status)
    When startup screen appears
    And user taps "Cancel"
    And user opens the permissions screen
    Then the location card says "Not allowed"
    When user taps the location card's "Settings"
    And user allows location in Settings and returns to the app
    Then the location card says "While using the app"
