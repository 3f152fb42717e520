import Foundation
import PetSpotDomain

/// Turns a ``LocationManaging`` (CLLocationManager on iOS, the simulated iPhone elsewhere) into
/// async/await that can neither hang nor crash.
///
/// - Every wait is bounded by a timeout on the injected clock, and ends early on task cancellation.
/// - Every waiting caller is resumed exactly once: a waiter is removed from its table before it is
///   resumed, and callbacks that find no waiter (late, duplicate, after cancellation) are ignored.
/// - Concurrent callers share one underlying request.
/// - Calls into the manager are made in order, on the main actor, by one task that reads a command
///   queue; the actor itself never blocks the main thread and never asks the system daemon.
public actor LocationService: LocationServiceProtocol {
    /// Timeouts and freshness.
    public struct Configuration: Sendable, Equatable {
        /// How long `requestWhenInUseAuthorization()` waits for the person's answer. iOS sends no
        /// callback at all when the Info.plist key is missing or the app is not in the foreground, and
        /// nothing tells the app whether its alert is up; so the wait must end. After it, the call
        /// reports `.notDetermined`, and an answer that comes later still arrives through
        /// ``authorizationStatusUpdates()``. 30 s leaves a person time to read the alert.
        public var authorizationTimeout: Duration
        /// After an Always request, how long until the app must have resigned active for iOS's prompt;
        /// if it has not, iOS ignored the request. iOS shows its prompt at once.
        public var promptAppearanceTimeout: Duration
        /// How long a pending authorization request whose prompt was up waits after the app is active
        /// again ("Keep Only While Using" sends no callback, and an alert dismissed by a trip to the
        /// background never answers; a real answer is reported at once).
        public var settleDelay: Duration
        /// How long `requestLocation()` waits for a fix (the seeds' 5 s).
        public var locationTimeout: Duration
        /// How old a fix may be and still count as the current location, whether it is the manager's
        /// cached `location` or a fix a request delivers (iOS may answer a request with an old one,
        /// rule 18). An older fix is never used.
        public var maximumCachedFixAge: Duration
        /// The accuracy asked of the manager. Pets are searched within 50 km and coordinates leave the
        /// device rounded to about 1 km, so a kilometre is enough; Wi-Fi and cell towers give such a
        /// fix far sooner than GPS gives a 100 m one (rule 14).
        public var desiredAccuracy: LocationAccuracy

        /// Whether a fix taken at `timestamp` may still count as the current location at `now`: no older
        /// than ``maximumCachedFixAge``, and not stamped further than that in the future either (the
        /// device clock was set back).
        public func isFresh(fixTakenAt timestamp: Date, now: Date) -> Bool {
            let limit = Double(maximumCachedFixAge.components.seconds)
                + Double(maximumCachedFixAge.components.attoseconds) / 1e18
            return abs(now.timeIntervalSince(timestamp)) <= limit
        }

        public init(
            authorizationTimeout: Duration = .seconds(30),
            promptAppearanceTimeout: Duration = .seconds(1),
            settleDelay: Duration = .seconds(1),
            locationTimeout: Duration = .seconds(5),
            maximumCachedFixAge: Duration = .seconds(120),
            desiredAccuracy: LocationAccuracy = .kilometer
        ) {
            self.authorizationTimeout = authorizationTimeout
            self.promptAppearanceTimeout = promptAppearanceTimeout
            self.settleDelay = settleDelay
            self.locationTimeout = locationTimeout
            self.maximumCachedFixAge = maximumCachedFixAge
            self.desiredAccuracy = desiredAccuracy
        }
    }

    enum Command: Sendable {
        case requestWhenInUseAuthorization
        case requestAlwaysAuthorization
        case requestLocation(LocationAccuracy)
        case stopUpdatingLocation
    }

    /// The timeouts every wait of this service uses; one policy for the whole app.
    public nonisolated let configuration: Configuration
    let clock: any Clock<Duration>
    let now: @Sendable () -> Date
    private let manager: any LocationManaging
    private let commands: AsyncStream<Command>.Continuation

    var tokens = 0
    /// The authorization request under way and its waiting callers (nil when none is waiting).
    var authorizationRound: AuthorizationRound?
    /// How many callers wait for an authorization answer; lets tests see a wait begin.
    var authorizationWaiterCount: Int { authorizationRound?.waiters.count ?? 0 }
    var locationWaiters: [Int: CheckedContinuation<UserLocation?, Never>] = [:]
    var locationTimeoutTask: Task<Void, Never>?
    /// The location request whose timer may end the wait (nil when none is waiting).
    var locationRequest: Int?
    private var statusSubscribers: [Int: AsyncStream<LocationPermissionStatus>.Continuation] = [:]
    private var lastReportedStatus: LocationPermissionStatus?
    private var eventTask: Task<Void, Never>?
    /// How many manager events have been handled; lets tests wait for a callback to be processed.
    private(set) var handledEventCount = 0

    /// - Parameters:
    ///   - manager: The location manager; on iOS one created on the main thread.
    ///   - clock: The clock that bounds every wait (a `VirtualClock` in tests and in the simulator).
    ///   - now: The current date, to judge a cached fix's age; must agree with the fixes' timestamps.
    public init(
        manager: any LocationManaging,
        clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = { Date() },
        configuration: Configuration = Configuration()
    ) {
        self.manager = manager
        self.clock = clock
        self.now = now
        self.configuration = configuration
        let (stream, continuation) = AsyncStream<Command>.makeStream()
        self.commands = continuation
        Task { @MainActor in
            for await command in stream {
                switch command {
                case .requestWhenInUseAuthorization:
                    manager.requestWhenInUseAuthorization()
                case .requestAlwaysAuthorization:
                    manager.requestAlwaysAuthorization()
                case .requestLocation(let accuracy):
                    manager.desiredAccuracy = accuracy
                    manager.requestLocation()
                case .stopUpdatingLocation:
                    manager.stopUpdatingLocation()
                }
            }
        }
    }

    deinit {
        commands.finish()
        eventTask?.cancel()
        for subscriber in statusSubscribers.values { subscriber.finish() }
    }

    /// The status as the manager reports it now, read on the main actor where the manager lives; for
    /// a model that must show a state before its first `await`.
    @MainActor public var currentAuthorizationStatus: LocationPermissionStatus {
        manager.authorizationStatus
    }

    /// Whether Location Services are on for the whole device (asked off the main thread, rule 9).
    public var locationServicesEnabled: Bool {
        get async { await manager.locationServicesEnabled() }
    }

    public var authorizationStatus: LocationPermissionStatus {
        get async {
            startHandlingEvents()
            return await manager.authorizationStatus
        }
    }

    public func authorizationStatusUpdates() -> AsyncStream<LocationPermissionStatus> {
        startHandlingEvents()
        let (stream, continuation) = AsyncStream<LocationPermissionStatus>.makeStream()
        let token = nextToken()
        statusSubscribers[token] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.removeSubscriber(token) }
        }
        return stream
    }

    // MARK: - Internals shared by the request extensions

    func nextToken() -> Int {
        tokens += 1
        return tokens
    }

    func send(_ command: Command) {
        commands.yield(command)
    }

    var currentStatus: LocationPermissionStatus {
        get async { await manager.authorizationStatus }
    }

    var cachedFix: LocationFix? {
        get async { await manager.location }
    }

    /// Starts reading the manager's callbacks, once. Callbacks sent before are buffered by the stream
    /// and handled in order.
    func startHandlingEvents() {
        guard eventTask == nil else { return }
        let events = manager.events
        eventTask = Task { [weak self] in
            for await event in events {
                guard let self else { return }
                await self.handle(event)
            }
        }
    }

    private func handle(_ event: LocationManagerEvent) {
        handledEventCount += 1
        switch event {
        case .authorizationChanged(let status, _):
            authorizationChanged(to: status)
        case .locationsUpdated(let fixes):
            // The newest valid fix, if it is fresh: an old one is not "the current location".
            let newest = fixes.last(where: { $0.horizontalAccuracy >= 0 })?.userLocation
            finishLocationRequest(with: newest.flatMap { isFresh($0) ? $0 : nil })
        case .failed:
            finishLocationRequest(with: nil)
        }
    }

    private func authorizationChanged(to status: LocationPermissionStatus) {
        // The creation-time callback reports `.notDetermined` before anyone answered: not an answer.
        authorizationReported(status)
        if !status.isAuthorized {
            // A fix will not come any more; iOS would also fail the request with `denied`.
            finishLocationRequest(with: nil)
        }
        if let lastReportedStatus, lastReportedStatus != status {
            // In subscription order, so that who hears a change first never depends on hashing.
            for token in statusSubscribers.keys.sorted() { statusSubscribers[token]?.yield(status) }
        }
        lastReportedStatus = status
    }

    private func removeSubscriber(_ token: Int) {
        statusSubscribers[token] = nil
    }
}
