import AsyncSupport
import DeviceInterfaces
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
        /// The status goes back to "not determined" (an Allow Once grant lapsed, "Ask Next Time").
        case permissionForgotten
        /// The person leaves the app (inactive, then background); iOS takes its alert away unanswered.
        case leavesApp
        /// The person comes back (inactive, then active).
        case returnsToApp
        case popupGoToSettings
        case popupCancel
        case locationSucceeds
        case locationFails
        case querySucceeds
        /// The query returns no animals (nobody within the radius, or an empty database).
        case queryFindsNobody
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
        case refresh
    }

    /// The machine together with the world around it: what the device says and what is in flight.
    struct World: Hashable {
        var machine = StartupMachine.State()
        var deviceStatus: LocationPermissionStatus
        var queriesInFlight = 0
        var firstQueryStarted = false
        var popupsShown = 0
        var locationRequestsInFlight = 0
        /// The latest status delivered to the screen (a check, the stream, or the alert's answer).
        var deliveredStatus: LocationPermissionStatus?
        /// The app's scene phase as iOS last reported it.
        var scenePhase: AppScenePhase = .active
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
            case .permissionForgotten:
                deviceStatusChanges(to: .notDetermined)
                return [.statusChanged(.notDetermined)]
            case .leavesApp:
                isAlertUp = false
                scenePhase = .background
                return [.scenePhaseChanged(.inactive), .scenePhaseChanged(.background)]
            case .returnsToApp:
                scenePhase = .active
                return [.scenePhaseChanged(.inactive), .scenePhaseChanged(.active)]
            case .popupGoToSettings: return [.popupSettingsTapped]
            case .popupCancel: return [.popupCancelTapped]
            case .locationSucceeds: return [.locationResult(Fixtures.warsaw)]
            case .locationFails: return [.locationResult(nil)]
            case .querySucceeds: return [.animalsLoaded(Fixtures.animals)]
            case .queryFindsNobody: return [.animalsLoaded([])]
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
            case .refresh: return [.refreshRequested]
            }
        }

        /// Applies one machine event and returns the first invariant it breaks, if any.
        mutating func apply(_ event: StartupMachine.Event) -> String? {
            let before = machine
            let effects = StartupMachine.step(&machine, event).effects
            switch event {
            case .statusChecked(let status, _), .statusChanged(let status): deliveredStatus = status
            case .authorizationAnswered(let status) where status != .notDetermined: deliveredStatus = status
            default: break
            }

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
                // Invariant 3: coordinates only from a location obtained for this query, and whenever one
                // was obtained while the screen knows location is allowed.
                var obtained: UserLocation?
                if case .locationResult(let location) = event, before.activity == .locating { obtained = location }
                let allowed = deliveredStatus?.isAuthorized ?? false
                if sent != (allowed ? obtained?.rounded(toDecimals: 2) : nil) {
                    return "query sent \(String(describing: sent)) but the location obtained for it was \(String(describing: obtained)) (latest status delivered: \(String(describing: deliveredStatus)))"
                }
                // Invariant 7 (US4-4): coordinates leave only while the latest status the screen was told is authorized.
                if sent != nil, !allowed {
                    return "coordinates sent although the latest status delivered was \(String(describing: deliveredStatus))"
                }
            }
            if queries.count > 1 { return "two queries started in one step" }
            let querying = machine.isQuerying
            if querying != (queriesInFlight == 1) { return "the machine and the world disagree on the query in flight" }

            // Invariant 2: the popup shows at most once per session, only for denied/restricted, and only
            // with the session's first status check (never after a change the person made).
            if !before.isPopupPresented, machine.isPopupPresented {
                popupsShown += 1
                if !machine.permissionStatus.shouldShowCustomPopup { return "popup shown for \(machine.permissionStatus)" }
                let isFirstCheck = if case .statusChecked = event { !before.hasCheckedStatus } else { false }
                if !isFirstCheck { return "popup shown after \(event), not with the first status check" }
            }
            if popupsShown > 1 { return "popup shown \(popupsShown) times in one session" }

            // Invariant 5: the person who just answered iOS's alert never gets the custom popup for it.
            if !before.isPopupPresented, machine.isPopupPresented, isAlertUp || alertAnswer != nil {
                return "custom popup shown for the answer to iOS's alert (\(String(describing: alertAnswer)))"
            }
            if effects.contains(.requestAuthorization) {
                // Invariant 9: iOS shows its alert only to an active app; asking otherwise is lost.
                if scenePhase != .active { return "asked iOS while the app was \(scenePhase)" }
                // Invariant 10: never iOS's alert over the custom popup.
                if machine.isPopupPresented { return "asked iOS while the custom popup was up" }
                if deviceStatus == .notDetermined { isAlertUp = true }
            }
            // Invariant 11: the popup says what is true: its cause explains the status the screen acts on.
            if let popup = machine.popup, !popup.explains(machine.permissionStatus) {
                return "the \(popup) popup is up while the status is \(machine.permissionStatus)"
            }

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
            if firstQueryStarted, machine.listing == nil, machine.activity == .idle, machine.loadFailure == nil {
                return "dead end: no listing, nothing running and no error with Retry"
            }
            // Invariant 8: no dead Retry: an error with Retry shows only while nothing runs.
            if machine.loadFailure != nil, machine.activity != .idle {
                return "the error with Retry still shows while \(machine.activity) runs"
            }
            if machine.loadFailure != nil, machine.activity == .idle {
                var probe = machine
                if StartupMachine.step(&probe, .retryTapped).effects.isEmpty { return "an error whose Retry does nothing" }
            }
            return nil
        }
    }

    /// How many sequences of length 1…`depth` there are.
    static func sequenceCount(depth: Int) -> Int {
        let width = Happening.allCases.count
        return (1...max(depth, 1)).reduce(into: (total: 0, level: 1)) { sum, _ in
            sum.level *= width
            sum.total += sum.level
        }.total * (depth > 0 ? 1 : 0)
    }

    /// Explores every sequence below `world`; returns how many sequences (of length 1…depth) it saw.
    /// `trail` is the sequence so far, for the failure message. What follows a world depends on the
    /// world alone, so a world already explored to the same depth without a broken invariant is
    /// counted, not walked again (`done` holds them, by remaining depth).
    func explore(_ world: World, depth: Int, trail: inout [Happening], done: inout [Int: Set<World>]) -> Int {
        guard depth > 0 else { return 0 }
        if done[depth]?.contains(world) == true { return Self.sequenceCount(depth: depth) }
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
            explored += 1 + explore(next, depth: depth - 1, trail: &trail, done: &done)
        }
        done[depth, default: []].insert(world)
        return explored
    }

    // FR-003, FR-007, FR-013, FR-015, SC-001, SC-002, US4-4: all eleven invariants hold in every order of events,
    // including both orders of the alert's two answer deliveries.
    @Test(arguments: LocationPermissionStatus.allCases)
    func givenAnyStartingStatus_whenEverySequenceOfUpToTenEventsApplied_thenInvariantsHoldAfterEachStep(
        start: LocationPermissionStatus
    ) {
        let depth = 10
        var trail: [Happening] = []
        var done: [Int: Set<World>] = [:]
        let explored = explore(World(deviceStatus: start), depth: depth, trail: &trail, done: &done)
        #expect(explored == Self.sequenceCount(depth: depth))  // no invariant broke on the way
        let worlds = done.values.reduce(0) { $0 + $1.count }
        print("StartupMachine exploration from \(start): every sequence of 1…\(depth) of \(Happening.allCases.count) events (\(explored)), \(worlds) distinct worlds walked, invariants held after every step")
    }
}
