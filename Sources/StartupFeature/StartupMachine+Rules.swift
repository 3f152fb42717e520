import PetSpotDomain

extension StartupMachine {
    /// Starts the pipeline for `status`: ask, locate, or query without coordinates.
    /// - Parameter mayAsk: Whether a `.notDetermined` status may show iOS's alert (only on the
    ///   screen's first check; a retry queries without coordinates instead).
    static func startLoad(
        for status: LocationPermissionStatus,
        mayAsk: Bool,
        in state: inout State
    ) -> [Effect] {
        if status.isAuthorized {
            return startLocating(in: &state)  // FR-002
        }
        if status == .notDetermined, mayAsk {
            state.activity = .requestingAuthorization
            return [.requestAuthorization]  // FR-003
        }
        if status.shouldShowCustomPopup {
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

    /// A status seen on the stream or on a re-check (FR-010, FR-011).
    static func observe(_ status: LocationPermissionStatus, in state: inout State) -> [Effect] {
        guard state.hasAppeared else {
            state.permissionStatus = status
            return []
        }
        guard state.activity == .idle else {
            // FR-015: never cancel or overlap the running step; apply the latest change afterwards.
            state.pendingStatus = status == state.permissionStatus ? nil : status
            return []
        }
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
