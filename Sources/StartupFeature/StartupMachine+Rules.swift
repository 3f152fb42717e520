import PetSpotDomain

extension StartupMachine {
    /// Starts the pipeline for `status`: ask, locate, or query without coordinates.
    /// - Parameters:
    ///   - isFirstCheck: Whether this is the screen's first check, the only time iOS's alert (FR-003)
    ///     or the custom popup (FR-004) may come with a load. A retry or a refresh only loads: the
    ///     person who answered "Don't Allow" and retries gets no popup for that answer.
    ///   - locationServicesEnabled: False when Location Services are off for the whole phone, which
    ///     iOS reports as `.denied` (rule 7); the popup then says where to turn them on.
    static func startLoad(
        for status: LocationPermissionStatus,
        isFirstCheck: Bool,
        locationServicesEnabled: Bool = true,
        in state: inout State
    ) -> [Effect] {
        let previous = state.permissionStatus
        state.permissionStatus = status
        if let popup = state.popup, !popup.explains(status) { state.popup = nil }
        if status != .notDetermined { state.needsAuthorizationRequest = false }
        if status.isAuthorized {
            return startLocating(in: &state)  // FR-002
        }
        state.currentLocation = nil
        if status == .notDetermined, isFirstCheck || state.needsAuthorizationRequest || previous != .notDetermined {
            // FR-003: iOS's alert shows. SC-001/FR-007: the query without coordinates starts behind it
            // at once, as behind the custom popup (departure 5); the answer is handled when it comes
            // (see `answerAuthorization`). If iOS cannot show it now, it is asked for later.
            state.needsAuthorizationRequest = true
            if canAsk(state) { return ask(in: &state) }
        }
        if isFirstCheck {
            // FR-004, FR-013: the popup, by cause, on the session's first check only.
            switch status {
            case .restricted: state.popup = .restricted
            case .denied: state.popup = locationServicesEnabled ? .denied : .locationServicesOff
            case .notDetermined, .authorizedWhenInUse, .authorizedAlways: break
            }
        }
        // Departure 5 / SC-001: the query without coordinates starts at once, behind the popup.
        return startQuery(near: nil, in: &state)  // FR-007, FR-009
    }

    /// Whether iOS can show its alert now: the app is active and no earlier alert still waits.
    static func canAsk(_ state: State) -> Bool {
        state.scenePhase == .active && !state.isAwaitingAuthorizationAnswer
    }

    /// iOS's alert and, behind it, the query without coordinates (FR-003, SC-001). Only after
    /// ``canAsk(_:)``.
    static func ask(in state: inout State) -> [Effect] {
        state.needsAuthorizationRequest = false
        state.isAwaitingAuthorizationAnswer = true
        return [.requestAuthorization] + startQuery(near: nil, in: &state)
    }

    /// Asks iOS again after the status went back to `.notDetermined`, if iOS can show its alert now
    /// (the app is active) and nothing runs; otherwise the request stays due.
    static func askAgainIfPossible(in state: inout State) -> [Effect] {
        guard state.needsAuthorizationRequest, state.permissionStatus == .notDetermined else {
            state.needsAuthorizationRequest = false
            return []
        }
        guard canAsk(state), state.activity == .idle else { return [] }
        return ask(in: &state)
    }

    /// Starts a step of a load. No dead Retry: a failed query's error goes as soon as any step starts,
    /// since Retry does nothing while one runs.
    static func begin(_ activity: Activity, in state: inout State) {
        state.activity = activity
        state.loadFailure = nil
    }

    static func startLocating(in state: inout State) -> [Effect] {
        begin(.locating, in: &state)
        return [.requestLocation]
    }

    /// Re-reads the status, then loads as it says (pull to refresh, a return to the app).
    static func recheckAndLoad(in state: inout State) -> [Effect] {
        begin(.checkingStatus, in: &state)
        return [.checkStatus]
    }

    /// Starts the one query; coordinates leave the device rounded (departure 6).
    static func startQuery(near location: UserLocation?, in state: inout State) -> [Effect] {
        let sent = location?.rounded(toDecimals: state.coordinateDecimals)
        begin(.querying(near: sent), in: &state)
        return [.fetchAnimals(near: sent)]
    }

    /// A status seen on the stream, on a re-check or as the request's return (FR-010, FR-011).
    static func observe(_ status: LocationPermissionStatus, in state: inout State) -> [Effect] {
        guard state.hasAppeared else {
            state.permissionStatus = status
            return []
        }
        if state.isAwaitingAuthorizationAnswer, status != .notDetermined {
            return answerAuthorization(status, in: &state)
        }
        guard state.activity == .idle else {
            // FR-015: never cancel or overlap the running step; apply the latest change afterwards.
            state.pendingStatus = status == state.permissionStatus ? nil : status
            return []
        }
        return applyStatusChange(to: status, in: &state)
    }

    /// The person's answer to iOS's alert, from whichever delivery came first; the other delivery
    /// then repeats the status the machine already holds (or defers) and changes nothing.
    static func answerAuthorization(_ status: LocationPermissionStatus, in state: inout State) -> [Effect] {
        state.isAwaitingAuthorizationAnswer = false
        guard status.isAuthorized else {
            // FR-009: "Don't Allow": the listing without location is shown or on its way. FR-003 and
            // not FR-004: the person just answered iOS's own alert, so the custom popup does not
            // follow it.
            state.permissionStatus = status
            state.pendingStatus = nil
            state.currentLocation = nil
            return []
        }
        guard state.activity == .idle else {
            // FR-015: the query behind the alert completes first; then locate and query near them.
            state.pendingStatus = status
            return []
        }
        // FR-002, FR-011: "Allow While Using" or "Allow Once": locate, then refresh the listing nearby.
        return applyStatusChange(to: status, in: &state)
    }

    static func applyPendingStatus(in state: inout State) -> [Effect] {
        guard let pending = state.pendingStatus else { return askAgainIfPossible(in: &state) }
        state.pendingStatus = nil
        return applyStatusChange(to: pending, in: &state)
    }

    /// Applies a new status while nothing runs.
    static func applyStatusChange(to status: LocationPermissionStatus, in state: inout State) -> [Effect] {
        let previous = state.permissionStatus
        state.permissionStatus = status
        if let popup = state.popup, !popup.explains(status) {
            state.popup = nil  // it would no longer say what is true
        }
        if status == .notDetermined {
            if previous != .notDetermined {
                // Rules 5 and 7: back to "not determined" in this session; ask again as on a first launch.
                state.currentLocation = nil
                state.needsAuthorizationRequest = true
            }
            return state.needsAuthorizationRequest ? askAgainIfPossible(in: &state) : []
        }
        state.needsAuthorizationRequest = false  // answered some other way (in Settings)
        guard status != previous else { return [] }
        if status.isAuthorized {
            // FR-011: a grant fetches a location and refreshes the listing.
            return previous.isAuthorized ? [] : startLocating(in: &state)
        }
        // Revoked or lapsed: the location is no longer ours to use; the next query goes without it.
        // No popup: the person just made this change themselves (FR-004 is the first check's).
        state.currentLocation = nil
        return []
    }

    static func scenePhaseChanged(to phase: AppScenePhase, in state: inout State) -> [Effect] {
        state.scenePhase = phase
        switch phase {
        case .background:
            state.hasBeenInBackground = true
            return []
        case .inactive:
            return []
        case .active:
            // iOS goes background → inactive → active, so "returned" means "was in the background
            // since the last time it was active" (FR-011: re-check on return from Settings).
            guard state.hasBeenInBackground else { return askAgainIfPossible(in: &state) }
            state.hasBeenInBackground = false
            guard state.hasAppeared else { return [] }
            let listedNearby = state.listing.map { $0.queriedNearLocation || $0.isFallbackForNothingNearby } ?? false
            if state.hasCheckedStatus, state.activity == .idle, state.permissionStatus.isAuthorized, !listedNearby {
                // The listing had to do without the person's location (no fix, too slow, failed):
                // try again now, as a refresh does.
                return recheckAndLoad(in: &state)
            }
            return [.checkStatus]
        }
    }
}
