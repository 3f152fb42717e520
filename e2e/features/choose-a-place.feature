# A person who does not share location chooses a city or postal code instead (docs/api.md, "Places";
# docs/scenarios.md, the place-… scenarios tell the same stories).
@ios
Feature: Choose a place instead of sharing location

  @places
  Scenario: Choose a place after Don't Allow
    Given user denied permission via system alert
    When user chooses "krak" and the first suggestion
    Then the listing is the pets near "Kraków"

  @places
  Scenario: Choose a place from the popup
    Given custom permission popup is displayed
    When user taps "Choose a Place Instead"
    And user chooses "paris" and the first suggestion
    Then the listing is the pets near "Paris"

  @places
  Scenario: The chosen place is remembered at the next launch
    Given user previously denied location permission (denied status)
    And user chose "berl" from the listing's header
    When the app is terminated and launched again
    And user taps "Cancel"
    Then the listing is the pets near "Berlin"
    When user clears the place
    Then user can still browse available animals (no location filtering)

  @places
  Scenario: Location granted later moves the listing to the person
    Given user denied permission via system alert
    And user chose "krak" from the listing's header
    When user grants permission (e.g., returns from Settings after enabling)
    Then animal listings are displayed on startup screen

  @places @simulated
  Scenario: Typing while offline says so and keeps the text
    Given user previously denied location permission (denied status)
    And the app is on its listing without location
    When the server cannot be reached while user types "lyo"
    Then the picker says places could not be loaded and still holds "lyo"
    When the server can be reached again
    And user types "n" more
    Then the picker suggests "Lyon, France"
