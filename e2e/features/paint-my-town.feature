# The permission manager's five test scenarios (Happy Path, Deny Location, Deny Motion, Deny
# HealthKit, Grant Later), in Paint My Town: its onboarding, and the walk each permission is for.
# A card's button that brings up iOS's question says "Continue" (docs/departures.md, 11). iOS asks for
# Health on a sheet of its own, not an alert `mobile: alert` can answer, and only the simulated iPhone
# walks a route: those scenarios are @simulated.
@ios @paintmytown
Feature: Paint My Town's onboarding

  @simulated
  Scenario: Happy path, every permission granted
    Given Paint My Town is installed and nothing was asked
    When Paint My Town opens on its onboarding
    And user taps the location card's "Continue"
    And user taps "Allow While Using App"
    And user taps the location card's "Continue"
    And user taps "Change to Always Allow"
    And user taps the motion card's "Continue"
    And user taps "OK"
    And user taps the healthKit card's "Continue"
    And user taps "Turn On All"
    Then the location card says "Always"
    And the motion card says "Allowed"
    And the healthKit card says "Saving allowed"
    When user finishes the onboarding
    And user starts a walk
    Then the walk is recording and pauses itself
    And the walk counts distance and steps

  Scenario: Deny location
    Given Paint My Town is installed and nothing was asked
    When Paint My Town opens on its onboarding
    And user taps the location card's "Continue"
    And user taps "Don't Allow"
    Then the location card says "Not allowed"
    And the location card offers "Settings"
    When user finishes the onboarding
    And user starts a walk
    Then the walk screen says location is needed and records nothing

  Scenario: Deny motion
    Given Paint My Town is installed with location allowed While Using
    When Paint My Town opens on its onboarding
    And user taps the motion card's "Continue"
    And user taps "Don't Allow"
    Then the motion card says "Not allowed"
    When user finishes the onboarding
    And user starts a walk
    Then the walk is recording and pauses only by hand

  @simulated
  Scenario: Deny HealthKit
    Given Paint My Town is installed with location allowed While Using
    When Paint My Town opens on its onboarding
    And user taps the healthKit card's "Continue"
    And user taps "Don't Allow"
    Then the healthKit card says "Saving not allowed"
    When user finishes the onboarding
    And user starts a walk
    Then the walk counts distance but no steps
    When user ends the walk
    Then the walk screen says it was not saved to Health and keeps it

  Scenario: Grant later
    Given Paint My Town is installed and location was denied
    When Paint My Town opens on its onboarding
    Then the location card says "Not allowed"
    When user taps the location card's "Settings"
    And user allows location in Settings and returns to the app
    Then the location card says "While using the app"

  Scenario Outline: Learn more explains each card before anything is asked
    Given Paint My Town is installed and nothing was asked
    When Paint My Town opens on its onboarding
    And user opens "Learn more" of the <permission> card
    Then the details offer "Continue"
    When user closes the details
    Then the <permission> card says "Not asked yet"

    Examples:
      | permission |
      | location   |
      | motion     |
      | healthKit  |

  Scenario: The walk screen's Permissions button brings the cards back
    Given Paint My Town is installed with every permission allowed
    When Paint My Town opens on its onboarding
    And user finishes the onboarding
    And user opens the permissions from the walk screen
    Then the motion card says "Allowed"
    When user closes the permissions screen
    Then the walk screen shows

  @simulated
  Scenario: A missing purpose string is said on the screen, and the app goes on
    Given Paint My Town is installed without a Motion purpose string
    When Paint My Town opens on its onboarding
    And user taps the motion card's "Continue"
    Then the permissions screen says NSMotionUsageDescription is missing and nothing crashed
    And the motion card says "Not asked yet"
