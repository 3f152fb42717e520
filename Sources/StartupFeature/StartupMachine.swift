import PetSpotDomain

/// Every rule of the startup screen (FR-001…FR-015) as one pure function.
///
/// ``reduce(_:_:)`` takes the screen's ``State`` and one ``Event`` and returns the ``Effect``s to
/// perform. It never touches a service, a clock or a view: ``AnimalListViewModel`` performs the
/// effects and feeds their results back as events. A `State` lives as long as one app session (one
/// launch), so "once per session" is simply a flag in it.
///
/// How a load goes: the screen appears → check the status → (authorized: locate; `.notDetermined`:
/// ask iOS and query at once; denied/restricted: show the popup and query at once) → query with or
/// without coordinates → listing or error. At most one step of that pipeline runs at a time
/// (``Activity``); a status change seen while it runs is kept in ``State/pendingStatus`` and applied
/// when it ends (FR-015).
///
/// Nobody waits for a permission answer before seeing pets (SC-001, FR-007). For denied/restricted
/// the query without coordinates runs behind the custom popup (departure 5); for a person never
/// asked it runs behind iOS's own alert (FR-003), so the listing shows at once even when no answer
/// ever comes (missing Info.plist key, or the person leaves the alert up). The answer arrives twice,
/// in either order — the request's return and the status stream — and only the first delivery of a
/// real answer counts (``State/isAwaitingAuthorizationAnswer``): "Allow" locates and queries again
/// near the person, after the running query if it still runs (FR-002, FR-015); "Don't Allow" adds
/// nothing, and never the custom popup, since the person just answered iOS's alert. A retry only
/// loads: it neither asks nor shows the popup. Pull to refresh re-reads the status and loads; so does a
/// return to the app when an authorized person's listing had to do without their location. When the
/// status goes back to `.notDetermined` in a session, iOS is asked again as on a first launch, once
/// the app is active.
public enum StartupMachine {
    /// Applies `event` to `state` and returns what must be done next, in order.
    public static func reduce(_ state: inout State, _ event: Event) -> [Effect] {
        switch event {
        case .screenAppeared:
            guard state.hasAppeared else {
                // FR-001: the status is checked when the screen appears; FR-010: and observed from now on.
                state.hasAppeared = true
                begin(.checkingStatus, in: &state)
                return [.observeStatusChanges, .checkStatus]
            }
            // A later appearance re-reads the status as an observation; it does not restart the load.
            return [.checkStatus]

        case .statusChecked(let status, let locationServicesEnabled):
            guard state.activity == .checkingStatus else {
                if state.popup == .locationServicesOff, locationServicesEnabled, status == .denied {
                    state.popup = .denied  // Location Services are back on; this app itself is still denied
                }
                return observe(status, in: &state)
            }
            let isFirstCheck = !state.hasCheckedStatus
            state.hasCheckedStatus = true
            if state.pendingStatus == status { state.pendingStatus = nil }
            return startLoad(
                for: status, isFirstCheck: isFirstCheck, locationServicesEnabled: locationServicesEnabled, in: &state
            )

        case .authorizationAnswered(let status):
            // `.notDetermined` means the bounded wait ended without an answer: no news, and never a
            // change to apply (it may even come after the stream brought the answer).
            guard status != .notDetermined else { return [] }
            // The request's return is one of the answer's two deliveries; the stream brings the other.
            return observe(status, in: &state)

        case .locationResult(let location):
            guard state.activity == .locating else { return [] }
            // US4-4: a revocation seen while the fix was on its way wins; the query goes without it.
            let usable = state.latestKnownStatus.isAuthorized ? location : nil
            state.currentLocation = usable
            // FR-008 with a location; FR-009/FR-014 without one.
            return startQuery(near: usable, in: &state)

        case .animalsLoaded(let animals):
            switch state.activity {
            case .querying(.some) where animals.isEmpty:
                // Nobody within the radius: a located listing is never empty while there are pets, so
                // the listing without coordinates follows, and the screen says why.
                begin(.queryingFallbackForNothingNearby, in: &state)
                return [.fetchAnimals(near: nil)]
            case .querying(let location):
                // FR-012: the listing shows when its query completes.
                state.listing = Listing(animals: animals, queriedNearLocation: location != nil)
            case .queryingFallbackForNothingNearby:
                state.listing = Listing(animals: animals, queriedNearLocation: false, isFallbackForNothingNearby: true)
            case .idle, .checkingStatus, .locating:
                return []
            }
            state.loadFailure = nil
            state.activity = .idle
            return applyPendingStatus(in: &state)

        case .animalsFailed(let reason):
            guard state.isQuerying else { return [] }
            // Earlier results stay; the error offers Retry.
            state.loadFailure = reason
            state.activity = .idle
            return applyPendingStatus(in: &state)

        case .popupSettingsTapped:
            guard state.isPopupPresented else { return [] }
            state.popup = nil
            return [.openSettings]  // FR-005

        case .popupCancelTapped:
            // FR-006: the query without coordinates already started behind the popup.
            state.popup = nil
            return []

        case .scenePhaseChanged(let phase):
            return scenePhaseChanged(to: phase, in: &state)

        case .statusChanged(let status):
            return observe(status, in: &state)

        case .retryTapped:
            guard state.hasAppeared, state.activity == .idle else { return [] }
            return startLoad(for: state.permissionStatus, isFirstCheck: false, in: &state)

        case .refreshRequested:
            guard state.hasCheckedStatus, state.activity == .idle else { return [] }
            return recheckAndLoad(in: &state)
        }
    }
}
