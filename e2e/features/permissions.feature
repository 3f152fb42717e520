# PetSpot's permissions screen: the location card, the one permission PetSpot asks for. The
# permission manager's five test scenarios run in Paint My Town, the walking app they come from
# (paint-my-town.feature).
@ios @permissions
Feature: The permissions screen

  Scenario: Deny location
    Given user hasn't been asked about location permissions (notDetermined status)
    When startup screen appears
    And user taps "Don't Allow"
    And user opens the permissions screen
    Then the location card says "Not allowed"
    And the location card offers "Settings"
    When user taps the location card's "Settings"
    Then iOS Settings app opens to this app's permission screen

  Scenario: Grant later
    Given user previously denied location permission (denied status)
    When startup screen appears
    And user taps "Cancel"
    And user opens the permissions screen
    Then the location card says "Not allowed"
    When user taps the location card's "Settings"
    And user allows location in Settings and returns to the app
    Then the location card says "While using the app"

  Scenario: Learn more explains the location card and offers what the card offers
    Given user hasn't been asked about location permissions (notDetermined status)
    When startup screen appears
    And user taps "Don't Allow"
    And user opens the permissions screen
    And user opens "Learn more" of the location card
    Then the details offer "Settings"
    When user closes the details
    Then the location card says "Not allowed"
