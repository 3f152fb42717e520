import PetSpotDomain

/// Every rule of the startup screen (FR-001…FR-015) as one pure function.
///
/// ``reduce(_:_:)`` takes the screen's ``State`` and one ``Event`` and returns the ``Effect``s to
/// perform. It never touches a service, a clock or a view: ``AnimalListViewModel`` performs the
/// effects and feeds their results back as events. A `State` lives as long as one app session (one
/// launch), so "once per session" is simply a flag in it.
///
/// How a load goes: the screen appears → check the status → (`.notDetermined`: ask; authorized:
/// locate; denied/restricted: show the popup and query at once) → query with or without coordinates →
/// listing or error. At most one step of that pipeline runs at a time (``Activity``); a status
/// change seen while it runs is kept in ``State/pendingStatus`` and applied when it ends (FR-015).
public enum StartupMachine {
    /// Applies `event` to `state` and returns what must be done next, in order.
    public static func reduce(_ state: inout State, _ event: Event) -> [Effect] {
        switch event {
        case .screenAppeared:
            guard state.hasAppeared else {
                // FR-001: the status is checked when the screen appears; FR-010: and observed from now on.
                state.hasAppeared = true
                state.activity = .checkingStatus
                return [.observeStatusChanges, .checkStatus]
            }
            // A later appearance re-reads the status as an observation; it does not restart the load.
            return [.checkStatus]

        case .statusChecked(let status):
            guard state.activity == .checkingStatus else { return observe(status, in: &state) }
            state.permissionStatus = status
            if state.pendingStatus == status { state.pendingStatus = nil }
            return startLoad(for: status, mayAsk: true, in: &state)

        case .authorizationAnswered(let status):
            guard state.activity == .requestingAuthorization else { return observe(status, in: &state) }
            state.permissionStatus = status
            if state.pendingStatus == status { state.pendingStatus = nil }
            // FR-002 after "Allow"; FR-009 after "Don't Allow": the person just answered iOS's own
            // alert, so the custom popup does not follow it.
            return status.isAuthorized ? startLocating(in: &state) : startQuery(near: nil, in: &state)

        case .locationResult(let location):
            guard state.activity == .locating else { return [] }
            state.currentLocation = location
            // FR-008 with a location; FR-009/FR-014 without one.
            return startQuery(near: location, in: &state)

        case .animalsLoaded(let animals):
            guard case .querying(let location) = state.activity else { return [] }
            // FR-012: the listing shows when its query completes.
            state.listing = Listing(animals: animals, queriedNearLocation: location != nil)
            state.loadFailure = nil
            state.activity = .idle
            return applyPendingStatus(in: &state)

        case .animalsFailed(let reason):
            guard case .querying = state.activity else { return [] }
            // Earlier results stay; the error offers Retry.
            state.loadFailure = reason
            state.activity = .idle
            return applyPendingStatus(in: &state)

        case .popupSettingsTapped:
            guard state.isPopupPresented else { return [] }
            state.isPopupPresented = false
            return [.openSettings]  // FR-005

        case .popupCancelTapped:
            // FR-006: the query without coordinates already started behind the popup.
            state.isPopupPresented = false
            return []

        case .scenePhaseChanged(let phase):
            return scenePhaseChanged(to: phase, in: &state)

        case .statusChanged(let status):
            return observe(status, in: &state)

        case .retryTapped:
            guard state.hasAppeared, state.activity == .idle else { return [] }
            return startLoad(for: state.permissionStatus, mayAsk: false, in: &state)
        }
    }
}
