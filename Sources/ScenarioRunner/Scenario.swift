// ScenarioRunner replays a scenario file against the whole app — the real view model and location
// service over the simulated iPhone, and the real listing client and server — on virtual time. It is
// its own target because it is the one place that wires every other part together, which none of
// them may do.

import DeviceInterfaces
import DeviceSimulator
import PetSpotDomain

/// A scripted session: how the phone starts, how the network behaves, and what the person does when.
public struct Scenario: Sendable, Equatable {
    public var name: String
    /// Which app is installed and played.
    public var app: App
    public var device: Device
    public var network: Network
    public var steps: [Step]

    public init(name: String, app: App = .petspot, device: Device = Device(), network: Network = Network(), steps: [Step]) {
        self.name = name
        self.app = app
        self.device = device
        self.network = network
        self.steps = steps
    }

    /// `app`: the adoption app of the specification, or the walking app of the permissions guide.
    public enum App: String, Sendable, Equatable, CaseIterable {
        case petspot, paintmytown

        /// The app's manifest: its name, bundle id and features.
        public var manifest: AppManifest {
            switch self {
            case .petspot: .petSpot
            case .paintmytown: .paintMyTown
            }
        }
    }

    /// `device.walk`: the route the person walks once they set off (`startWalk`), at a pace, with the
    /// activity Motion sees on the way.
    public struct Walk: Sendable, Equatable {
        public var path: [Coordinate]
        public var speedMps: Double
        /// Changes of activity, each `atMs` after setting off; walking before the first.
        public var activity: [ActivityChange]

        public init(path: [Coordinate], speedMps: Double = 1.4, activity: [ActivityChange] = []) {
            self.path = path
            self.speedMps = speedMps
            self.activity = activity
        }
    }

    public struct ActivityChange: Sendable, Equatable {
        public var atMs: Int
        public var kind: MotionActivity.Kind

        public init(atMs: Int, kind: MotionActivity.Kind) {
            self.atMs = atMs
            self.kind = kind
        }
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
        /// How long a kilometre-accuracy fix (Wi-Fi and cell towers) takes; never longer than ``fixDelayMs``.
        public var coarseFixDelayMs = 300
        public var cachedFix: CachedFix?
        /// The app's Motion & Fitness permission (or the phone's lack of it) at first launch.
        public var motion: MotionState = .notDetermined
        /// The app's permission to save to Health (or the phone's lack of Health data) at first launch.
        public var health: HealthState = .notDetermined
        public var infoPlistHasMotionKey = true
        public var infoPlistHasHealthKeys = true
        public var infoPlistHasAlwaysKey = true
        /// `NSLocationRequireExplicitServiceSession`, as the iOS app declares it: on iOS 18 and later live
        /// updates then come only while the app holds a service session.
        public var infoPlistRequiresExplicitServiceSession = true
        /// The iOS major version (17, 18 or 26): from 18 the app asks through service sessions and
        /// live updates.
        public var iosVersion = DeviceConfiguration.newestIOSVersion
        /// The versions `iosVersion` may name.
        public static let iosVersions = DeviceConfiguration.iosVersions
        /// The walk the person takes (Paint My Town), if any.
        public var walk: Walk?

        public init() {}
    }

    /// `device.motion`.
    public enum MotionState: String, Sendable, Equatable, CaseIterable {
        case notDetermined, authorized, denied, restricted, unavailable
    }

    /// `device.health` (the write status of every type PetSpot saves).
    public enum HealthState: String, Sendable, Equatable, CaseIterable {
        case notDetermined, sharingAuthorized, sharingDenied, unavailable
    }

    /// A permission card of the permissions screen.
    public enum PermissionName: String, Sendable, Equatable, CaseIterable {
        case location, motion, health
    }

    /// A button of a permission card.
    public enum CardButton: String, Sendable, Equatable, CaseIterable {
        case allow, allowAlways, openSettings, learnMore
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
        /// Whether iOS answers a location request with this fix at once, however old (rule 18).
        public var deliveredOnRequest: Bool

        public init(position: Coordinate, ageMs: Int, deliveredOnRequest: Bool = false) {
            self.position = position
            self.ageMs = ageMs
            self.deliveredOnRequest = deliveredOnRequest
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
        /// iOS ends the app in the background to reclaim its memory (rule 35); the person did nothing.
        case iosEndsApp
        case background
        case foreground
        case tapRetry
        case refresh
        case answerSystemAlert(AlertChoice)
        case tapPopup(PopupButton)
        case settings(SettingsChange)
        case moveTo(Coordinate)
        case network(NetworkChange)
        case openPermissions
        case closePermissions
        case tapPermission(PermissionName, CardButton)
        /// Paint My Town: the person taps Start and sets off on `device.walk`.
        case startWalk
        case pauseWalk
        case resumeWalk
        case endWalk
        /// The person types `text` into the place picker (opening it from the listing's header if it
        /// is closed): the whole field, as it reads after typing.
        case searchPlace(String)
        /// The person picks a suggestion: by its position (from 0) or by its id.
        case choosePlace(PlaceChoice)
        /// The clear control beside "Pets near …".
        case clearPlace

        public var name: String {
            switch self {
            case .launch: "launch"
            case .terminate: "terminate"
            case .iosEndsApp: "iosEndsApp"
            case .background: "background"
            case .foreground: "foreground"
            case .tapRetry: "tapRetry"
            case .refresh: "refresh"
            case .answerSystemAlert: "answerSystemAlert"
            case .tapPopup: "tapPopup"
            case .settings: "settings"
            case .moveTo: "moveTo"
            case .network: "network"
            case .openPermissions: "openPermissions"
            case .closePermissions: "closePermissions"
            case .tapPermission: "tapPermission"
            case .startWalk: "startWalk"
            case .pauseWalk: "pauseWalk"
            case .resumeWalk: "resumeWalk"
            case .endWalk: "endWalk"
            case .searchPlace: "searchPlace"
            case .choosePlace: "choosePlace"
            case .clearPlace: "clearPlace"
            }
        }
    }

    /// A button of a system alert: `allowWhileUsing`, `allowOnce`, `dontAllow` on the location alert;
    /// `changeToAlwaysAllow`, `keepOnlyWhileUsing` on the Always alert; `allow`, `dontAllow` on the
    /// Motion alert; `allowAll`, `dontAllow` on the Health sheet.
    public enum AlertChoice: String, Sendable, Equatable, CaseIterable {
        case allowWhileUsing, allowOnce, dontAllow, changeToAlwaysAllow, keepOnlyWhileUsing, allow, allowAll
    }

    public enum PopupButton: String, Sendable, Equatable, CaseIterable {
        case goToSettings, cancel, choosePlace
    }

    /// Which suggestion `choosePlace` picks.
    public enum PlaceChoice: Sendable, Equatable {
        case index(Int)
        case id(String)
    }

    /// Whether a step searches places (the scenario's server then serves the sample gazetteer).
    public var searchesPlaces: Bool {
        steps.contains { step in
            switch step.action {
            case .searchPlace, .tapPopup(.choosePlace): true
            default: false
            }
        }
    }

    public struct SettingsChange: Sendable, Equatable {
        public var authorization: LocationPermissionStatus?
        public var locationServicesEnabled: Bool?
        public var preciseLocation: Bool?
        /// The app's Motion & Fitness switch: `authorized` or `denied`.
        public var motion: MotionState?
        /// Saving to Health for every type PetSpot saves: `sharingAuthorized` or `sharingDenied`.
        public var health: HealthState?

        public init(
            authorization: LocationPermissionStatus? = nil,
            locationServicesEnabled: Bool? = nil,
            preciseLocation: Bool? = nil,
            motion: MotionState? = nil,
            health: HealthState? = nil
        ) {
            self.authorization = authorization
            self.locationServicesEnabled = locationServicesEnabled
            self.preciseLocation = preciseLocation
            self.motion = motion
            self.health = health
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
