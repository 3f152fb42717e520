import AppFeature
import DeviceSimulator
import Foundation
import LocationService
import Permissions
import PetAPI
import PetSpotDomain
import StartupFeature

extension ScenarioRun {
    /// Turns what the simulated iPhone did into log lines (and tells the app about scene changes).
    func deviceRecorded(_ entry: DeviceLogEntry) {
        deviceEventCount += 1
        switch entry.event {
        case .appLaunched: log(.device, "appLaunched")
        case .appTerminated: log(.device, "appTerminated")
        case .sceneChanged(let from, let to):
            if let phase = AppScenePhase(rawValue: to.rawValue) { pendingPhases.append(phase) }
            if to == .background { log(.device, "appBackgrounded") }
            if from == .background, to == .inactive { log(.device, "appForegrounded") }
        case .systemAlertShown(let alert):
            log(.device, "systemAlertShown", [("alert", .string(Self.alertName(alert.kind)))])
        case .systemAlertDismissed(let alert):
            log(.device, "systemAlertDismissed", [("alert", .string(Self.alertName(alert.kind)))])
        case .settingsOpened: log(.device, "settingsOpened")
        case .settingChanged(let name, let value):
            log(.device, "settingChanged", [("setting", .string(name)), ("value", .string(value))])
        case .allowOnceExpired: log(.device, "allowOnceExpired")
        case .positionChanged(let hasFix): log(.device, "moved", [("fixPossible", .bool(hasFix))])
        case .requestIgnored(let request, let reason):
            log(.device, "requestIgnored", [("request", .string(request)), ("reason", .string(reason))])
        case .delegateCallback(_, .failed(let error)):
            lastLocationFailure = error.description
        case .delegateCallback(_, .locationsUpdated(let fixes)):
            // Rule 18: a fix older than the app's freshness bound is not the current location; if
            // the app then reports none, this is why.
            if let newest = fixes.last(where: { $0.horizontalAccuracy >= 0 }),
                !LocationService.Configuration().isFresh(fixTakenAt: newest.timestamp, now: entry.date)
            {
                lastLocationFailure = "staleFix"
            }
        case .systemAlertAnswered, .locationManagerCreated, .temporaryFullAccuracyExpired,
            .locationRequestStarted, .locationRequestCancelled, .delegateCallback, .subsystem:
            // Answers are logged by the step with the resulting status; the rest is plumbing.
            break
        }
    }

    /// Turns what the app did into log lines.
    func record(_ event: AppEvent) {
        switch event {
        case .screenAppeared: log(.app, "screenAppeared")
        case .permissionChecked(let status): log(.app, "permissionChecked", [("status", .string(status.rawValue))])
        case .permissionRequested: log(.app, "permissionRequested")
        case .permissionAnswered(let status):
            log(.app, "permissionAnswered", [("status", .string(status.rawValue))])
        case .permissionChanged(let status): log(.app, "permissionChanged", [("status", .string(status.rawValue))])
        case .permissionChangeDeferred(let status):
            log(.app, "permissionChangeDeferred", [("status", .string(status.rawValue))])
        case .locationRequested:
            lastLocationFailure = nil
            log(.app, "locationRequested")
        case .locationObtained:
            // What the server is sent: the fix rounded as the app rounds it before a query.
            if let location = viewModel?.currentLocation?.rounded(toDecimals: 2) {
                log(.app, "locationObtained", [("lat", .double(location.latitude)), ("lon", .double(location.longitude))])
            } else {
                log(.app, "locationObtained")
            }
        case .locationUnavailable:
            let reason = lastLocationFailure ?? (device.locationAuthorization.isAuthorized ? "timeout" : "notAuthorized")
            log(.app, "locationUnavailable", [("reason", .string(reason))])
        case .locationDroppedAfterRevocation:
            log(.app, "locationUnavailable", [("reason", .string("revoked"))])
        case .queryFinished(let count): log(.app, "queryFinished", [("count", .int(count))])
        case .queryFailed(let reason): log(.app, "queryFailed", [("message", .string(reason))])
        case .listingShown(let count, let withLocation):
            log(.app, "listingShown", [("count", .int(count)), ("withLocation", .bool(withLocation))])
            lines[lines.count - 1].preview = (viewModel?.animals ?? []).prefix(3).map(LogLine.PetPreview.init)
        case .customPopupShown(let reason): log(.app, "customPopupShown", [("reason", .string(reason.rawValue))])
        case .noPetsNearby: log(.app, "noPetsNearby")
        case .refreshRequested: log(.app, "refreshRequested")
        case .customPopupDismissed(let dismissal):
            log(.app, "customPopupDismissed", [("button", .string(dismissal.rawValue))])
        case .retryTapped: log(.app, "retryTapped")
        case .queryStarted:
            // Logged as the machine starts the query (never after a hop to another thread, which would
            // let the order of lines vary), with the path the app's HTTP client requests for it.
            let sent: UserLocation? = if case .querying(let location) = viewModel?.state.activity { location } else { nil }
            log(.app, "queryStarted", [("path", .string(AnimalRepository(baseURL: serverURL).requestPath(near: sent)))])
        case .settingsOpened, .scenePhaseChanged:
            // The device logs Settings and scene changes.
            break
        }
    }
}

extension ScenarioRun {
    /// Turns what the app model did (the permissions screen, the app-wide permission state) into log lines.
    func record(_ event: AppModelEvent) {
        switch event {
        case .permissionsScreenShown: log(.app, "permissionsScreenShown")
        case .permissionsScreenClosed: log(.app, "permissionsScreenClosed")
        case .permissionStateChanged(let permission, let state):
            log(.app, "permissionStateChanged", [("permission", .string(permission.logName)), ("state", .string(state.rawValue))])
        case .permissionRequestStarted(let permission):
            log(.app, "permissionRequestStarted", [("permission", .string(permission.logName))])
        case .permissionRequestFinished(let permission, let state):
            log(.app, "permissionRequestFinished", [
                ("permission", .string(permission.logName)), ("state", .string(state.rawValue)),
            ])
        case .permissionRequestRefused(let permission, let reason):
            log(.app, "permissionRequestRefused", [
                ("permission", .string(permission.logName)), ("reason", .string(reason.rawValue)),
            ])
        }
    }
}

extension LogLine.PetPreview {
    init(_ animal: Animal) {
        self.init(
            name: animal.name,
            species: animal.species.rawValue,
            breed: animal.breed,
            city: animal.shelter.city,
            distanceKm: animal.distanceKm
        )
    }
}
