import PetSpotDomain

extension StartupMachine {
    /// Starts the pipeline for `status`: ask, locate, or query without coordinates.
    /// - Parameter isFirstCheck: Whether this is the screen's first check, the only time iOS's alert
    ///   (FR-003) or the custom popup (FR-004) may come with a load. A retry only loads: the person
    ///   who answered "Don't Allow" and retries gets no popup for that answer.
    static func startLoad(
        for status: LocationPermissionStatus,
        isFirstCheck: Bool,
        in state: inout State
    ) -> [Effect] {
        if status.isAuthorized {
            return startLocating(in: &state)  // FR-002
        }
        if status == .notDetermined, isFirstCheck {
            // FR-003: iOS's alert shows. SC-001/FR-007: the query without coordinates starts behind it
            // at once, as behind the custom popup (departure 5); the answer is handled when it comes
            // (see `answerAuthorization`).
            state.isAwaitingAuthorizationAnswer = true
            return [.requestAuthorization] + startQuery(near: nil, in: &state)
        }
        if status.shouldShowCustomPopup, isFirstCheck {
            presentPopupIfNotShownYet(in: &state)  // FR-004, FR-013
        }
        // Departure 5 / SC-001: the query without coordinates starts at once, behind the popup.
        return startQuery(near: nil, in: &state)  // FR-007, FR-009
    }

    static func startLocating(in state: inout State) -> [Effect] {
        state.activity = .locating
        return [.requestLocation]
    }

    /// Starts the one query; coordinates leave the device rounded (departure 6).
    static func startQuery(near location: UserLocation?, in state: inout State) -> [Effect] {
        let sent = location?.rounded(toDecimals: state.coordinateDecimals)
        state.activity = .querying(near: sent)
        state.loadFailure = nil
        return [.fetchAnimals(near: sent)]
    }

    static func presentPopupIfNotShownYet(in state: inout State) {
        guard !state.hasShownPopup else { return }
        state.hasShownPopup = true
        state.isPopupPresented = true
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
            // follow it (its once-per-session turn stays unused).
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
        guard let pending = state.pendingStatus else { return [] }
        state.pendingStatus = nil
        return applyStatusChange(to: pending, in: &state)
    }

    /// Applies a new status while nothing runs.
    static func applyStatusChange(to status: LocationPermissionStatus, in state: inout State) -> [Effect] {
        let previous = state.permissionStatus
        state.permissionStatus = status
        guard status != previous else { return [] }
        if status.isAuthorized {
            // The popup asks for exactly this; once granted it has nothing left to say.
            state.isPopupPresented = false
            // FR-011: a grant fetches a location and refreshes the listing.
            return previous.isAuthorized ? [] : startLocating(in: &state)
        }
        // Revoked or lapsed: the location is no longer ours to use; the next query goes without it.
        state.currentLocation = nil
        if status.shouldShowCustomPopup {
            presentPopupIfNotShownYet(in: &state)  // FR-013: not again if shown this session
        }
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
            guard state.hasBeenInBackground else { return [] }
            state.hasBeenInBackground = false
            return state.hasAppeared ? [.checkStatus] : []
        }
    }
}
