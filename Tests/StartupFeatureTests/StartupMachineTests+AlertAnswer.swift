import AsyncSupport
import PetSpotDomain
import StartupFeature
import Testing
import TestSupport

/// The answer to iOS's alert, which arrives twice (the request's return and the status stream) in
/// either order, while the query behind the alert runs or after it finished.
extension StartupMachineTests {
    /// Which delivery of the answer comes first. The real `LocationService` over the simulated
    /// iPhone delivers the stream's change first.
    enum AnswerOrder: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case streamFirst
        case requestReturnFirst

        var testDescription: String { rawValue }

        /// The first and the second delivery of `status`.
        func deliveries(of status: LocationPermissionStatus) -> (StartupMachine.Event, StartupMachine.Event) {
            switch self {
            case .streamFirst: (.statusChanged(status), .authorizationAnswered(status))
            case .requestReturnFirst: (.authorizationAnswered(status), .statusChanged(status))
            }
        }
    }

    /// A never-asked person's first check: the alert is up and the query behind it runs.
    func askedState() -> State {
        var state = State()
        _ = StartupMachine.step(&state, .screenAppeared).effects
        _ = StartupMachine.step(&state, .statusChecked(.notDetermined)).effects
        return state
    }

    // FR-002, FR-011, FR-015: "Allow" while the query behind the alert runs: it completes, then locate,
    // then the nearby query; the second delivery starts nothing.
    @Test(arguments: AnswerOrder.allCases)
    func givenQueryBehindAlertRunning_whenPersonAllows_thenLocatedAfterQueryCompletesAndNearbyQuerySent(order: AnswerOrder) {
        var state = askedState()
        let (first, second) = order.deliveries(of: .authorizedWhenInUse)
        step(&state, first, effects: []) {
            $0.isAwaitingAuthorizationAnswer = false
            $0.pendingStatus = .authorizedWhenInUse
        }
        step(&state, second, effects: [])
        step(&state, .animalsLoaded(Fixtures.animals), effects: [.requestLocation]) {
            $0.listing = .init(animals: Fixtures.animals, queriedNearLocation: false)
            $0.permissionStatus = .authorizedWhenInUse
            $0.pendingStatus = nil
            $0.activity = .locating
        }
        let sent = Fixtures.warsaw.rounded(toDecimals: 2)
        step(&state, .locationResult(Fixtures.warsaw), effects: [.fetchAnimals(near: sent)]) {
            $0.currentLocation = Fixtures.warsaw
            $0.activity = .querying(near: sent)
        }
        step(&state, .animalsLoaded([Fixtures.animals[0]]), effects: []) {  // the shown listing is refreshed
            $0.listing = .init(animals: [Fixtures.animals[0]], queriedNearLocation: true)
            $0.activity = .idle
        }
        #expect(state.popup == nil)
    }

    // FR-002, FR-011: "Allow" after the listing without location is shown: locate at once; the
    // second delivery, while locating, asks for no second location.
    @Test(arguments: AnswerOrder.allCases)
    func givenListingBehindAlertShown_whenPersonAllows_thenLocatedOnceAndListingRefreshedNearby(order: AnswerOrder) {
        var state = askedState()
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals)).effects
        let (first, second) = order.deliveries(of: .authorizedWhenInUse)
        step(&state, first, effects: [.requestLocation]) {
            $0.isAwaitingAuthorizationAnswer = false
            $0.permissionStatus = .authorizedWhenInUse
            $0.activity = .locating
        }
        step(&state, second, effects: [])
        let sent = Fixtures.warsaw.rounded(toDecimals: 2)
        step(&state, .locationResult(Fixtures.warsaw), effects: [.fetchAnimals(near: sent)]) {
            $0.currentLocation = Fixtures.warsaw
            $0.activity = .querying(near: sent)
        }
    }

    // FR-003, FR-009: "Don't Allow" while the query behind the alert runs: nothing more, and no custom
    // popup, neither now nor when the query completes.
    @Test(arguments: AnswerOrder.allCases)
    func givenQueryBehindAlertRunning_whenPersonDoesNotAllow_thenNothingMoreAndNoCustomPopup(order: AnswerOrder) {
        var state = askedState()
        let (first, second) = order.deliveries(of: .denied)
        step(&state, first, effects: []) {
            $0.isAwaitingAuthorizationAnswer = false
            $0.permissionStatus = .denied
        }
        step(&state, second, effects: [])
        step(&state, .animalsLoaded(Fixtures.animals), effects: []) {
            $0.listing = .init(animals: Fixtures.animals, queriedNearLocation: false)
            $0.activity = .idle
        }
    }

    // FR-003, FR-009: "Don't Allow" after the listing without location is shown: nothing more.
    @Test(arguments: AnswerOrder.allCases)
    func givenListingBehindAlertShown_whenPersonDoesNotAllow_thenNothingMoreAndNoCustomPopup(order: AnswerOrder) {
        var state = askedState()
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals)).effects
        let (first, second) = order.deliveries(of: .denied)
        step(&state, first, effects: []) {
            $0.isAwaitingAuthorizationAnswer = false
            $0.permissionStatus = .denied
        }
        step(&state, second, effects: [])
    }

    // FR-003, SC-001: no answer within the bounded wait (missing Info.plist key, or the alert left up):
    // the listing without location shows and nothing else happens.
    @Test func givenAlertNeverAnswered_whenRequestReturnsNotDetermined_thenListingShownAndNothingElse() {
        var state = askedState()
        step(&state, .animalsLoaded(Fixtures.animals), effects: []) {
            $0.listing = .init(animals: Fixtures.animals, queriedNearLocation: false)
            $0.activity = .idle
        }
        step(&state, .authorizationAnswered(.notDetermined), effects: [])
        step(&state, .statusChanged(.notDetermined), effects: [])
    }

    // FR-003: iOS's alert can outlive the bounded wait; a late "Don't Allow" still answers it, so no
    // custom popup follows, while a late "Allow" locates (FR-011).
    @Test func givenRequestReturnedWithoutAnswer_whenPersonAnswersLater_thenTreatedAsTheAlertsAnswer() {
        var denied = askedState()
        _ = StartupMachine.step(&denied, .authorizationAnswered(.notDetermined)).effects
        _ = StartupMachine.step(&denied, .animalsLoaded(Fixtures.animals)).effects
        step(&denied, .statusChanged(.denied), effects: []) {
            $0.isAwaitingAuthorizationAnswer = false
            $0.permissionStatus = .denied
        }

        var allowed = askedState()
        _ = StartupMachine.step(&allowed, .authorizationAnswered(.notDetermined)).effects
        _ = StartupMachine.step(&allowed, .animalsLoaded(Fixtures.animals)).effects
        step(&allowed, .statusChanged(.authorizedWhenInUse), effects: [.requestLocation]) {
            $0.isAwaitingAuthorizationAnswer = false
            $0.permissionStatus = .authorizedWhenInUse
            $0.activity = .locating
        }
    }

    // FR-004, FR-013: after the alert's answer, a later revocation in Settings is the person's own
    // change: no popup follows it, and the location is dropped.
    @Test func givenAllowedInAlert_whenLaterRevokedInSettings_thenNoCustomPopup() {
        var state = askedState()
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals)).effects
        _ = StartupMachine.step(&state, .statusChanged(.authorizedWhenInUse)).effects
        _ = StartupMachine.step(&state, .authorizationAnswered(.authorizedWhenInUse)).effects
        _ = StartupMachine.step(&state, .locationResult(nil)).effects
        _ = StartupMachine.step(&state, .animalsLoaded(Fixtures.animals)).effects
        step(&state, .statusChanged(.denied), effects: []) {
            $0.permissionStatus = .denied
            $0.currentLocation = nil
        }
    }

    // FR-003, FR-009: a retry after "Don't Allow" queries without coordinates and shows no custom
    // popup for that answer.
    @Test(arguments: AnswerOrder.allCases)
    func givenDeniedInAlertAndQueryFailed_whenRetryTapped_thenQueryWithoutCoordinatesAndNoCustomPopup(order: AnswerOrder) {
        var state = askedState()
        let (first, second) = order.deliveries(of: .denied)
        _ = StartupMachine.step(&state, first).effects
        _ = StartupMachine.step(&state, .animalsFailed("503")).effects
        _ = StartupMachine.step(&state, second).effects
        step(&state, .retryTapped, effects: [.fetchAnimals(near: nil)]) {
            $0.loadFailure = nil
            $0.activity = .querying(near: nil)
        }
        #expect(state.popup == nil)
    }

    // FR-003, FR-007: a retry while never asked queries without coordinates and does not ask again.
    @Test func givenQueryBehindAlertFailed_whenRetryTapped_thenQueryWithoutCoordinatesAndNoSecondRequest() {
        var state = askedState()
        _ = StartupMachine.step(&state, .animalsFailed("503")).effects
        step(&state, .retryTapped, effects: [.fetchAnimals(near: nil)]) {
            $0.loadFailure = nil
            $0.activity = .querying(near: nil)
        }
    }
}
