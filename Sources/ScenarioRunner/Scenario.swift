// ScenarioRunner replays a scenario file against the whole app — the real view model and location
// service over the simulated iPhone, and the real listing client and server — on virtual time. It is
// its own target because it is the one place that wires every other part together, which none of
// them may do.

import PetSpotDomain

/// A scripted session: how the phone starts, how the network behaves, and what the person does when.
public struct Scenario: Sendable, Equatable {
    public var name: String
    public var device: Device
    public var network: Network
    public var steps: [Step]

    public init(name: String, device: Device = Device(), network: Network = Network(), steps: [Step]) {
        self.name = name
        self.device = device
        self.network = network
        self.steps = steps
    }

    /// The phone at the start. Every field has a default (see docs/scenarios.md).
    public struct Device: Sendable, Equatable {
        public var authorization: LocationPermissionStatus = .notDetermined
        public var locationServicesEnabled = true
        public var preciseLocation = true
        public var infoPlistHasWhenInUseKey = true
        /// Where the phone is; nil means no fix is possible.
        public var position: Coordinate? = Coordinate(lat: 52.2297, lon: 21.0122)
        public var fixDelayMs = 800
        public var cachedFix: CachedFix?

        public init() {}
    }

    public struct Coordinate: Sendable, Equatable {
        public var lat: Double
        public var lon: Double

        public init(lat: Double, lon: Double) {
            self.lat = lat
            self.lon = lon
        }
    }

    public struct CachedFix: Sendable, Equatable {
        public var position: Coordinate
        public var ageMs: Int

        public init(position: Coordinate, ageMs: Int) {
            self.position = position
            self.ageMs = ageMs
        }
    }

    public struct Network: Sendable, Equatable {
        public var latencyMs = 40
        public var reachable = true

        public init(latencyMs: Int = 40, reachable: Bool = true) {
            self.latencyMs = latencyMs
            self.reachable = reachable
        }
    }

    /// One thing the person (or the world) does at a moment of virtual time.
    public struct Step: Sendable, Equatable {
        public var atMs: Int
        public var action: Action

        public init(atMs: Int, action: Action) {
            self.atMs = atMs
            self.action = action
        }
    }

    public enum Action: Sendable, Equatable {
        case launch
        case terminate
        case background
        case foreground
        case tapRetry
        case answerSystemAlert(AlertChoice)
        case tapPopup(PopupButton)
        case settings(SettingsChange)
        case moveTo(Coordinate)
        case network(NetworkChange)

        public var name: String {
            switch self {
            case .launch: "launch"
            case .terminate: "terminate"
            case .background: "background"
            case .foreground: "foreground"
            case .tapRetry: "tapRetry"
            case .answerSystemAlert: "answerSystemAlert"
            case .tapPopup: "tapPopup"
            case .settings: "settings"
            case .moveTo: "moveTo"
            case .network: "network"
            }
        }
    }

    public enum AlertChoice: String, Sendable, Equatable, CaseIterable {
        case allowWhileUsing, allowOnce, dontAllow
    }

    public enum PopupButton: String, Sendable, Equatable, CaseIterable {
        case goToSettings, cancel
    }

    public struct SettingsChange: Sendable, Equatable {
        public var authorization: LocationPermissionStatus?
        public var locationServicesEnabled: Bool?
        public var preciseLocation: Bool?

        public init(
            authorization: LocationPermissionStatus? = nil,
            locationServicesEnabled: Bool? = nil,
            preciseLocation: Bool? = nil
        ) {
            self.authorization = authorization
            self.locationServicesEnabled = locationServicesEnabled
            self.preciseLocation = preciseLocation
        }
    }

    public struct NetworkChange: Sendable, Equatable {
        public var reachable: Bool?
        public var latencyMs: Int?

        public init(reachable: Bool? = nil, latencyMs: Int? = nil) {
            self.reachable = reachable
            self.latencyMs = latencyMs
        }
    }
}
