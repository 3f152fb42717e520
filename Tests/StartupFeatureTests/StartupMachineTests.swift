import AsyncSupport
import CustomDump
// Linked so that expectNoDifference reports to Swift Testing: without it a difference is only printed.
import DeviceInterfaces
import IssueReportingTestSupport
import PetSpotDomain
import StartupFeature
import Testing
import TestSupport

/// The rules of ``StartupMachine``, one step at a time, asserting the whole state as TCA's
/// `TestStore` would.
@Suite struct StartupMachineTests {
    typealias State = StartupMachine.State

    /// Applies `event`, checks the effects, and lets `update` describe the expected state change.
    func step(
        _ state: inout State,
        _ event: StartupMachine.Event,
        effects expected: [StartupMachine.Effect],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column,
        _ update: (inout State) -> Void = { _ in }
    ) {
        var expectedState = state
        update(&expectedState)
        let effects = StartupMachine.step(&state, event).effects
        expectNoDifference(effects, expected, fileID: fileID, filePath: filePath, line: line, column: column)
        expectNoDifference(state, expectedState, fileID: fileID, filePath: filePath, line: line, column: column)
    }

    // FR-001, FR-010
    @Test func givenFreshSession_whenScreenAppears_thenStatusCheckedAndChangesObserved() {
        var state = State()
        step(&state, .screenAppeared, effects: [.observeStatusChanges, .checkStatus]) {
            $0.hasAppeared = true
            $0.activity = .checkingStatus
        }
    }

    // The log says what the machine did, in order, ending with the effects it started.
    @Test func givenDeniedFirstCheck_whenStepped_thenLogNamesTheCheckThePopupAndTheQuery() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared)
        let step = StartupMachine.step(&state, .statusChecked(.denied, locationServicesEnabled: false))
        expectNoDifference(step.log, [
            .permissionChecked(.denied), .customPopupShown(reason: .locationServicesOff), .queryStarted(near: nil),
        ])
        expectNoDifference(
            StartupMachine.step(&state, .popupCancelTapped).log, [.customPopupDismissed(.cancel)]
        )
    }

    @Test func givenAlertAwaited_whenRequestReturnsWithoutAnswerThenStreamBringsGrantWhileQuerying_thenAnswerLoggedOnceAndDeferred() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared)
        _ = StartupMachine.step(&state, .statusChecked(.notDetermined, locationServicesEnabled: true))
        expectNoDifference(
            StartupMachine.step(&state, .authorizationAnswered(.notDetermined)).log, [.permissionAnswered(.notDetermined)]
        )
        expectNoDifference(StartupMachine.step(&state, .statusChanged(.authorizedWhenInUse)).log, [
            .permissionAnswered(.authorizedWhenInUse), .permissionChangeDeferred(.authorizedWhenInUse),
        ])
        expectNoDifference(StartupMachine.step(&state, .authorizationAnswered(.authorizedWhenInUse)).log, [])
    }

    // FR-003, FR-007, SC-001: iOS's alert shows and the query without coordinates starts behind it.
    @Test func givenNotDeterminedChecked_whenStatusArrives_thenAuthorizationRequestedAndQueryWithoutCoordinatesStarted() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        step(&state, .statusChecked(.notDetermined), effects: [.requestAuthorization, .fetchAnimals(near: nil)]) {
            $0.hasCheckedStatus = true
            $0.isAwaitingAuthorizationAnswer = true
            $0.activity = .querying(near: nil)
        }
        step(&state, .animalsLoaded(Fixtures.animals), effects: []) {  // FR-012: the listing, at once
            $0.activity = .idle
            $0.listing = .init(animals: Fixtures.animals, queriedNearLocation: false)
        }
    }

    // FR-004, FR-007, FR-009; departure 5: the query starts at once, behind the popup.
    @Test func givenDeniedChecked_whenStatusArrives_thenPopupAndQueryWithoutCoordinatesTogether() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        step(&state, .statusChecked(.denied), effects: [.fetchAnimals(near: nil)]) {
            $0.permissionStatus = .denied
            $0.popup = .denied
            $0.hasCheckedStatus = true
            $0.activity = .querying(near: nil)
        }
        step(&state, .popupCancelTapped, effects: []) { $0.popup = nil }  // FR-006
        step(&state, .animalsLoaded(Fixtures.animals), effects: []) {  // FR-012
            $0.activity = .idle
            $0.listing = .init(animals: Fixtures.animals, queriedNearLocation: false)
        }
    }

    // FR-002, FR-008; departure 6.
    @Test func givenAuthorizedChecked_whenLocationArrives_thenQueryCarriesRoundedCoordinates() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        step(&state, .statusChecked(.authorizedWhenInUse), effects: [.requestLocation]) {
            $0.permissionStatus = .authorizedWhenInUse
            $0.hasCheckedStatus = true
            $0.activity = .locating
        }
        let sent = Fixtures.warsaw.rounded(toDecimals: 2)
        step(&state, .locationResult(Fixtures.warsaw), effects: [.fetchAnimals(near: sent)]) {
            $0.currentLocation = Fixtures.warsaw
            $0.activity = .querying(near: sent)
        }
    }

    // FR-014
    @Test func givenLocating_whenLocationFails_thenQueryWithoutCoordinates() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        _ = StartupMachine.step(&state, .statusChecked(.authorizedAlways)).effects
        step(&state, .locationResult(nil), effects: [.fetchAnimals(near: nil)]) {
            $0.activity = .querying(near: nil)
        }
    }

    // FR-015: the change waits for the query, then applies. No dead Retry: the failed query's error
    // goes as soon as the location request starts, since Retry would do nothing while it runs.
    @Test func givenQueryInFlight_whenGranted_thenDeferredUntilQueryCompletesThenLocatesWithoutTheError() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        _ = StartupMachine.step(&state, .statusChecked(.denied)).effects
        step(&state, .statusChanged(.authorizedWhenInUse), effects: []) {
            $0.pendingStatus = .authorizedWhenInUse
        }
        step(&state, .retryTapped, effects: [])  // never a second query
        step(&state, .animalsFailed("timeout"), effects: [.requestLocation]) {
            $0.pendingStatus = nil
            $0.permissionStatus = .authorizedWhenInUse
            $0.popup = nil
            $0.activity = .locating
        }
    }

    // FR-011: iOS returns background → inactive → active; a plain inactive → active does not re-check.
    @Test func givenAppeared_whenSceneReturnsFromBackground_thenStatusRecheckedOnlyThen() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        step(&state, .scenePhaseChanged(.inactive), effects: []) { $0.scenePhase = .inactive }
        step(&state, .scenePhaseChanged(.active), effects: []) { $0.scenePhase = .active }
        step(&state, .scenePhaseChanged(.background), effects: []) {
            $0.scenePhase = .background
            $0.hasBeenInBackground = true
        }
        step(&state, .scenePhaseChanged(.inactive), effects: []) { $0.scenePhase = .inactive }
        step(&state, .scenePhaseChanged(.active), effects: [.checkStatus]) {
            $0.scenePhase = .active
            $0.hasBeenInBackground = false
        }
    }

    // FR-013: revoked after the popup was shown this session: no second popup, no location kept.
    @Test func givenPopupShownThenGranted_whenRevoked_thenNoSecondPopupAndLocationDropped() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        _ = StartupMachine.step(&state, .statusChecked(.denied)).effects
        _ = StartupMachine.step(&state, .popupCancelTapped).effects
        _ = StartupMachine.step(&state, .animalsLoaded([])).effects
        _ = StartupMachine.step(&state, .statusChanged(.authorizedWhenInUse)).effects
        _ = StartupMachine.step(&state, .locationResult(Fixtures.krakow)).effects
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals)).effects
        step(&state, .statusChanged(.denied), effects: []) {
            $0.permissionStatus = .denied
            $0.currentLocation = nil
        }
    }

    // Stray results (late, duplicate) change nothing.
    @Test func givenIdle_whenResultsArriveThatNothingAskedFor_thenIgnored() {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        _ = StartupMachine.step(&state, .statusChecked(.denied)).effects
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals)).effects
        step(&state, .locationResult(Fixtures.warsaw), effects: [])
        step(&state, .animalsLoaded([]), effects: [])
        step(&state, .animalsFailed("late"), effects: [])
    }

    // FR-001 before the screen exists: a status is only remembered.
    @Test func givenNotAppeared_whenStatusChangesOrRetryTapped_thenOnlyStatusRemembered() {
        var state = State()
        step(&state, .statusChanged(.denied), effects: []) { $0.permissionStatus = .denied }
        step(&state, .retryTapped, effects: [])
        step(&state, .scenePhaseChanged(.background), effects: []) {
            $0.scenePhase = .background
            $0.hasBeenInBackground = true
        }
        step(&state, .scenePhaseChanged(.active), effects: []) {
            $0.scenePhase = .active
            $0.hasBeenInBackground = false
        }
    }
}
