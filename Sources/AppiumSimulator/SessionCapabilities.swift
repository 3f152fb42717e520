import Foundation
import Localization
import PetSpotDomain
import ScenarioRunner

/// What `POST /session` asks for, read from its W3C capabilities.
///
/// Required, as the Appium XCUITest driver takes them: `platformName` iOS, `appium:automationName`
/// XCUITest and `appium:bundleId` of the app. The phone's permissions come from
/// `appium:permissions` in that driver's format. The simulated iPhone has both apps of the package
/// installed, PetSpot and Paint My Town; `appium:bundleId` chooses the one the session drives; what only the simulated iPhone can set (the GPS, a
/// slow fix, Location Services, the network) comes from the vendor capabilities `petspot:device` and
/// `petspot:network`, objects in the scenario file's format (docs/scenarios.md).
struct SessionCapabilities: Equatable {
    /// The app `appium:bundleId` names.
    var app = Scenario.App.petspot
    var device = Scenario.Device()
    var network = Scenario.Network()
    var localizer = Localizer.english
    var autoLaunch = true
    /// What the session answers with: what was asked, as Appium echoes it.
    var echoed: [String: JSONValue] = [:]

    static let settingsBundleID = "com.apple.Preferences"
    /// The bundle identifiers of the apps installed, as an error message lists them.
    static let installed = Scenario.App.allCases.map { "'\($0.bundleIdentifier)'" }.joined(separator: " and ")

    /// Reads a `POST /session` body: each `firstMatch` entry merged with `alwaysMatch`; the first
    /// that is valid wins (W3C "Processing capabilities").
    static func parse(_ body: JSONValue) throws(WebDriverError) -> Self {
        guard let capabilities = body["capabilities"]?.object else {
            throw .invalidArgument("the body must have a 'capabilities' object with 'alwaysMatch' and/or 'firstMatch'")
        }
        let always = capabilities["alwaysMatch"]?.object ?? [:]
        let firsts = capabilities["firstMatch"]?.array?.compactMap(\.object) ?? [[:]]
        var firstError: WebDriverError?
        for first in firsts.isEmpty ? [[:]] : firsts {
            if let shared = first.keys.sorted().first(where: { always[$0] != nil }) {
                throw .invalidArgument("'\(shared)' is in both alwaysMatch and firstMatch")
            }
            let merged = always.merging(first) { old, _ in old }
            do {
                return try Self(merged)
            } catch {
                firstError = firstError ?? error
            }
        }
        throw firstError ?? WebDriverError("session not created", "no capabilities")
    }

    private init(_ caps: [String: JSONValue]) throws(WebDriverError) {
        echoed = caps
        guard caps["platformName"]?.string?.lowercased() == "ios" else {
            throw Self.notCreated("'platformName' must be 'iOS' (got \(Self.show(caps["platformName"])))")
        }
        guard caps["appium:automationName"]?.string?.lowercased() == "xcuitest" else {
            throw Self.notCreated("'appium:automationName' must be 'XCUITest' (got \(Self.show(caps["appium:automationName"])))")
        }
        guard let bundle = caps["appium:bundleId"]?.string else {
            throw Self.notCreated("'appium:bundleId' is required: the simulated iPhone has \(Self.installed) installed")
        }
        guard let app = Scenario.App(bundleIdentifier: bundle) else {
            throw Self.notCreated("the app '\(bundle)' is not installed on the simulated iPhone (it has \(Self.installed))")
        }
        self.app = app
        if let value = caps["appium:autoLaunch"] {
            guard let launch = value.bool else { throw Self.notCreated("'appium:autoLaunch' must be true or false") }
            autoLaunch = launch
        }
        if let value = caps["petspot:device"] {
            guard value.object != nil else { throw Self.notCreated("'petspot:device' must be an object in the scenario file's 'device' format") }
            do {
                device = try Scenario.Device.parse(value.encoded())
            } catch {
                throw Self.notCreated("'petspot:device' \(error)")
            }
        }
        if let value = caps["petspot:network"] {
            guard value.object != nil else { throw Self.notCreated("'petspot:network' must be an object in the scenario file's 'network' format") }
            do {
                network = try Scenario.Network.parse(value.encoded())
            } catch {
                throw Self.notCreated("'petspot:network' \(error)")
            }
        }
        if let value = caps["appium:permissions"] {
            try applyPermissions(value)
        }
        localizer = try Self.localizer(language: caps["appium:language"], locale: caps["appium:locale"])
    }

    /// `appium:permissions`: a JSON string (as the XCUITest driver takes it), bundle id → service → value.
    private mutating func applyPermissions(_ value: JSONValue) throws(WebDriverError) {
        guard let text = value.string else {
            throw Self.notCreated("'appium:permissions' must be a JSON string such as '{\"\(app.bundleIdentifier)\": {\"location\": \"inuse\"}}'")
        }
        let parsed: JSONValue
        do {
            parsed = try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        } catch {
            throw Self.notCreated("'appium:permissions' is not valid JSON: \(text)")
        }
        guard let byBundle = parsed.object else { throw Self.notCreated("'appium:permissions' must map bundle ids to objects") }
        for (bundle, services) in byBundle.sorted(by: { $0.key < $1.key }) {
            guard bundle == app.bundleIdentifier else {
                throw Self.notCreated("'appium:permissions' names '\(bundle)', not the session's app '\(app.bundleIdentifier)'")
            }
            guard let services = services.object else {
                throw Self.notCreated("'appium:permissions'.\(bundle) must map services to values")
            }
            do throws(WebDriverError) {
                for (service, setting) in services.sorted(by: { $0.key < $1.key }) {
                    guard let setting = setting.string else {
                        throw WebDriverError.invalidArgument("'\(service)' must be a string")
                    }
                    try PermissionSetting.apply(service: service, value: setting, to: &device)
                }
            } catch {
                throw Self.notCreated("'appium:permissions': \(error.message)")
            }
        }
    }

    private static func localizer(language: JSONValue?, locale: JSONValue?) throws(WebDriverError) -> Localizer {
        // `appium:locale` is written the iOS way (en_US); a tag is en-US.
        let region = locale?.string?.split(separator: "_").dropFirst().first.map(String.init)
        let base = language?.string ?? locale?.string?.split(separator: "_").first.map(String.init)
        guard let base else { return .english }
        let tag = region.map { "\(base)-\($0)" } ?? base
        do {
            return try Localizer(tag: tag)
        } catch {
            do {
                return try Localizer(tag: base)
            } catch {
                throw notCreated("'appium:language' '\(base)' is not a language the app speaks: \(error)")
            }
        }
    }

    private static func notCreated(_ message: String) -> WebDriverError {
        WebDriverError("session not created", message)
    }

    private static func show(_ value: JSONValue?) -> String {
        value.map { String(decoding: $0.encoded(), as: UTF8.self) } ?? "nothing"
    }
}

/// A permission as the XCUITest driver names it for the simulator (`location`: always | inuse |
/// never | unset, or yes | no | unset; `location-always`, `motion`, `health`: yes | no | unset).
enum PermissionSetting {
    /// The services PetSpot uses; the driver's others (camera, photos, …) are accepted and change nothing.
    static let otherServices: Set<String> = [
        "calendar", "camera", "contacts", "faceid", "homekit", "medialibrary", "microphone", "notifications", "photos",
        "reminders", "siri", "speech", "userTracking",
    ]

    /// `location`: the applesimutils values older XCUITest drivers pass (always | inuse | never | unset),
    /// or `simctl privacy`'s that current ones pass (yes — While Using — | no | unset).
    static func location(_ value: String) throws(WebDriverError) -> LocationPermissionStatus {
        switch value.lowercased() {
        case "always": .authorizedAlways
        case "inuse", "yes": .authorizedWhenInUse
        case "never", "no": .denied
        case "unset": .notDetermined
        default: throw .invalidArgument("location must be one of always | inuse | never | yes | no | unset (got '\(value)')")
        }
    }

    /// `location-always`, `simctl privacy`'s service for Always (yes | no | unset).
    static func locationAlways(_ value: String) throws(WebDriverError) -> LocationPermissionStatus {
        switch value.lowercased() {
        case "yes": .authorizedAlways
        case "no": .denied
        case "unset": .notDetermined
        default: throw .invalidArgument("location-always must be one of yes | no | unset (got '\(value)')")
        }
    }

    static func motion(_ value: String) throws(WebDriverError) -> Scenario.MotionState {
        switch value.lowercased() {
        case "yes": .authorized
        case "no": .denied
        case "unset": .notDetermined
        default: throw .invalidArgument("motion must be one of yes | no | unset (got '\(value)')")
        }
    }

    static func health(_ value: String) throws(WebDriverError) -> Scenario.HealthState {
        switch value.lowercased() {
        case "yes": .sharingAuthorized
        case "no": .sharingDenied
        case "unset": .notDetermined
        default: throw .invalidArgument("health must be one of yes | no | unset (got '\(value)')")
        }
    }

    static func apply(service: String, value: String, to device: inout Scenario.Device) throws(WebDriverError) {
        switch service {
        case "location": device.authorization = try location(value)
        case "location-always": device.authorization = try locationAlways(value)
        case "motion": device.motion = try motion(value)
        case "health": device.health = try health(value)
        default:
            guard otherServices.contains(service) else {
                throw .invalidArgument("'\(service)' is not a service the XCUITest driver knows")
            }
        }
    }

    /// The Settings change `mobile: setPermission` makes.
    static func change(_ access: [String: JSONValue]) throws(WebDriverError) -> Scenario.SettingsChange {
        var change = Scenario.SettingsChange()
        for (service, value) in access.sorted(by: { $0.key < $1.key }) {
            guard let value = value.string else { throw .invalidArgument("access.\(service) must be a string") }
            switch service {
            case "location": change.authorization = try location(value)
            case "location-always": change.authorization = try locationAlways(value)
            case "motion": change.motion = try motion(value)
            case "health": change.health = try health(value)
            default:
                guard otherServices.contains(service) else {
                    throw .invalidArgument("access.\(service) is not a service the XCUITest driver knows")
                }
            }
        }
        return change
    }
}
