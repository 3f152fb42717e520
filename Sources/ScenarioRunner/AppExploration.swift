import PetSpotDomain

/// Every sequence of a person's actions on both screens, up to a depth, played on the simulated iPhone
/// against the whole app (one location bridge under the startup screen and the permissions screen),
/// each run's event log checked against the app's invariants.
///
/// A sequence whose step cannot happen (answering an alert that is not up, opening Settings while
/// the app is in use) is not a sequence a person can play: it is dropped, and nothing is built on it.
public enum AppExploration {
    /// One thing a person can do.
    public static let actions: [Scenario.Action] = [
        .openPermissions,
        .tapPermission(.location, .allow),
        .tapPermission(.location, .allowAlways),
        .answerSystemAlert(.allowWhileUsing),
        .answerSystemAlert(.dontAllow),
        .answerSystemAlert(.changeToAlwaysAllow),
        .answerSystemAlert(.keepOnlyWhileUsing),
        .answerSystemAlert(.allowOnce),
        .closePermissions,
        .background,
        .foreground,
        .settings(Scenario.SettingsChange(authorization: .authorizedWhenInUse)),
        .settings(Scenario.SettingsChange(authorization: .denied)),
    ]

    /// The location permission the phone starts with, for each starting point.
    public static let starts: [LocationPermissionStatus] = [.notDetermined, .denied, .authorizedWhenInUse]

    /// The iOS versions every start is played on: 17 asks through the location manager's calls, 26
    /// through service sessions and live updates (18 takes the same path as 26).
    public static let iosVersions = [17, 26]

    /// How a sequence played: its actions after launch, and the invariant its log broke, if any.
    public struct Finding: Sendable, Equatable, CustomStringConvertible {
        public var start: LocationPermissionStatus
        public var iosVersion: Int
        public var actions: [Scenario.Action]
        public var broken: String

        public var description: String {
            let steps = actions.map(\.label).joined(separator: " → ")
            return "\(broken), from \(start.rawValue) on iOS \(iosVersion) after launch → \(steps)"
        }
    }

    /// What an exploration found.
    public struct Report: Sendable {
        /// Sequences played to the end (every step could happen).
        public var played = 0
        /// Sequences dropped because a step could not happen.
        public var impossible = 0
        /// Played sequences in which location was granted from the permissions screen: the story
        /// where the other screen must see the grant.
        public var grantsOnPermissionsScreen = 0
        public var findings: [Finding] = []
    }

    /// The scenario for `actions` after launch, one second apart, from `start`.
    public static func scenario(
        start: LocationPermissionStatus,
        iosVersion: Int = Scenario.Device.iosVersions.last ?? 26,
        actions: [Scenario.Action]
    ) -> Scenario {
        var device = Scenario.Device()
        device.authorization = start
        device.iosVersion = iosVersion
        let steps = [Scenario.Step(atMs: 0, action: .launch)]
            + actions.enumerated().map { Scenario.Step(atMs: 1000 * ($0.offset + 1), action: $0.element) }
        return Scenario(name: "exploration", device: device, steps: steps)
    }

    /// Plays every sequence of up to `depth` actions from every start on every iOS version, with `play`
    /// (which plays a batch of scenarios in order and returns their outcomes in order).
    public static func explore(
        depth: Int,
        play: ([Scenario]) async throws -> [ScenarioRun.Outcome]
    ) async rethrows -> Report {
        var report = Report()
        for start in starts {
            for iosVersion in iosVersions {
            var level: [[Scenario.Action]] = [[]]
            for _ in 0..<depth {
                let candidates = level.flatMap { prefix in actions.map { prefix + [$0] } }
                let outcomes = try await play(candidates.map { scenario(start: start, iosVersion: iosVersion, actions: $0) })
                level = []
                for (sequence, outcome) in zip(candidates, outcomes) {
                    if outcome.failure != nil {
                        report.impossible += 1
                        continue
                    }
                    report.played += 1
                    level.append(sequence)
                    if outcome.lines.contains(where: {
                        $0.event == "permissionRequestFinished" && $0["permission"] == "location" && $0["state"] == "authorized"
                    }) {
                        report.grantsOnPermissionsScreen += 1
                    }
                    if let broken = brokenInvariant(in: outcome.lines, start: start) {
                        report.findings.append(Finding(start: start, iosVersion: iosVersion, actions: sequence, broken: broken))
                    }
                }
            }
            }
        }
        return report
    }

    /// The first invariant `lines` breaks, if any:
    /// 1. no request is left waiting: every request the permissions screen started ends in the log;
    /// 2. no prompt is shown twice: once iOS's When-In-Use or Always alert was answered, it never shows
    ///    again (nothing here makes the status "not determined" again, and Always is asked once per
    ///    install); an alert iOS took away unanswered may show again;
    /// 3. a grant on either screen, or in Settings, is seen by the other: once the app is in use again,
    ///    the startup screen's status and the app-wide location state both agree with the phone's;
    /// 4. coordinates only while authorized: no location is obtained while the phone says otherwise;
    /// 5. the popup only with the first check: it appears with a launch's first status check or not at all.
    public static func brokenInvariant(in lines: [LogLine], start: LocationPermissionStatus) -> String? {
        var checksSinceLaunch = 0
        var waiting: [String: Int] = [:]
        var alertUp: String?
        var answered: Set<String> = []
        var phone = start
        var startupSees: LocationPermissionStatus?
        var appSees: String?
        var active = true
        for line in lines {
            switch (line.source, line.event) {
            case (.app, "permissionRequestStarted"):
                waiting[line["permission"] ?? "", default: 0] += 1
            case (.app, "permissionRequestFinished"), (.app, "permissionRequestRefused"):
                let permission = line["permission"] ?? ""
                guard let count = waiting[permission], count > 0 else { return "\(permission) request ended that never started" }
                waiting[permission] = count - 1
            case (.device, "systemAlertShown"):
                let alert = line["alert"] ?? ""
                if answered.contains(alert) { return "iOS's \(alert) alert shown again after it was answered" }
                alertUp = alert
            case (.device, "systemAlertDismissed"):
                alertUp = nil
            case (.device, "systemAlertAnswered"):
                if let alertUp { answered.insert(alertUp) }
                alertUp = nil
                if let status = line["status"].flatMap(LocationPermissionStatus.init(rawValue:)) { phone = status }
            case (.device, "settingChanged") where line["setting"] == "Location":
                phone = line["value"].flatMap(Self.status(settingsValue:)) ?? phone
            case (.device, "allowOnceExpired"):
                phone = .notDetermined
            case (.device, "appBackgrounded"):
                active = false
            case (.device, "appForegrounded"):
                active = true
            case (.device, "appLaunched"):
                checksSinceLaunch = 0
            case (.app, "locationObtained") where !phone.isAuthorized:
                return "a location was obtained while the phone says \(phone.rawValue)"
            case (.app, "customPopupShown") where checksSinceLaunch != 1:
                return "the popup showed with status check \(checksSinceLaunch) of its launch"
            case (.app, "permissionChecked"):
                checksSinceLaunch += 1
                startupSees = line["status"].flatMap(LocationPermissionStatus.init(rawValue:))
            case (.app, "permissionAnswered"), (.app, "permissionChanged"):
                startupSees = line["status"].flatMap(LocationPermissionStatus.init(rawValue:))
            case (.app, "permissionStateChanged") where line["permission"] == "location":
                appSees = line["state"]
            default:
                break
            }
        }
        if let (permission, count) = waiting.first(where: { $0.value > 0 }) {
            return "\(count) \(permission) request(s) left waiting"
        }
        guard active else { return nil }
        if let startupSees, startupSees != phone {
            return "the startup screen last saw \(startupSees.rawValue), the phone says \(phone.rawValue)"
        }
        let appState = appSees ?? Self.state(of: start)
        if appState != Self.state(of: phone) {
            return "the app-wide location state is \(appState), the phone says \(phone.rawValue)"
        }
        return nil
    }

    /// The status a Settings value sets (as `settingChanged` logs it for Location).
    static func status(settingsValue: String) -> LocationPermissionStatus? {
        switch settingsValue {
        case "never": .denied
        case "whileUsing": .authorizedWhenInUse
        case "always": .authorizedAlways
        case "askNextTime": .notDetermined
        default: nil
        }
    }

    /// The app-wide state's name for a status, as `permissionStateChanged` logs it.
    private static func state(of status: LocationPermissionStatus) -> String {
        switch status {
        case .authorizedWhenInUse, .authorizedAlways: "authorized"
        case .denied: "denied"
        case .restricted: "restricted"
        case .notDetermined: "notDetermined"
        }
    }
}

extension LogLine {
    /// The value of a string field, if the line has it.
    subscript(field: String) -> String? {
        for (name, value) in fields where name == field {
            if case .string(let string) = value { return string }
        }
        return nil
    }
}

extension Scenario.Action {
    /// A short label for a finding: the action and its argument.
    var label: String {
        switch self {
        case .tapPermission(let permission, let button): "tapPermission(\(permission.rawValue), \(button.rawValue))"
        case .answerSystemAlert(let choice): "answerSystemAlert(\(choice.rawValue))"
        case .settings(let change): "settings(\(change.authorization.map(\.rawValue) ?? "…"))"
        default: name
        }
    }
}
