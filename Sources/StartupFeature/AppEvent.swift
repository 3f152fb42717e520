import PetSpotDomain

/// What happened on the startup screen, for an event log. Never carries coordinates.
public enum AppEvent: Equatable, Sendable {
    /// How the custom popup went away.
    public enum PopupDismissal: String, Equatable, Sendable {
        case goToSettings
        case cancel
        /// Permission was granted while it was up, so it closed itself.
        case permissionGranted
        /// The status it explained changed otherwise (back to "not determined", say), so it closed itself.
        case statusChanged
    }

    case screenAppeared
    case scenePhaseChanged(AppScenePhase)
    case permissionChecked(LocationPermissionStatus)
    case permissionRequested
    case permissionAnswered(LocationPermissionStatus)
    case permissionChanged(LocationPermissionStatus)
    /// FR-015: a change seen while a step ran; applied when it ends.
    case permissionChangeDeferred(LocationPermissionStatus)
    case locationRequested
    case locationObtained
    case locationUnavailable
    /// A fix came, but location was no longer allowed by then (US4-4): it is not used.
    case locationDroppedAfterRevocation
    case queryStarted(withLocation: Bool)
    case queryFinished(count: Int)
    case queryFailed(reason: String)
    case listingShown(count: Int, withLocation: Bool)
    /// The query near the person found nobody within the radius; the listing without coordinates follows.
    case noPetsNearby
    case customPopupShown(reason: PermissionPopupReason)
    case customPopupDismissed(PopupDismissal)
    case settingsOpened
    case retryTapped
    /// Pull to refresh started a load.
    case refreshRequested

    /// The log lines for one step of ``StartupMachine``: what the event did, then what it started.
    public static func describing(
        _ event: StartupMachine.Event,
        before: StartupMachine.State,
        after: StartupMachine.State,
        effects: [StartupMachine.Effect]
    ) -> [AppEvent] {
        var log: [AppEvent] = []
        switch event {
        case .screenAppeared:
            if !before.hasAppeared { log.append(.screenAppeared) }
        case .scenePhaseChanged(let phase):
            log.append(.scenePhaseChanged(phase))
        case .statusChecked(let status, _):
            log.append(.permissionChecked(status))
        case .authorizationAnswered(let status), .statusChanged(let status):
            // The answer to iOS's alert is logged once, from whichever delivery came first; the
            // request's return is logged even when it brings no answer (`.notDetermined`).
            let isRequestReturn = if case .authorizationAnswered = event { true } else { false }
            if before.isAwaitingAuthorizationAnswer, isRequestReturn || !after.isAwaitingAuthorizationAnswer {
                log.append(.permissionAnswered(status))
            } else if after.permissionStatus != before.permissionStatus || after.pendingStatus != before.pendingStatus {
                log.append(.permissionChanged(status))
            }
        case .locationResult(let location):
            if before.activity == .locating {
                if location == nil {
                    log.append(.locationUnavailable)
                } else {
                    log.append(after.currentLocation == nil ? .locationDroppedAfterRevocation : .locationObtained)
                }
            }
        case .animalsLoaded(let animals):
            if before.isQuerying { log.append(.queryFinished(count: animals.count)) }
            if after.activity == .queryingFallbackForNothingNearby {
                log.append(.noPetsNearby)
            } else if before.isQuerying, let listing = after.listing {
                log.append(.listingShown(count: animals.count, withLocation: listing.queriedNearLocation))
            }
        case .animalsFailed(let reason):
            if before.isQuerying { log.append(.queryFailed(reason: reason)) }
        case .popupSettingsTapped:
            if before.isPopupPresented { log.append(.customPopupDismissed(.goToSettings)) }
        case .popupCancelTapped:
            if before.isPopupPresented { log.append(.customPopupDismissed(.cancel)) }
        case .retryTapped:
            if !effects.isEmpty { log.append(.retryTapped) }
        case .refreshRequested:
            if !effects.isEmpty { log.append(.refreshRequested) }
        }
        if let pending = after.pendingStatus, pending != before.pendingStatus {
            log.append(.permissionChangeDeferred(pending))
        }
        if !before.isPopupPresented, let reason = after.popup {
            log.append(.customPopupShown(reason: reason))
        }
        let tapped = event == .popupSettingsTapped || event == .popupCancelTapped
        if before.isPopupPresented, !after.isPopupPresented, !tapped {
            log.append(.customPopupDismissed(after.permissionStatus.isAuthorized ? .permissionGranted : .statusChanged))
        }
        for effect in effects {
            switch effect {
            case .checkStatus, .observeStatusChanges: break
            case .requestAuthorization: log.append(.permissionRequested)
            case .requestLocation: log.append(.locationRequested)
            case .fetchAnimals(let location): log.append(.queryStarted(withLocation: location != nil))
            case .openSettings: log.append(.settingsOpened)
            }
        }
        return log
    }
}
