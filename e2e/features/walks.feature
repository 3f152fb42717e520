# A walk in Paint My Town on the simulated iPhone, which walks the person along a route (1 km due
# north) once they tap Start: the route and its distance, auto-pause and steps with Motion, the walk
# saved to Health, the town painted.
@ios @paintmytown @walks @simulated
Feature: A walk

  Scenario: A whole walk with every permission
    Given Paint My Town is installed with every permission allowed
    When Paint My Town opens on its onboarding
    And user finishes the onboarding
    And user starts a walk
    Then the walk is recording and pauses itself
    And the walk counts distance and steps
    When user ends the walk
    Then the walk screen says it was saved to Health
    And the walk screen shows the cells it painted

  Scenario: A walk without Motion is paused by hand and counts no steps
    Given Paint My Town is installed with every permission allowed but Motion
    When Paint My Town opens on its onboarding
    And user finishes the onboarding
    And user starts a walk
    Then the walk is recording and pauses only by hand
    And the walk counts distance but no steps
    When user pauses the walk
    Then the walk is paused
    When user resumes the walk
    Then the walk is recording and pauses only by hand
    When user ends the walk
    Then the walk screen says it was saved to Health

  Scenario: A walk without Health is kept in the app
    Given Paint My Town is installed with every permission allowed but Health
    When Paint My Town opens on its onboarding
    And user finishes the onboarding
    And user starts a walk
    Then the walk counts distance and steps
    When user ends the walk
    Then the walk screen says it was not saved to Health and keeps it
    And the walk screen shows the cells it painted

  Scenario: The person leaves the app mid-walk and the walk goes on
    Given Paint My Town is installed with every permission allowed
    When Paint My Town opens on its onboarding
    And user finishes the onboarding
    And user starts a walk
    Then the walk counts distance and steps
    When user leaves Paint My Town for 45 seconds
    Then the walk counts what was walked while the person was away
    And the walk is recording and pauses itself
