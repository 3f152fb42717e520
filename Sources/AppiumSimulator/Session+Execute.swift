import DeviceSimulator
import Foundation
import PetSpotDomain
import ScenarioRunner
import StartupFeature

private typealias ListIdentifiers = AccessibilityIdentifiers.AnimalList

/// `POST /session/{id}/execute/sync` with `mobile:` commands of the XCUITest driver, and the
/// simulated iPhone's own `petspot:` commands for what no real phone lets a test change.
extension Session {
    func execute(_ request: JSONValue) async throws(WebDriverError) -> JSONValue {
        guard let script = request["script"]?.string else { throw .invalidArgument("'script' must be a string") }
        let argument: [String: JSONValue]
        switch request["args"] {
        case nil, .null?: argument = [:]
        case .array(let args)?:
            guard let first = args.first else {
                argument = [:]
                break
            }
            guard let object = first.object else { throw .invalidArgument("args[0] of '\(script)' must be an object") }
            argument = object
        default: throw .invalidArgument("'args' must be an array")
        }
        let name = script.trimmingCharacters(in: .whitespaces)
        switch name {
        case "mobile: alert": return try await alert(argument)
        case "mobile: activateApp", "mobile: launchApp": return try await activate(try bundle(argument))
        case "mobile: terminateApp": return try await terminate(try bundle(argument))
        case "mobile: queryAppState":
            guard let bundle = argument["bundleId"]?.string else { throw .invalidArgument("'bundleId' must be a string") }
            return .int(appState(bundle))
        case "mobile: backgroundApp": return try await background(argument)
        case "mobile: setSimulatedLocation":
            let latitude = try Self.number(argument, "latitude", in: -90...90)
            let longitude = try Self.number(argument, "longitude", in: -180...180)
            try await act(.moveTo(Scenario.Coordinate(lat: latitude, lon: longitude)))
            return .null
        case "mobile: getSimulatedLocation":
            guard let position = run.position else {
                return .object(["latitude": .null, "longitude": .null, "altitude": .null])
            }
            return .object(["latitude": .number(position.latitude), "longitude": .number(position.longitude), "altitude": .null])
        case "mobile: setPermission":
            _ = try bundle(argument, accepting: [bundleID])
            guard let access = argument["access"]?.object, !access.isEmpty else {
                throw .invalidArgument("'access' must map services to values, such as {\"location\": \"inuse\"}")
            }
            try await act(.settings(try PermissionSetting.change(access)))
            return .null
        case "mobile: getPermission":
            _ = try bundle(argument, accepting: [bundleID])
            guard let service = argument["service"]?.string else { throw .invalidArgument("'service' must be a string") }
            return .string(try permission(service))
        case "mobile: swipe":
            return try await swipe(argument)
        case "petspot: setNetwork":
            var change = Scenario.NetworkChange()
            if let value = argument["reachable"] {
                guard let reachable = value.bool else { throw .invalidArgument("'reachable' must be true or false") }
                change.reachable = reachable
            }
            if argument["latencyMs"] != nil {
                change.latencyMs = Int(try Self.number(argument, "latencyMs", in: 0...60_000))
            }
            guard change.reachable != nil || change.latencyMs != nil else {
                throw .invalidArgument("give 'reachable' and/or 'latencyMs'")
            }
            try await act(.network(change))
            return .null
        case "petspot: setLocationServices":
            guard let enabled = argument["enabled"]?.bool else { throw .invalidArgument("'enabled' must be true or false") }
            try await act(.settings(Scenario.SettingsChange(locationServicesEnabled: enabled)))
            return .null
        case "petspot: eventLog":
            return .array(run.eventLog.map { .string($0.textLine) })
        default:
            guard name.hasPrefix("mobile:") || name.hasPrefix("petspot:") else {
                throw WebDriverError("unsupported operation", "the simulated iPhone runs no scripts; only 'mobile:' and 'petspot:' commands (got '\(script)')")
            }
            throw WebDriverError("unsupported operation", "Unsupported execute method '\(name)'. Available methods are: \(Self.commands.joined(separator: ", "))")
        }
    }

    static let commands = [
        "mobile: alert", "mobile: activateApp", "mobile: launchApp", "mobile: terminateApp", "mobile: queryAppState",
        "mobile: backgroundApp", "mobile: setSimulatedLocation", "mobile: getSimulatedLocation", "mobile: setPermission",
        "mobile: getPermission", "mobile: swipe", "petspot: setNetwork", "petspot: setLocationServices", "petspot: eventLog",
    ]

    private func alert(_ argument: [String: JSONValue]) async throws(WebDriverError) -> JSONValue {
        guard let action = argument["action"]?.string else { throw .invalidArgument("'action' must be accept, dismiss or getButtons") }
        let label = argument["buttonLabel"]?.string
        switch action {
        case "accept":
            try await answerAlert(accept: true, label: label)
            return .null
        case "dismiss":
            try await answerAlert(accept: false, label: label)
            return .null
        case "getButtons":
            guard let alert = run.screen.children.first(where: { $0.kind == .alert }) else { throw .noSuchAlert }
            return .array(alert.children.filter { $0.kind == .button }.map { .string($0.label) })
        default:
            throw .invalidArgument("'action' must be accept, dismiss or getButtons (got '\(action)')")
        }
    }

    /// A swipe down on the listing pulls it to refresh; any other swipe moves nothing PetSpot reacts to.
    private func swipe(_ argument: [String: JSONValue]) async throws(WebDriverError) -> JSONValue {
        guard let direction = argument["direction"]?.string, ["up", "down", "left", "right"].contains(direction) else {
            throw .invalidArgument("'direction' must be up, down, left or right")
        }
        let target = try argument["elementId"]?.string.map { id throws(WebDriverError) in try element(id) }
        let onList = target.map { $0.identifier == ListIdentifiers.list } ?? true
        guard direction == "down", onList, run.screen.allElements.contains(where: { $0.identifier == ListIdentifiers.list }) else {
            return .null
        }
        // The pull does nothing while a load is under way, as on the phone.
        try? await run.act(.refresh)
        return .null
    }

    /// The `bundleId` argument, one of `accepting` (by default the session's app and Settings).
    private func bundle(_ argument: [String: JSONValue], accepting given: [String]? = nil) throws(WebDriverError) -> String {
        let accepting = given ?? [bundleID, SessionCapabilities.settingsBundleID]
        guard let bundle = argument["bundleId"]?.string else { throw .invalidArgument("'bundleId' must be a string") }
        if !accepting.contains(bundle), Scenario.App(bundleIdentifier: bundle) != nil {
            throw WebDriverError(
                "unknown error",
                "this session drives '\(bundleID)'; '\(bundle)' is installed too, but a session drives one app: start one with appium:bundleId '\(bundle)'"
            )
        }
        guard accepting.contains(bundle) else {
            throw WebDriverError("unknown error", "The application '\(bundle)' is not installed on the simulated iPhone (it has \(accepting.joined(separator: ", ")))")
        }
        return bundle
    }

    /// XCUITest's app states: 0 not installed, 1 not running, 3 running in the background, 4 running
    /// in the foreground (a real phone soon reports a background app as 2, suspended).
    private func appState(_ bundle: String) -> Int {
        if bundle == SessionCapabilities.settingsBundleID {
            return run.frontmost == .settings ? 4 : (run.settingsHasRun ? 3 : 1)
        }
        // The other app of the package is installed, and never runs in this session.
        guard bundle == bundleID else { return Scenario.App(bundleIdentifier: bundle) == nil ? 0 : 1 }
        switch run.appProcess {
        case .notRunning: return 1
        case .background: return 3
        case .inactive, .active: return run.frontmost == .installedApp ? 4 : 3
        }
    }

    private func activate(_ bundle: String) async throws(WebDriverError) -> JSONValue {
        if bundle == SessionCapabilities.settingsBundleID {
            do {
                try await run.switchToSettings()
            } catch {
                throw WebDriverError("unknown error", error.description)
            }
            return .null
        }
        switch run.appProcess {
        case .notRunning:
            run.leaveSettings()
            try await launch()
        case .background:
            run.leaveSettings()
            try await act(.foreground)
        case .inactive, .active:
            break
        }
        return .null
    }

    private func terminate(_ bundle: String) async throws(WebDriverError) -> JSONValue {
        if bundle == SessionCapabilities.settingsBundleID {
            let wasRunning = run.frontmost == .settings
            run.leaveSettings()
            return .bool(wasRunning)
        }
        guard run.appProcess != .notRunning else { return .bool(false) }
        try await act(.terminate)
        return .bool(true)
    }

    /// `seconds` below zero (or absent) leaves the app in the background; otherwise it comes back after that long.
    private func background(_ argument: [String: JSONValue]) async throws(WebDriverError) -> JSONValue {
        let seconds = argument["seconds"] == nil || argument["seconds"] == .null ? -1 : try Self.number(argument, "seconds", in: -1...300)
        try await act(.background)
        guard seconds >= 0 else { return .null }
        await wait(.milliseconds(Int(seconds * 1000)))
        try await act(.foreground)
        return .null
    }

    private func permission(_ service: String) throws(WebDriverError) -> String {
        switch service {
        case "location":
            switch run.locationAuthorization {
            case .authorizedAlways: return "always"
            case .authorizedWhenInUse: return "inuse"
            case .denied, .restricted: return "never"
            case .notDetermined: return "unset"
            @unknown default: return "unset"
            }
        default:
            throw .invalidArgument("the simulated iPhone reports 'location' only (got '\(service)')")
        }
    }

    private static func number(_ argument: [String: JSONValue], _ key: String, in range: ClosedRange<Double>) throws(WebDriverError) -> Double {
        guard let value = argument[key]?.number, value.isFinite else { throw .invalidArgument("'\(key)' must be a number") }
        guard range.contains(value) else {
            // A coordinate is never repeated back: error bodies end up in test reports.
            let got = ["latitude", "longitude"].contains(key) ? "" : " (got \(value))"
            throw .invalidArgument("'\(key)' must be between \(range.lowerBound) and \(range.upperBound)\(got)")
        }
        return value
    }
}
