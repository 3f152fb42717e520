import PetSpotDomain
import StartupFeature
import Testing
import TestSupport

/// Every order of events, up to a depth, checked against the invariants of the screen.
extension StartupMachineTests {
    /// One thing that can happen: a person's action, a system change, or one outstanding effect
    /// completing. Each becomes one or more machine events.
    enum Happening: CaseIterable {
        case screenAppears
        case permissionGranted
        case permissionDenied
        case backgroundRoundTrip
        case popupGoToSettings
        case popupCancel
        case locationSucceeds
        case locationFails
        case querySucceeds
        case queryFails
        case statusCheckCompletes
        /// The request returns with the device's status (the stream delivered the answer first, or
        /// no answer came within the bounded wait).
        case authorizationAnswerArrives
        /// The person allows in iOS's alert and the request's return comes before the stream's change
        /// (which ``permissionGranted`` then delivers).
        case alertAllowedRequestReturnsFirst
        /// The same for "Don't Allow" (``permissionDenied`` delivers the stream's change).
        case alertDeniedRequestReturnsFirst
        case retry
    }

    /// The machine together with the world around it: what the device says and what is in flight.
    struct World {
        var machine = StartupMachine.State()
        var deviceStatus: LocationPermissionStatus
        var queriesInFlight = 0
        var firstQueryStarted = false
        var popupsShown = 0
        var locationRequestsInFlight = 0
        /// iOS's alert is up: the machine asked while the device's status was `.notDetermined`.
        var isAlertUp = false
        /// The person's answer to the alert, until the status changes otherwise (in Settings).
        var alertAnswer: LocationPermissionStatus?

        /// The device's status becomes `status`: the alert's answer if it is up, a Settings change if not.
        mutating func deviceStatusChanges(to status: LocationPermissionStatus) {
            if isAlertUp {
                isAlertUp = false
                alertAnswer = status
            } else if status != deviceStatus {
                alertAnswer = nil
            }
            deviceStatus = status
        }

        /// The machine events for `happening`; the world's side changes first.
        mutating func events(for happening: Happening) -> [StartupMachine.Event] {
            switch happening {
            case .screenAppears: return [.screenAppeared]
            case .permissionGranted:
                deviceStatusChanges(to: .authorizedWhenInUse)
                return [.statusChanged(.authorizedWhenInUse)]
            case .permissionDenied:
                deviceStatusChanges(to: .denied)
                return [.statusChanged(.denied)]
            case .backgroundRoundTrip:
                return [.scenePhaseChanged(.background), .scenePhaseChanged(.inactive), .scenePhaseChanged(.active)]
            case .popupGoToSettings: return [.popupSettingsTapped]
            case .popupCancel: return [.popupCancelTapped]
            case .locationSucceeds: return [.locationResult(Fixtures.warsaw)]
            case .locationFails: return [.locationResult(nil)]
            case .querySucceeds: return [.animalsLoaded(Fixtures.animals)]
            case .queryFails: return [.animalsFailed("503")]
            case .statusCheckCompletes: return [.statusChecked(deviceStatus)]
            case .authorizationAnswerArrives: return [.authorizationAnswered(deviceStatus)]
            case .alertAllowedRequestReturnsFirst:
                deviceStatusChanges(to: .authorizedWhenInUse)
                return [.authorizationAnswered(.authorizedWhenInUse)]
            case .alertDeniedRequestReturnsFirst:
                deviceStatusChanges(to: .denied)
                return [.authorizationAnswered(.denied)]
            case .retry: return [.retryTapped]
            }
        }

        /// Applies one machine event and returns the first invariant it breaks, if any.
        mutating func apply(_ event: StartupMachine.Event) -> String? {
            let before = machine
            let effects = StartupMachine.reduce(&machine, event)

            let isResult = if case .animalsLoaded = event { true } else if case .animalsFailed = event { true } else { false }
            if isResult, queriesInFlight == 1 { queriesInFlight = 0 }
            let queries = effects.compactMap { effect -> UserLocation?? in
                if case .fetchAnimals(let location) = effect { return .some(location) }
                return nil
            }
            for sent in queries {
                // Invariant 4: never two queries in flight.
                if queriesInFlight > 0 { return "a second query started while one was in flight" }
                queriesInFlight += 1
                firstQueryStarted = true
                // Invariant 3: coordinates if and only if a location was obtained for this query.
                var obtained: UserLocation?
                if case .locationResult(let location) = event, before.activity == .locating { obtained = location }
                if sent != obtained?.rounded(toDecimals: 2) {
                    return "query sent \(String(describing: sent)) but the location obtained for it was \(String(describing: obtained))"
                }
            }
            if queries.count > 1 { return "two queries started in one step" }
            let querying = if case .querying = machine.activity { true } else { false }
            if querying != (queriesInFlight == 1) { return "the machine and the world disagree on the query in flight" }

            // Invariant 2: the popup shows at most once per session, and only for denied/restricted.
            if !before.isPopupPresented, machine.isPopupPresented {
                popupsShown += 1
                if !machine.permissionStatus.shouldShowCustomPopup { return "popup shown for \(machine.permissionStatus)" }
            }
            if popupsShown > 1 { return "popup shown \(popupsShown) times in one session" }

            // Invariant 5: the person who just answered iOS's alert never gets the custom popup for it.
            if !before.isPopupPresented, machine.isPopupPresented, isAlertUp || alertAnswer != nil {
                return "custom popup shown for the answer to iOS's alert (\(String(describing: alertAnswer)))"
            }
            if effects.contains(.requestAuthorization), deviceStatus == .notDetermined { isAlertUp = true }

            // Invariant 6: never two location requests in flight.
            if case .locationResult = event, locationRequestsInFlight == 1 { locationRequestsInFlight = 0 }
            for effect in effects where effect == .requestLocation {
                if locationRequestsInFlight > 0 { return "a second location request while one was in flight" }
                locationRequestsInFlight += 1
            }
            if (machine.activity == .locating) != (locationRequestsInFlight == 1) {
                return "the machine and the world disagree on the location request in flight"
            }

            // Invariant 1: after the first query, never a dead end.
            if firstQueryStarted, machine.listing == nil, !querying, machine.loadFailure == nil {
                return "dead end: no listing, no query in flight and no error with Retry"
            }
            if machine.loadFailure != nil, machine.activity == .idle {
                var probe = machine
                if StartupMachine.reduce(&probe, .retryTapped).isEmpty { return "an error whose Retry does nothing" }
            }
            return nil
        }
    }

    /// Explores every sequence below `world`; returns how many sequences (of length 1…depth) it saw.
    /// `trail` is the sequence so far, for the failure message.
    func explore(_ world: World, depth: Int, trail: inout [Happening]) -> Int {
        guard depth > 0 else { return 0 }
        var explored = 0
        for happening in Happening.allCases {
            var next = world
            trail.append(happening)
            defer { trail.removeLast() }
            for event in next.events(for: happening) {
                if let broken = next.apply(event) {
                    let steps = trail.map { "\($0)" }.joined(separator: " → ")
                    Issue.record("\(broken), after \(steps) (device status at the start of this step: \(world.deviceStatus))")
                    return explored + 1
                }
            }
            explored += 1 + explore(next, depth: depth - 1, trail: &trail)
        }
        return explored
    }

    // FR-003, FR-007, FR-013, FR-015, SC-001, SC-002: all six invariants hold in every order of events,
    // including both orders of the alert's two answer deliveries.
    @Test(arguments: LocationPermissionStatus.allCases)
    func givenAnyStartingStatus_whenEverySequenceOfUpToSixEventsApplied_thenInvariantsHoldAfterEachStep(
        start: LocationPermissionStatus
    ) {
        let depth = 6
        var trail: [Happening] = []
        let explored = explore(World(deviceStatus: start), depth: depth, trail: &trail)

        let width = Happening.allCases.count
        let expected = (1...depth).reduce(into: (total: 0, level: 1)) { sum, _ in
            sum.level *= width
            sum.total += sum.level
        }.total
        #expect(explored == expected)
        print("StartupMachine exploration from \(start): \(explored) event sequences of length 1…\(depth) over \(Happening.allCases.count) events, invariants held after every step")
    }
}
