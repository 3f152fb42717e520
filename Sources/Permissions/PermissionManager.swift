import AsyncSupport
import DeviceInterfaces
import Foundation
import LocationBridge
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

        public init(healthRequest: HealthAuthorizationRequest = .nothing) {
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

    @ObservationIgnored private let locationService: LocationService
    /// Nil in an app with no feature that uses Motion: its permission then reads unavailable.
    @ObservationIgnored private let motion: (any MotionAuthorizing)?
    /// Nil in an app with no feature that uses Health: its permission then reads unavailable.
    @ObservationIgnored private let healthStore: (any HealthAuthorizing)?
    @ObservationIgnored private let infoPlist: PropertyList
    @ObservationIgnored private let ledger: any PermissionLedger
    @ObservationIgnored private let settingsOpener: SettingsOpener
    @ObservationIgnored private let clock: any Clock<Duration>
    @ObservationIgnored public let configuration: Configuration
    @ObservationIgnored private let broadcasters = Dictionary(
        uniqueKeysWithValues: Permission.allCases.map { ($0, PermissionStateBroadcaster()) }
    )
    @ObservationIgnored private var published: [Permission: PermissionState] = [:]
    @ObservationIgnored private var runningRequests: [RequestKind: SharedRequest] = [:]
    @ObservationIgnored private var statusTask: Task<Void, Never>?

    /// - Parameters:
    ///   - locationService: the app's one location bridge, shared with the startup screen.
    ///   - motion: Motion & Fitness, or nil in an app that does not use it (it links no CoreMotion).
    ///   - health: HealthKit, or nil in an app that does not use it (it links no HealthKit).
    ///   - infoPlist: the app's Info.plist (`PropertyList(infoDictionary: Bundle.main.infoDictionary)`).
    ///   - ledger: remembers the once-per-install Always request.
    ///   - clock: measures the bounded Motion and HealthKit waits (the location service's clock).
    public init(
        locationService: LocationService,
        motion: (any MotionAuthorizing)?,
        health: (any HealthAuthorizing)?,
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
        motionStatus = motion?.authorizationStatus ?? .notDetermined
        isMotionAvailable = motion?.isActivityAvailable ?? false
        if health == nil { self.health = HealthAuthorization(isAvailable: false, writeStatus: [:], requestStatus: .unknown) }
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

    /// The permissions this app has a feature for: location always, Motion and Health when the app
    /// was given their adapters. Its permissions screen shows these and no other.
    public var permissions: [Permission] {
        Permission.allCases.filter { permission in
            switch permission {
            case .location: true
            case .motion: motion != nil
            case .healthKit: healthStore != nil
            }
        }
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

    /// Re-reads every permission (the person may have changed one in Settings, and Motion and
    /// HealthKit send no callback for that); never prompts.
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
    private func publishChanges() {
        for permission in Permission.allCases {
            let current = state(for: permission)
            guard published[permission] != current else { continue }
            published[permission] = current
            broadcaster(for: permission).send(current)
        }
    }

    /// Throws when any of `requirements` is missing or empty in the app's Info.plist.
    private func requireKeys(_ requirements: [InfoPlistRequirement], for permission: Permission) throws(PermissionRequestError) {
        let missing = requirements.filter {
            PlistRequirementsChecker.outcome(of: infoPlist[$0.key], for: $0).isProblem
        }.map(\.key)
        guard missing.isEmpty else { throw .missingUsageDescription(permission, keys: missing) }
    }

    private func broadcaster(for permission: Permission) -> PermissionStateBroadcaster {
        guard let broadcaster = broadcasters[permission] else {
            preconditionFailure("every Permission has a broadcaster from init")
        }
        return broadcaster
    }
}

// MARK: - Location

extension PermissionManager {
    /// Step one: asks for When-In-Use location through the app's one ``LocationService``.
    ///
    /// Returns at once when the status is already determined (iOS would show nothing). Otherwise asks
    /// and waits as the service does (its ``LocationService/Configuration/authorizationTimeout``), and
    /// returns the state then. A late answer still arrives through ``stateUpdates(for:)``.
    /// - Throws: ``PermissionRequestError/missingUsageDescription(_:keys:)`` when Info.plist lacks
    ///   `NSLocationWhenInUseUsageDescription` (iOS would silently do nothing).
    @discardableResult
    public func requestLocationWhenInUse() async throws(PermissionRequestError) -> PermissionState {
        locationStatusChanged(to: await locationService.authorizationStatus)
        guard locationStatus == .notDetermined else { return state(for: .location) }
        try requireKeys([.locationWhenInUse], for: .location)
        _ = await shared(.locationWhenInUse, bounded: false) { [weak self] in
            guard let self else { return .state(.notDetermined) }
            let status = await self.locationService.requestWhenInUseAuthorization()
            self.locationStatusChanged(to: status == .notDetermined ? self.locationService.currentAuthorizationStatus : status)
            return .state(self.state(for: .location))
        }
        return state(for: .location)
    }

    /// Step two, a separate explicit call: asks to upgrade a While-Using grant to Always (rule 6).
    ///
    /// Nothing is asked when the status is not While Using (from `.notDetermined` iOS would show the
    /// When-In-Use prompt instead, so that step must come first) or when this install already made its
    /// one Always request. The wait is the service's: "Keep Only While Using" ends it shortly after the
    /// app is active again (``refresh()``). A request iOS ignores (during "Allow Once" no prompt
    /// appears) does not use up the one request of this install.
    /// - Throws: ``PermissionRequestError/missingUsageDescription(_:keys:)`` when Info.plist lacks
    ///   either location usage description.
    public func requestLocationAlways() async throws(PermissionRequestError) -> LocationAlwaysOutcome {
        locationStatusChanged(to: await locationService.authorizationStatus)
        switch locationStatus {
        case .authorizedAlways: return .alreadyAlways
        case .notDetermined: return .needsWhenInUseFirst
        case .denied, .restricted: return .notAllowed(state(for: .location))
        case .authorizedWhenInUse: break
        }
        try requireKeys([.locationWhenInUse, .locationAlways], for: .location)
        if runningRequests[.locationAlways] == nil, ledger.alwaysLocationRequested { return .alreadyAskedOnce }
        let result = await shared(.locationAlways, bounded: false) { [weak self] in
            guard let self else { return .always(.stayedWhenInUse) }
            self.ledger.alwaysLocationRequested = true
            let answer = await self.locationService.requestAlwaysAuthorization()
            // No prompt appeared: iOS ignored the request, so it did not use up the one of this install.
            if !answer.promptAppeared { self.ledger.alwaysLocationRequested = false }
            self.locationStatusChanged(to: answer.status)
            switch answer.status {
            case .authorizedAlways: return .always(.upgraded)
            case .authorizedWhenInUse: return .always(.stayedWhenInUse)
            case .notDetermined, .denied, .restricted: return .always(.notAllowed(PermissionState(answer.status)))
            }
        }
        if case .always(let outcome)? = result { return outcome }
        return locationStatus == .authorizedAlways ? .upgraded : .stayedWhenInUse
    }

    /// Whether the one Always request of this install is still available.
    public var canRequestLocationAlways: Bool {
        locationStatus == .authorizedWhenInUse && !ledger.alwaysLocationRequested
    }

    /// Records a status the location service reported or that was read from it.
    private func locationStatusChanged(to status: LocationPermissionStatus) {
        guard status != locationStatus else { return }
        locationStatus = status
        onLocationStatusChange?(status)
        publishChanges()
    }

    private func checkLocation() async {
        locationStatusChanged(to: await locationService.authorizationStatus)
        let enabled = await locationService.locationServicesEnabled
        if enabled != locationServicesEnabled { locationServicesEnabled = enabled }
    }
}

// MARK: - Motion

extension PermissionManager {
    /// Asks for Motion & Fitness with the smallest activity query (CoreMotion has no request API).
    ///
    /// Returns at once when activity data is unavailable or the status is decided. Error 105 means
    /// denied, 104 unavailable, 106 (not entitled) unavailable for this app.
    /// - Throws: ``PermissionRequestError/missingUsageDescription(_:keys:)`` when Info.plist lacks
    ///   `NSMotionUsageDescription` (iOS would crash the app).
    @discardableResult
    public func requestMotion() async throws(PermissionRequestError) -> PermissionState {
        checkMotion()
        guard isMotionAvailable, motionStatus == .notDetermined else { return state(for: .motion) }
        try requireKeys([.motion], for: .motion)
        let result = await shared(.motion) { [weak self] in
            guard let self else { return .state(.notDetermined) }
            let end = Date()
            var reported: MotionActivityError?
            do {
                // isMotionAvailable is false without the adapter, so it is here.
                _ = try await self.motion?.queryActivity(from: end.addingTimeInterval(-60), to: end)
            } catch let error as MotionActivityError {
                reported = error
            } catch is SystemPromptDismissed {
                // No answer (the app left the foreground): the next Allow asks again.
                self.checkMotion()
                return .state(self.state(for: .motion))
            } catch {
                self.checkMotion()
                return .failed(.systemError(.motion, error.localizedDescription))
            }
            self.checkMotion()
            switch reported?.code {
            case MotionActivityError.notAuthorized.code where self.motionStatus == .notDetermined:
                self.motionStatus = .denied
            case MotionActivityError.notAvailable.code, MotionActivityError.notEntitled.code:
                self.isMotionAvailable = false
            default:
                break
            }
            self.publishChanges()
            return .state(self.state(for: .motion))
        }
        switch result {
        case .state(let state)?: return state
        case .failed(let error)?: throw error
        case .always?, nil:
            checkMotion()
            return state(for: .motion)
        }
    }

    /// Re-reads availability and status; never prompts (rule 19).
    private func checkMotion() {
        let available = motion?.isActivityAvailable ?? false
        let status = motion?.authorizationStatus ?? .notDetermined
        if available != isMotionAvailable { isMotionAvailable = available }
        if status != motionStatus { motionStatus = status }
        publishChanges()
    }
}

// MARK: - Health

extension PermissionManager {
    /// Asks for the configured HealthKit types.
    ///
    /// Returns at once without Health data, or when no sheet would appear. HealthKit's `success` is
    /// ignored: it is true whether or not anything was granted (rule 25). Afterwards the write status
    /// per type and the request status are read again; reading permission is never claimed.
    /// - Throws: ``PermissionRequestError/missingUsageDescription(_:keys:)`` when Info.plist lacks
    ///   `NSHealthShareUsageDescription` or `NSHealthUpdateUsageDescription` (iOS would crash), or
    ///   ``PermissionRequestError/systemError(_:_:)`` when HealthKit reports an error.
    @discardableResult
    public func requestHealth() async throws(PermissionRequestError) -> PermissionState {
        await checkHealth()
        guard health.isAvailable, health.requestStatus != .unnecessary else { return state(for: .healthKit) }
        let request = configuration.healthRequest
        var required: [InfoPlistRequirement] = []
        if !request.read.isEmpty { required.append(.healthShare) }
        if !request.share.isEmpty { required.append(.healthUpdate) }
        try requireKeys(required, for: .healthKit)
        let result = await shared(.health) { [weak self] in
            guard let self else { return .state(.notDetermined) }
            do {
                // health.isAvailable is false without the store, so it is here.
                _ = try await self.healthStore?.requestAuthorization(toShare: request.share, read: request.read)
            } catch {
                await self.checkHealth()
                return .failed(.systemError(.healthKit, error.localizedDescription))
            }
            await self.checkHealth()
            return .state(self.state(for: .healthKit))
        }
        switch result {
        case .state(let state)?: return state
        case .failed(let error)?: throw error
        case .always?, nil:
            await checkHealth()
            return state(for: .healthKit)
        }
    }

    /// Re-reads availability, the write status of each type and the request status; never prompts.
    private func checkHealth() async {
        guard let healthStore, healthStore.isHealthDataAvailable else {
            health = HealthAuthorization(isAvailable: false, writeStatus: [:], requestStatus: .unknown)
            publishChanges()
            return
        }
        let request = configuration.healthRequest
        let requestStatus: HealthRequestStatus
        do {
            requestStatus = try await healthStore.requestStatus(toShare: request.share, read: request.read)
        } catch {
            requestStatus = .unknown
        }
        var writeStatus: [HealthDataType: HealthShareStatus] = [:]
        for type in request.share { writeStatus[type] = healthStore.authorizationStatus(for: type) }
        let snapshot = HealthAuthorization(isAvailable: true, writeStatus: writeStatus, requestStatus: requestStatus)
        if snapshot != health { health = snapshot }
        publishChanges()
    }
}

// MARK: - Shared Requests

extension PermissionManager {
    /// Runs `operation` once for all concurrent callers of the same request. With `bounded`, waits for
    /// its result at most the app's authorization timeout
    /// (``LocationService/Configuration/authorizationTimeout``, the one bound of every permission
    /// wait); location requests pass false, as the location service bounds them itself. Returns nil
    /// when the bound passes first or when the calling task is cancelled. At the bound the request no
    /// longer counts as under way (the card is free again, and the next Allow asks afresh); a late
    /// outcome of the old operation is dropped.
    private func shared(
        _ kind: RequestKind,
        bounded: Bool = true,
        _ operation: @escaping @MainActor () async -> RequestResult
    ) async -> RequestResult? {
        let request: SharedRequest
        if let running = runningRequests[kind] {
            request = running
        } else {
            request = SharedRequest()
            runningRequests[kind] = request
            requestsInFlight.insert(kind.permission)
            Task { @MainActor [weak self] in
                let result = await operation()
                request.finish(with: result)
                self?.ended(request, kind)
            }
        }
        let deadline = bounded ? Deadline(after: locationService.configuration.authorizationTimeout, on: clock) : nil
        let result = await request.result(before: deadline)
        if result == nil, !Task.isCancelled { ended(request, kind) }
        return result
    }

    /// `request` of `kind` is no longer under way (finished, or past its bound).
    private func ended(_ request: SharedRequest, _ kind: RequestKind) {
        guard runningRequests[kind] === request else { return }
        runningRequests[kind] = nil
        if !runningRequests.keys.contains(where: { $0.permission == kind.permission }) {
            requestsInFlight.remove(kind.permission)
        }
    }
}

/// One request under way and the callers waiting for it. Each caller is resumed exactly once: with the
/// result, or with nil at its deadline (if it has one) or when its task is cancelled.
@MainActor
private final class SharedRequest {
    private var outcome: RequestResult?
    private let waiters = Waiters<RequestResult?>()

    func result(before deadline: Deadline?) async -> RequestResult? {
        if let outcome { return outcome }
        let ticket = waiters.join()
        let timer = deadline.map { deadline in
            Task { [waiters] in
                do { try await deadline.wait() } catch { return }
                waiters.resume(ticket, returning: nil)
            }
        }
        defer { timer?.cancel() }
        return await waiters.wait(ticket, cancelled: nil)
    }

    func finish(with result: RequestResult) {
        outcome = result
        waiters.resumeAll(returning: result)
    }
}

/// A request that concurrent callers share.
private enum RequestKind: Hashable, Sendable {
    case locationWhenInUse, locationAlways, motion, health

    var permission: Permission {
        switch self {
        case .locationWhenInUse, .locationAlways: .location
        case .motion: .motion
        case .health: .healthKit
        }
    }
}

/// What a shared request produced.
private enum RequestResult: Sendable {
    case state(PermissionState)
    case always(LocationAlwaysOutcome)
    case failed(PermissionRequestError)
}
