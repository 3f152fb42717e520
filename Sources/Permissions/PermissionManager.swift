import Foundation
import LocationService
import Observation
import PetSpotDomain

/// Checks, requests and observes the Location, Motion & Fitness and HealthKit permissions.
///
/// A `@MainActor @Observable` class rather than an actor: the permission screens read its state
/// synchronously from SwiftUI, and Observation tracks it directly. Nothing here blocks: every request
/// suspends.
///
/// Location goes through the app's one ``LocationService`` — the same bridge to the one
/// `CLLocationManager` that the startup screen uses, with its one reader of the manager's callbacks
/// and its one timeout policy. Motion and HealthKit requests are bounded by the same timeout
/// (``LocationService/Configuration/authorizationTimeout``) and release a cancelled caller at once.
///
/// Each request returns at once when iOS would show nothing, and refuses to ask when Info.plist lacks
/// a usage description (iOS would crash or silently ignore the request).
@MainActor
@Observable
public final class PermissionManager {
    /// The HealthKit types to ask for.
    public struct Configuration: Sendable {
        /// The HealthKit types asked for.
        public var healthRequest: HealthAuthorizationRequest

        public init(healthRequest: HealthAuthorizationRequest = .petSpot) {
            self.healthRequest = healthRequest
        }
    }

    /// The location status in full (While Using vs Always), as last reported.
    public internal(set) var locationStatus: LocationPermissionStatus
    /// Whether Location Services are on for the whole device; when off the status reads `.denied`.
    public internal(set) var locationServicesEnabled = true
    /// The Motion & Fitness status, as last read.
    public internal(set) var motionStatus: MotionAuthorizationStatus
    /// Whether this device has motion activity data.
    public internal(set) var isMotionAvailable: Bool
    /// What can be known about HealthKit permission (write status and request status only).
    public internal(set) var health: HealthAuthorization = .unknown
    /// Permissions whose request is under way.
    public internal(set) var requestsInFlight: Set<Permission> = []
    /// Told of every change of the full location status (While Using vs Always, which
    /// ``PermissionState`` does not tell apart).
    @ObservationIgnored public var onLocationStatusChange: (@MainActor (LocationPermissionStatus) -> Void)?

    @ObservationIgnored let locationService: LocationService
    @ObservationIgnored let motion: any MotionAuthorizing
    @ObservationIgnored let healthStore: any HealthAuthorizing
    @ObservationIgnored let infoPlist: PropertyList
    @ObservationIgnored let ledger: any PermissionLedger
    @ObservationIgnored let settingsOpener: SettingsOpener
    @ObservationIgnored let clock: any Clock<Duration>
    @ObservationIgnored public let configuration: Configuration
    @ObservationIgnored var broadcasters: [Permission: PermissionStateBroadcaster] = [:]
    @ObservationIgnored var published: [Permission: PermissionState] = [:]
    @ObservationIgnored var runningRequests: [RequestKind: SharedRequest] = [:]
    @ObservationIgnored private var statusTask: Task<Void, Never>?

    /// - Parameters:
    ///   - locationService: the app's one location bridge, shared with the startup screen.
    ///   - infoPlist: the app's Info.plist (`PropertyList(infoDictionary: Bundle.main.infoDictionary)`).
    ///   - ledger: remembers the once-per-install Always request.
    ///   - clock: measures the bounded Motion and HealthKit waits (the location service's clock).
    public init(
        locationService: LocationService,
        motion: any MotionAuthorizing,
        health: any HealthAuthorizing,
        infoPlist: PropertyList,
        ledger: any PermissionLedger,
        settingsOpener: SettingsOpener,
        clock: any Clock<Duration> = ContinuousClock(),
        configuration: Configuration = Configuration()
    ) {
        self.locationService = locationService
        self.motion = motion
        self.healthStore = health
        self.infoPlist = infoPlist
        self.ledger = ledger
        self.settingsOpener = settingsOpener
        self.clock = clock
        self.configuration = configuration
        locationStatus = locationService.currentAuthorizationStatus
        motionStatus = motion.authorizationStatus
        isMotionAvailable = motion.isActivityAvailable
        for permission in Permission.allCases {
            broadcasters[permission] = PermissionStateBroadcaster()
        }
        published = Dictionary(uniqueKeysWithValues: Permission.allCases.map { ($0, state(for: $0)) })
        statusTask = Task { [weak self, locationService] in
            let updates = await locationService.authorizationStatusUpdates()
            for await status in updates {
                guard let self else { return }
                self.locationStatusChanged(to: status)
            }
        }
    }

    deinit {
        statusTask?.cancel()
    }

    /// The current state of `permission`, without asking anything.
    public func state(for permission: Permission) -> PermissionState {
        switch permission {
        case .location: PermissionState(locationStatus)
        case .motion: motionStatus.permissionState(isActivityAvailable: isMotionAvailable)
        case .healthKit: health.permissionState
        }
    }

    /// Re-reads the state of `permission` from the system; never prompts.
    @discardableResult
    public func check(_ permission: Permission) async -> PermissionState {
        switch permission {
        case .location: await checkLocation()
        case .motion: checkMotion()
        case .healthKit: await checkHealth()
        }
        return state(for: permission)
    }

    /// Asks for `permission` when iOS would show a prompt, and returns the resulting state. For location
    /// this is the When-In-Use step; Always is ``requestLocationAlways()``.
    /// - Throws: ``PermissionRequestError/missingUsageDescription(_:keys:)`` instead of letting iOS crash
    ///   or ignore the request.
    @discardableResult
    public func request(_ permission: Permission) async throws(PermissionRequestError) -> PermissionState {
        switch permission {
        case .location: try await requestLocationWhenInUse()
        case .motion: try await requestMotion()
        case .healthKit: try await requestHealth()
        }
    }

    /// A stream that yields the current state of `permission` at once, then every change. Each call
    /// makes a new stream; stop consuming (or cancel the consuming task) to unsubscribe.
    public func stateUpdates(for permission: Permission) -> AsyncStream<PermissionState> {
        broadcaster(for: permission).subscribe(current: state(for: permission))
    }

    /// The app is active again: re-reads every permission (the person may have changed one in Settings,
    /// and Motion and HealthKit send no callback for that), and tells the location service, whose
    /// pending Always request then ends shortly unless answered.
    public func refresh() async {
        await applicationDidBecomeActive()
        await checkAll()
    }

    /// The app resigned active (a system prompt took the screen, or the person is leaving); tells the
    /// location service that a pending request's prompt appeared.
    public func applicationWillResignActive() async {
        await locationService.applicationWillResignActive()
    }

    /// The app reached the background: a pending location request's alert is gone.
    public func applicationDidEnterBackground() async {
        await locationService.applicationDidEnterBackground()
    }

    /// The app is active again: tells the location service (a pending request whose prompt is gone
    /// ends shortly), without re-reading anything; ``refresh()`` does both.
    public func applicationDidBecomeActive() async {
        await locationService.applicationDidBecomeActive()
    }

    /// Re-reads every permission without telling the location service anything.
    public func checkAll() async {
        await checkLocation()
        checkMotion()
        await checkHealth()
    }

    /// Opens the app's page in Settings, the only way to change a denied permission.
    public func openSettings() {
        settingsOpener()
    }

    /// Sends a state change to subscribers when a permission's state really changed.
    func publishChanges() {
        for permission in Permission.allCases {
            let current = state(for: permission)
            guard published[permission] != current else { continue }
            published[permission] = current
            broadcaster(for: permission).send(current)
        }
    }

    /// Throws when any of `requirements` is missing or empty in the app's Info.plist.
    func requireKeys(_ requirements: [InfoPlistRequirement], for permission: Permission) throws(PermissionRequestError) {
        let missing = requirements.filter {
            PlistRequirementsChecker.outcome(of: infoPlist[$0.key], for: $0).isProblem
        }.map(\.key)
        guard missing.isEmpty else { throw .missingUsageDescription(permission, keys: missing) }
    }

    private func broadcaster(for permission: Permission) -> PermissionStateBroadcaster {
        if let broadcaster = broadcasters[permission] { return broadcaster }
        let broadcaster = PermissionStateBroadcaster()
        broadcasters[permission] = broadcaster
        return broadcaster
    }
}
