import DeviceInterfaces
import Foundation
import PetSpotDomain

/// Something that happened on the simulated device, as a scenario driver prints it.
public enum DeviceEvent: Sendable, Equatable {
    case appLaunched
    case appTerminated
    /// iOS ended the app in the background to reclaim its memory, telling it nothing (rule 35).
    case appReclaimed
    /// iOS launched the app into the background for a location event (rule 35).
    case appLaunchedInBackground(reason: String)
    case sceneChanged(from: ScenePhase, to: ScenePhase)
    case locationManagerCreated(manager: Int)
    case systemAlertShown(SystemAlert)
    case systemAlertAnswered(SystemAlert, SystemAlertButton)
    /// The alert went away without an answer because the app left the foreground.
    case systemAlertDismissed(SystemAlert)
    case settingsOpened
    /// A switch changed in Settings (or by device management): `name` and its new `value`.
    case settingChanged(name: String, value: String)
    /// An "Allow Once" grant lapsed (rule 5).
    case allowOnceExpired
    /// A temporary full-accuracy grant lapsed with the app's use (rule 12).
    case temporaryFullAccuracyExpired
    /// The phone moved (the coordinate is deliberately not part of the event).
    case positionChanged(hasFix: Bool)
    case locationRequestStarted(manager: Int)
    case locationRequestCancelled(manager: Int)
    /// An app call that iOS silently ignores, with the reason (useful when reading a log).
    case requestIgnored(request: String, reason: String)
    /// A delegate callback handed to a location manager.
    case delegateCallback(manager: Int, LocationManagerEvent)
    /// iOS 18: the app made a `CLServiceSession` with this goal (rule 31).
    case serviceSessionStarted(session: Int, ServiceSessionAuthorization)
    case serviceSessionInvalidated(session: Int)
    /// A session's diagnostics changed to these.
    case serviceSessionDiagnostics(session: Int, Set<LocationDiagnostic>)
    /// iOS 18: the app began or stopped reading `CLLocationUpdate.liveUpdates()` (rule 30).
    case liveUpdatesStarted(stream: Int)
    case liveUpdatesStopped(stream: Int)
    /// One live update handed to the app (its coordinate is deliberately not part of the event).
    case liveUpdate(stream: Int, LocationUpdate)
    /// An event of another simulated subsystem (Motion, HealthKit), added in its own file.
    case subsystem(name: String, detail: String)
}

/// One line of the device log: an event and the virtual time it happened.
public struct DeviceLogEntry: Sendable, Equatable, CustomStringConvertible {
    /// Virtual time since the device started.
    public var elapsed: Duration
    /// The virtual wall-clock date (configuration epoch + elapsed).
    public var date: Date
    public var event: DeviceEvent

    public init(elapsed: Duration, date: Date, event: DeviceEvent) {
        self.elapsed = elapsed
        self.date = date
        self.event = event
    }

    /// A stable, coordinate-free rendering: `[+2.000s] delegateCallback #1 locationsUpdated(1 fix, ±5m)`.
    public var description: String {
        "[+\(elapsed.secondsText)] \(Self.describe(event))"
    }

    static func describe(_ event: DeviceEvent) -> String {
        switch event {
        case .appLaunched: "appLaunched"
        case .appTerminated: "appTerminated"
        case .appReclaimed: "appReclaimed"
        case .appLaunchedInBackground(let reason): "appLaunchedInBackground (\(reason))"
        case .sceneChanged(let from, let to): "sceneChanged \(from.rawValue) -> \(to.rawValue)"
        case .locationManagerCreated(let id): "locationManagerCreated #\(id)"
        case .systemAlertShown(let alert): "systemAlertShown \(alert)"
        case .systemAlertAnswered(let alert, let button): "systemAlertAnswered \(alert.kind): \(button)"
        case .systemAlertDismissed(let alert): "systemAlertDismissed \(alert.kind)"
        case .settingsOpened: "settingsOpened"
        case .settingChanged(let name, let value): "settingChanged \(name) = \(value)"
        case .allowOnceExpired: "allowOnceExpired"
        case .temporaryFullAccuracyExpired: "temporaryFullAccuracyExpired"
        case .positionChanged(let hasFix): "positionChanged (\(hasFix ? "fix possible" : "no fix possible"))"
        case .locationRequestStarted(let id): "locationRequestStarted #\(id)"
        case .locationRequestCancelled(let id): "locationRequestCancelled #\(id)"
        case .requestIgnored(let request, let reason): "requestIgnored \(request): \(reason)"
        case .delegateCallback(let id, let callback): "delegateCallback #\(id) \(describe(callback))"
        case .subsystem(let name, let detail): "\(name) \(detail)"
        case .serviceSessionStarted(let id, let authorization): "serviceSessionStarted #\(id) \(authorization.rawValue)"
        case .serviceSessionInvalidated(let id): "serviceSessionInvalidated #\(id)"
        case .serviceSessionDiagnostics(let id, let diagnostics):
            "serviceSessionDiagnostics #\(id) \(describe(diagnostics))"
        case .liveUpdatesStarted(let id): "liveUpdatesStarted #\(id)"
        case .liveUpdatesStopped(let id): "liveUpdatesStopped #\(id)"
        case .liveUpdate(let id, let update):
            "liveUpdate #\(id) "
                + (update.location.map { "fix(±\(Int($0.horizontalAccuracy.rounded()))m) " } ?? "")
                + describe(update.diagnostics)
        }
    }

    /// `[authorizationDenied, insufficientlyInUse]`, in CoreLocation's declaration order.
    static func describe(_ diagnostics: Set<LocationDiagnostic>) -> String {
        "[" + diagnostics.sorted().map(\.rawValue).joined(separator: ", ") + "]"
    }

    static func describe(_ callback: LocationManagerEvent) -> String {
        switch callback {
        case .authorizationChanged(let status, let accuracy):
            "authorizationChanged(\(status.rawValue), \(accuracy.rawValue))"
        case .locationsUpdated(let fixes):
            "locationsUpdated(\(fixes.count) fix\(fixes.count == 1 ? "" : "es")"
                + (fixes.last.map { ", ±\(Int($0.horizontalAccuracy.rounded()))m" } ?? "") + ")"
        case .failed(let error):
            "failed(\(error))"
        case .fixUnavailable(let diagnostic):
            "fixUnavailable(\(diagnostic.rawValue))"
        }
    }
}
