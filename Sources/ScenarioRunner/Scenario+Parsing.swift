import DeviceInterfaces
import DeviceSimulator
import Foundation
import PetSpotDomain

extension Scenario {
    /// Reads a scenario file. Every problem is reported with its JSON path.
    public static func parse(_ data: Data) throws(ScenarioFileError) -> Scenario {
        let root = try JSONCursor.parse(data)
        let object = try root.object(known: ["name", "app", "device", "network", "steps"])
        let name = try object.required("name", of: root).string()
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ScenarioFileError(path: JSONPath.root.appending("name").description, message: "must not be empty")
        }
        let app = try object.member("app", of: root)?.oneOf(App.self) ?? .petspot
        let deviceCursor = object.member("device", of: root)
        let device = try deviceCursor.map(Device.parse) ?? Device()
        if app == .petspot, device.walk != nil, let deviceCursor {
            throw ScenarioFileError(
                path: deviceCursor.path.appending("walk").description,
                message: "PetSpot records no walks: a walk needs \"app\": \"paintmytown\""
            )
        }
        let network = try object.member("network", of: root).map(Network.parse) ?? Network()
        let stepsCursor = try object.required("steps", of: root)
        var steps: [Step] = []
        for cursor in try stepsCursor.array() {
            let step = try Step.parse(cursor)
            if let previous = steps.last, step.atMs < previous.atMs {
                throw ScenarioFileError(
                    path: cursor.path.appending("atMs").description,
                    message: "steps must be in time order: \(step.atMs) comes after \(previous.atMs)"
                )
            }
            steps.append(step)
        }
        guard !steps.isEmpty else { throw stepsCursor.fail("needs at least one step") }
        return Scenario(name: name, app: app, device: device, network: network, steps: steps)
    }
}

extension Scenario.Device {
    static func parse(_ cursor: JSONCursor) throws(ScenarioFileError) -> Self {
        let object = try cursor.object(known: [
            "authorization", "locationServicesEnabled", "preciseLocation", "infoPlistHasWhenInUseKey",
            "position", "fixDelayMs", "coarseFixDelayMs", "cachedFix", "motion", "health", "infoPlistHasMotionKey",
            "infoPlistHasHealthKeys", "infoPlistHasAlwaysKey", "infoPlistRequiresExplicitServiceSession", "iosVersion",
            "walk",
        ])
        var device = Self()
        if let value = object.member("authorization", of: cursor) {
            device.authorization = try value.oneOf(LocationPermissionStatus.self)
        }
        if let value = object.member("locationServicesEnabled", of: cursor) {
            device.locationServicesEnabled = try value.bool()
        }
        if let value = object.member("preciseLocation", of: cursor) { device.preciseLocation = try value.bool() }
        if let value = object.member("infoPlistHasWhenInUseKey", of: cursor) {
            device.infoPlistHasWhenInUseKey = try value.bool()
        }
        if let value = object.member("motion", of: cursor) { device.motion = try value.oneOf(Scenario.MotionState.self) }
        if let value = object.member("health", of: cursor) { device.health = try value.oneOf(Scenario.HealthState.self) }
        if let value = object.member("infoPlistHasMotionKey", of: cursor) { device.infoPlistHasMotionKey = try value.bool() }
        if let value = object.member("infoPlistHasHealthKeys", of: cursor) {
            device.infoPlistHasHealthKeys = try value.bool()
        }
        if let value = object.member("infoPlistHasAlwaysKey", of: cursor) { device.infoPlistHasAlwaysKey = try value.bool() }
        if let value = object.member("infoPlistRequiresExplicitServiceSession", of: cursor) {
            device.infoPlistRequiresExplicitServiceSession = try value.bool()
        }
        if let value = object.member("iosVersion", of: cursor) {
            let version = try value.integer(in: 0...1_000)
            guard DeviceConfiguration.iosVersions.contains(version) else {
                throw value.fail("iOS \(version) is not simulated; use one of \(DeviceConfiguration.iosVersions.map(String.init).joined(separator: ", "))")
            }
            device.iosVersion = version
        }
        if let value = object.member("position", of: cursor) {
            device.position = value.isNull ? nil : try Scenario.Coordinate.parse(value)
        }
        if let value = object.member("fixDelayMs", of: cursor) {
            device.fixDelayMs = try value.integer(in: 0...600_000)
        }
        if let value = object.member("coarseFixDelayMs", of: cursor) {
            device.coarseFixDelayMs = try value.integer(in: 0...600_000)
        }
        if let value = object.member("walk", of: cursor), !value.isNull {
            device.walk = try Scenario.Walk.parse(value)
        }
        if let value = object.member("cachedFix", of: cursor), !value.isNull {
            let known: Set<String> = ["lat", "lon", "ageMs", "deliveredOnRequest"]
            let fix = try value.object(known: known)
            device.cachedFix = Scenario.CachedFix(
                position: try Scenario.Coordinate.parse(value, known: known),
                ageMs: try fix.required("ageMs", of: value).integer(in: 0...31_536_000_000),
                deliveredOnRequest: try fix.member("deliveredOnRequest", of: value)?.bool() ?? false
            )
        }
        return device
    }
}

extension Scenario.Coordinate {
    static func parse(_ cursor: JSONCursor) throws(ScenarioFileError) -> Self {
        try parse(cursor, known: ["lat", "lon"])
    }

    static func parse(_ cursor: JSONCursor, known: Set<String>) throws(ScenarioFileError) -> Self {
        let object = try cursor.object(known: known)
        let latCursor = try object.required("lat", of: cursor)
        let lonCursor = try object.required("lon", of: cursor)
        let lat = try latCursor.double()
        let lon = try lonCursor.double()
        guard (-90.0...90.0).contains(lat) else { throw latCursor.fail("latitude \(lat) is not between -90 and 90") }
        guard (-180.0...180.0).contains(lon) else {
            throw lonCursor.fail("longitude \(lon) is not between -180 and 180")
        }
        return Self(lat: lat, lon: lon)
    }
}

extension Scenario.Walk {
    static func parse(_ cursor: JSONCursor) throws(ScenarioFileError) -> Self {
        let object = try cursor.object(known: ["path", "speedMps", "activity"])
        let pathCursor = try object.required("path", of: cursor)
        var path: [Scenario.Coordinate] = []
        for point in try pathCursor.array() {
            let pair = try point.array()
            guard pair.count == 2 else { throw point.fail("a point is [lat, lon]: 2 numbers, not \(pair.count)") }
            let lat = try pair[0].double()
            let lon = try pair[1].double()
            guard (-90.0...90.0).contains(lat) else { throw pair[0].fail("latitude \(lat) is not between -90 and 90") }
            guard (-180.0...180.0).contains(lon) else { throw pair[1].fail("longitude \(lon) is not between -180 and 180") }
            path.append(Scenario.Coordinate(lat: lat, lon: lon))
        }
        guard path.count >= 2 else { throw pathCursor.fail("a walk's path needs at least 2 points") }
        var walk = Self(path: path)
        if let value = object.member("speedMps", of: cursor) {
            let speed = try value.double()
            guard (0.1...10).contains(speed) else { throw value.fail("a walking speed of \(speed) m/s is not between 0.1 and 10") }
            walk.speedMps = speed
        }
        if let value = object.member("activity", of: cursor) {
            for entry in try value.array() {
                let change = try entry.object(known: ["atMs", "kind"])
                let atCursor = try change.required("atMs", of: entry)
                let atMs = try atCursor.integer(in: 0...86_400_000)
                if let previous = walk.activity.last, atMs < previous.atMs {
                    throw atCursor.fail("activity changes must be in time order: \(atMs) comes after \(previous.atMs)")
                }
                walk.activity.append(Scenario.ActivityChange(
                    atMs: atMs, kind: try change.required("kind", of: entry).oneOf(MotionActivity.Kind.self)))
            }
        }
        return walk
    }
}

extension Scenario.Network {
    static func parse(_ cursor: JSONCursor) throws(ScenarioFileError) -> Self {
        let object = try cursor.object(known: ["latencyMs", "reachable"])
        var network = Self()
        if let value = object.member("latencyMs", of: cursor) { network.latencyMs = try value.integer(in: 0...60_000) }
        if let value = object.member("reachable", of: cursor) { network.reachable = try value.bool() }
        return network
    }
}

extension Scenario.Step {
    private static let keys: [String: Set<String>] = [
        "launch": [], "terminate": [], "iosEndsApp": [], "background": [], "foreground": [], "tapRetry": [], "refresh": [],
        "answerSystemAlert": ["choice"], "tapPopup": ["button"],
        "settings": ["authorization", "locationServicesEnabled", "preciseLocation", "motion", "health"],
        "moveTo": ["lat", "lon"], "network": ["reachable", "latencyMs"],
        "openPermissions": [], "closePermissions": [], "tapPermission": ["permission", "button"],
        "startWalk": [], "pauseWalk": [], "resumeWalk": [], "endWalk": [],
        "searchPlace": ["text"], "choosePlace": ["index", "id"], "clearPlace": [],
    ]

    static func parse(_ cursor: JSONCursor) throws(ScenarioFileError) -> Self {
        let everyKey = keys.values.reduce(into: Set(["atMs", "action"])) { $0.formUnion($1) }
        let loose = try cursor.object(known: everyKey)
        let atMs = try loose.required("atMs", of: cursor).integer(in: 0...86_400_000)
        let actionCursor = try loose.required("action", of: cursor)
        let actionName = try actionCursor.string()
        guard let allowed = keys[actionName] else {
            throw actionCursor.fail("\"\(actionName)\" is not one of \(keys.keys.sorted().joined(separator: " | "))")
        }
        let object = try cursor.object(known: allowed.union(["atMs", "action"]))
        return Self(atMs: atMs, action: try action(actionName, object, cursor))
    }

    private static func action(
        _ name: String,
        _ object: [String: Any],
        _ cursor: JSONCursor
    ) throws(ScenarioFileError) -> Scenario.Action {
        switch name {
        case "launch": return .launch
        case "terminate": return .terminate
        case "iosEndsApp": return .iosEndsApp
        case "background": return .background
        case "foreground": return .foreground
        case "tapRetry": return .tapRetry
        case "refresh": return .refresh
        case "openPermissions": return .openPermissions
        case "closePermissions": return .closePermissions
        case "startWalk": return .startWalk
        case "pauseWalk": return .pauseWalk
        case "resumeWalk": return .resumeWalk
        case "endWalk": return .endWalk
        case "clearPlace": return .clearPlace
        case "searchPlace":
            return .searchPlace(try object.required("text", of: cursor).string())
        case "choosePlace":
            let index = object.member("index", of: cursor)
            let id = object.member("id", of: cursor)
            switch (index, id) {
            case (let index?, nil): return .choosePlace(.index(try index.integer(in: 0...9)))
            case (nil, let id?): return .choosePlace(.id(try id.string()))
            default: throw cursor.fail("choosePlace needs index (0 to 9) or id, not both")
            }
        case "tapPermission":
            return .tapPermission(
                try object.required("permission", of: cursor).oneOf(Scenario.PermissionName.self),
                try object.required("button", of: cursor).oneOf(Scenario.CardButton.self)
            )
        case "answerSystemAlert":
            return .answerSystemAlert(try object.required("choice", of: cursor).oneOf(Scenario.AlertChoice.self))
        case "tapPopup":
            return .tapPopup(try object.required("button", of: cursor).oneOf(Scenario.PopupButton.self))
        case "settings":
            let motionCursor = object.member("motion", of: cursor)
            let healthCursor = object.member("health", of: cursor)
            let change = Scenario.SettingsChange(
                authorization: try object.member("authorization", of: cursor)?.oneOf(LocationPermissionStatus.self),
                locationServicesEnabled: try object.member("locationServicesEnabled", of: cursor)?.bool(),
                preciseLocation: try object.member("preciseLocation", of: cursor)?.bool(),
                motion: try motionCursor?.oneOf(SettingsMotion.self).state,
                health: try healthCursor?.oneOf(SettingsHealth.self).state
            )
            guard change != Scenario.SettingsChange() else {
                throw cursor.fail(
                    "settings needs authorization, locationServicesEnabled, preciseLocation, motion or health"
                )
            }
            return .settings(change)
        case "moveTo":
            return .moveTo(try Scenario.Coordinate.parse(cursor, known: ["atMs", "action", "lat", "lon"]))
        default:
            let change = Scenario.NetworkChange(
                reachable: try object.member("reachable", of: cursor)?.bool(),
                latencyMs: try object.member("latencyMs", of: cursor)?.integer(in: 0...60_000)
            )
            guard change != Scenario.NetworkChange() else { throw cursor.fail("network needs reachable or latencyMs") }
            return .network(change)
        }
    }
}

/// The values `settings.motion` takes: the app's switch in Settings.
private enum SettingsMotion: String, CaseIterable {
    case authorized, denied

    var state: Scenario.MotionState { self == .authorized ? .authorized : .denied }
}

/// The values `settings.health` takes: saving turned on or off in the Health app.
private enum SettingsHealth: String, CaseIterable {
    case sharingAuthorized, sharingDenied

    var state: Scenario.HealthState { self == .sharingAuthorized ? .sharingAuthorized : .sharingDenied }
}

extension Scenario.Device {
    /// Reads a `device` object on its own (as `petspot appium` receives it in a capability).
    public static func parse(_ data: Data) throws(ScenarioFileError) -> Self {
        try parse(JSONCursor.parse(data))
    }
}

extension Scenario.Network {
    /// Reads a `network` object on its own.
    public static func parse(_ data: Data) throws(ScenarioFileError) -> Self {
        try parse(JSONCursor.parse(data))
    }
}
