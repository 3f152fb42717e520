import AsyncSupport
import DeviceInterfaces
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
/// - On iOS 18 and later, given service sessions, it asks through them and reads live updates
///   instead of the manager's request calls (``ServiceSessionRequests``); nothing above it changes.
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
        /// How long `requestLocation()` waits for a fix (the startup-screen specification's 5 s).
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
            abs(now.timeIntervalSince(timestamp)) <= maximumCachedFixAge.timeInterval
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

    private enum Command: Sendable {
        case requestWhenInUseAuthorization
        case requestAlwaysAuthorization
        /// A fix request, numbered so that a session outcome names the request it belongs to.
        case requestLocation(LocationAccuracy, request: Int)
        case stopUpdatingLocation
        /// The authorization request ended, answered or not: its service session has done its work.
        case authorizationRoundEnded
    }

    /// The timeouts every wait of this service uses; one policy for the whole app.
    public nonisolated let configuration: Configuration
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let manager: any LocationManaging
    private let commands: AsyncStream<Command>.Continuation
    /// What a fix request made through service sessions came to, and which request it was (nil without
    /// sessions).
    private let sessionOutcomes: AsyncStream<ServiceSessionRequests.Outcome>?
    private var sessionOutcomeTask: Task<Void, Never>?

    private var tokens = 0
    /// The authorization request under way and its waiting callers (nil when none is waiting).
    private var authorizationRound: AuthorizationRound?
    /// How many callers wait for an authorization answer or a fix; lets tests see a wait begin.
    var authorizationWaiterCount: Int { authorizationRound?.waiters.pending.count ?? 0 }
    var locationWaiterCount: Int { locationWaiters.pending.count }
    /// The callers of the location request under way; a new table for each request.
    private var locationWaiters = Waiters<UserLocation?>()
    private var locationTimeoutTask: Task<Void, Never>?
    /// The location request whose timer may end the wait (nil when none is waiting).
    private(set) var locationRequest: Int?
    private var statusSubscribers = Subscribers<LocationPermissionStatus>()
    private var lastReportedStatus: LocationPermissionStatus?
    private var eventTask: Task<Void, Never>?
    /// How many manager events have been handled; lets tests wait for a callback to be processed.
    private(set) var handledEventCount = 0

    /// - Parameters:
    ///   - manager: The location manager; on iOS one created on the main thread.
    ///   - sessions: Service sessions and live updates (iOS 18 and later), or nil to ask through the
    ///     manager as on iOS 17.
    ///   - clock: The clock that bounds every wait (a `VirtualClock` in tests and in the simulator).
    ///   - now: The current date, to judge a cached fix's age; must agree with the fixes' timestamps.
    public init(
        manager: any LocationManaging,
        sessions: (any LocationServiceSessions)? = nil,
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
        let (outcomes, outcomeSink) = AsyncStream<ServiceSessionRequests.Outcome>.makeStream()
        self.sessionOutcomes = sessions == nil ? nil : outcomes
        Task { @MainActor in
            let viaSessions = sessions.map { ServiceSessionRequests(sessions: $0, outcomes: outcomeSink) }
            for await command in stream {
                switch command {
                case .requestWhenInUseAuthorization:
                    if let viaSessions { viaSessions.requestAuthorization(.whenInUse) } else { manager.requestWhenInUseAuthorization() }
                case .requestAlwaysAuthorization:
                    if let viaSessions { viaSessions.requestAuthorization(.always) } else { manager.requestAlwaysAuthorization() }
                case .requestLocation(let accuracy, let request):
                    // For the classic request; live updates have no accuracy setting (their first fix is
                    // the quick one of rule 14).
                    manager.desiredAccuracy = accuracy
                    if let viaSessions { viaSessions.requestLocation(request) } else { manager.requestLocation() }
                case .stopUpdatingLocation:
                    if let viaSessions { viaSessions.stopUpdatingLocation() } else { manager.stopUpdatingLocation() }
                case .authorizationRoundEnded:
                    viaSessions?.endAuthorizationSession()
                }
            }
            // The service is gone: nothing may stay held.
            viaSessions?.stopUpdatingLocation()
            viaSessions?.endAuthorizationSession()
            outcomeSink.finish()
        }
    }

    deinit {
        commands.finish()
        eventTask?.cancel()
        sessionOutcomeTask?.cancel()
        statusSubscribers.finishAll()
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
        return statusSubscribers.subscribe { [weak self] id in
            Task { await self?.removeSubscriber(id) }
        }
    }

    // MARK: - Internals shared by the request extensions

    private func nextToken() -> Int {
        tokens += 1
        return tokens
    }

    private func send(_ command: Command) {
        commands.yield(command)
    }

    private var currentStatus: LocationPermissionStatus {
        get async { await manager.authorizationStatus }
    }

    private var cachedFix: LocationFix? {
        get async { await manager.location }
    }

    /// Starts reading the manager's callbacks, once. Callbacks sent before are buffered by the stream
    /// and handled in order.
    private func startHandlingEvents() {
        guard eventTask == nil else { return }
        let events = manager.events
        eventTask = Task { [weak self] in
            for await event in events {
                guard let self else { return }
                await self.handle(event)
            }
        }
        guard let sessionOutcomes else { return }
        sessionOutcomeTask = Task { [weak self] in
            for await outcome in sessionOutcomes {
                guard let self else { return }
                await self.handle(outcome)
            }
        }
    }

    /// A session outcome ends only the request it belongs to: one of an ended request (sent before its
    /// stop reached the session) must not end a newer one.
    func handle(_ outcome: ServiceSessionRequests.Outcome) {
        guard outcome.request == locationRequest else { return }
        handle(outcome.event)
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
        case .failed, .fixUnavailable:
            // A diagnostic that says no fix will come ends the wait now rather than at the timeout.
            finishLocationRequest(with: nil)
        }
    }

    private func authorizationChanged(to status: LocationPermissionStatus) {
        // The creation-time callback reports `.notDetermined` before anyone answered: not an answer.
        authorizationReported(status)
        if !status.isAuthorized {
            // A fix will not come any more (iOS also fails a classic request with `denied`).
            finishLocationRequest(with: nil)
        }
        if let lastReportedStatus, lastReportedStatus != status {
            statusSubscribers.yield(status)
        }
        lastReportedStatus = status
    }

    private func removeSubscriber(_ id: Int) {
        statusSubscribers.unsubscribe(id)
    }
}

// MARK: - Authorization

/// What came of an authorization request (When-In-Use, or the upgrade of a While-Using grant to
/// Always): the status when the wait ended and whether iOS showed its prompt.
public struct AuthorizationAnswer: Sendable, Equatable {
    /// The status when the wait ended: for Always, `.authorizedAlways` after "Change to Always
    /// Allow", `.authorizedWhenInUse` when nothing changed.
    public var status: LocationPermissionStatus
    /// Whether iOS showed its prompt (the app resigned active while the request was pending). False
    /// means iOS ignored the request, as it does during an "Allow Once" grant: the once-per-install
    /// Always request was not used up.
    public var promptAppeared: Bool

    public init(status: LocationPermissionStatus, promptAppeared: Bool) {
        self.status = status
        self.promptAppeared = promptAppeared
    }
}

extension LocationService {
    /// Which authorization request a round of waiting belongs to.
    private enum AuthorizationKind: Sendable {
        case whenInUse, always

        /// Whether a reported status answers the request.
        func isAnswer(_ status: LocationPermissionStatus) -> Bool {
            switch self {
            case .whenInUse: status != .notDetermined
            case .always: status != .authorizedWhenInUse
            }
        }

        /// What a wait that ends without an answer reports: nothing changed.
        var unanswered: LocationPermissionStatus {
            switch self {
            case .whenInUse: .notDetermined
            case .always: .authorizedWhenInUse
            }
        }
    }

    /// One authorization request under way, and the callers waiting for its answer.
    private struct AuthorizationRound {
        let id: Int
        let kind: AuthorizationKind
        /// Resumed with the answer, or with nil when the caller's task is cancelled.
        let waiters = Waiters<AuthorizationAnswer?>()
        var timers: [Task<Void, Never>] = []
        /// The app resigned active after the request: iOS's prompt is (or was) up.
        var promptAppeared = false
        var isSettling = false
    }

    /// Asks for When-In-Use permission and waits for the person's real answer.
    ///
    /// Returns the current status at once when it is not `.notDetermined` (iOS would show nothing).
    /// Otherwise it makes the request and waits for a status other than `.notDetermined`, at most
    /// ``Configuration/authorizationTimeout``, or ``Configuration/settleDelay`` after the app is active
    /// again with the alert gone (``applicationDidBecomeActive()``); then, or on cancellation, it
    /// returns `.notDetermined`.
    public func requestWhenInUseAuthorization() async -> LocationPermissionStatus {
        startHandlingEvents()
        let status = await currentStatus
        guard status == .notDetermined, !Task.isCancelled else { return status }
        return await waitForAuthorization(.whenInUse).status
    }

    /// Asks to upgrade a While-Using grant to Always (rule 6) and waits for the outcome.
    ///
    /// Returns at once, with `promptAppeared == false`, unless the status is `.authorizedWhenInUse`.
    /// "Change to Always Allow" reports `.authorizedAlways`. "Keep Only While Using" sends no
    /// callback: the wait then ends ``Configuration/settleDelay`` after the app is active again
    /// (``applicationDidBecomeActive()``). When the app has not resigned active within
    /// ``Configuration/promptAppearanceTimeout``, iOS ignored the request (an "Allow Once" grant, or
    /// the once-per-install request already made) and the wait ends then. Never longer than
    /// ``Configuration/authorizationTimeout``; cancellation ends the caller's wait at once.
    public func requestAlwaysAuthorization() async -> AuthorizationAnswer {
        startHandlingEvents()
        let status = await currentStatus
        guard status == .authorizedWhenInUse, !Task.isCancelled else {
            return AuthorizationAnswer(status: status, promptAppeared: false)
        }
        // The manager already reads While Using, but its callback may not be handled yet: that answer
        // ends the When-In-Use round now, so this request never joins it.
        authorizationReported(status)
        return await waitForAuthorization(.always)
    }

    /// The app resigned active (SwiftUI's `inactive`): a system prompt took the screen, or the person
    /// is leaving. Tells a pending request that its prompt appeared.
    public func applicationWillResignActive() {
        authorizationRound?.promptAppeared = true
    }

    /// The app reached the background: iOS took any alert away unanswered, so a pending request ends
    /// now without an answer, and the next one asks again.
    public func applicationDidEnterBackground() {
        guard let round = authorizationRound, round.promptAppeared else { return }
        finishAuthorizationRequest(with: round.kind.unanswered)
    }

    /// The app is active again. A pending request whose prompt was up ends ``Configuration/settleDelay``
    /// later unless an answer comes first: "Keep Only While Using" sends none, and a prompt the app's
    /// trip to the background dismissed never will. The next request then asks iOS again instead of
    /// joining a wait for an alert that is gone.
    public func applicationDidBecomeActive() {
        guard var round = authorizationRound, round.promptAppeared, !round.isSettling else {
            return
        }
        round.isSettling = true
        round.timers.append(timer(after: configuration.settleDelay, round: round.id))
        authorizationRound = round
    }

    private func waitForAuthorization(_ kind: AuthorizationKind) async -> AuthorizationAnswer {
        if authorizationRound == nil { startAuthorizationRequest(kind) }
        guard let round = authorizationRound else {
            preconditionFailure("startAuthorizationRequest(_:) always starts a round")
        }
        let ticket = round.waiters.join()
        if let answer = await round.waiters.wait(ticket, cancelled: nil) { return answer }
        // Cancelled: the caller stops waiting at once with "no answer"; the last one to leave ends
        // the round's timers.
        let current = authorizationRound.flatMap { $0.id == round.id ? $0 : nil }
        if let current, current.waiters.isEmpty {
            for timer in current.timers { timer.cancel() }
            endAuthorizationRound()
        }
        let latest = current ?? round
        return AuthorizationAnswer(status: latest.kind.unanswered, promptAppeared: latest.promptAppeared)
    }

    /// Forgets the round under way; a service session that asked for it ends with it, answered or not
    /// (otherwise a held session would ask again by itself when the app next comes to the foreground).
    private func endAuthorizationRound() {
        authorizationRound = nil
        if sessionOutcomes != nil { send(.authorizationRoundEnded) }
    }

    private func startAuthorizationRequest(_ kind: AuthorizationKind) {
        var round = AuthorizationRound(id: nextToken(), kind: kind)
        round.timers.append(timer(after: configuration.authorizationTimeout, round: round.id))
        switch kind {
        case .whenInUse:
            authorizationRound = round
            send(.requestWhenInUseAuthorization)
        case .always:
            round.timers.append(timer(after: configuration.promptAppearanceTimeout, round: round.id, unlessPromptAppeared: true))
            authorizationRound = round
            send(.requestAlwaysAuthorization)
        }
    }

    /// A timer that ends round `round` without an answer at a deadline fixed now. With
    /// `unlessPromptAppeared` it ends it only if no prompt appeared by then.
    private func timer(after delay: Duration, round: Int, unlessPromptAppeared: Bool = false) -> Task<Void, Never> {
        let deadline = Deadline(after: delay, on: clock)
        return Task { [weak self] in
            do { try await deadline.wait() } catch { return }
            await self?.authorizationTimerFired(round: round, unlessPromptAppeared: unlessPromptAppeared)
        }
    }

    /// A timer of `round` fired. One that fired just as its round ended (its call was already on the
    /// way when it was cancelled) must not end a newer round.
    private func authorizationTimerFired(round: Int, unlessPromptAppeared: Bool) {
        guard let current = authorizationRound, current.id == round else { return }
        if unlessPromptAppeared, current.promptAppeared { return }
        finishAuthorizationRequest(with: current.kind.unanswered)
    }

    /// Ends the round under way if `status` answers it.
    private func authorizationReported(_ status: LocationPermissionStatus) {
        guard let round = authorizationRound, round.kind.isAnswer(status) else { return }
        finishAuthorizationRequest(with: status)
    }

    /// Resumes every caller waiting for an answer, once each.
    private func finishAuthorizationRequest(with status: LocationPermissionStatus) {
        guard let round = authorizationRound else { return }
        endAuthorizationRound()
        for timer in round.timers { timer.cancel() }
        round.waiters.resumeAll(returning: AuthorizationAnswer(status: status, promptAppeared: round.promptAppeared))
    }
}

// MARK: - Location

extension LocationService {
    /// One current location, or nil.
    ///
    /// Nil when not authorized (the manager is not touched), on a failure, when no fix comes within
    /// ``Configuration/locationTimeout``, when the calling task is cancelled, and when the request
    /// delivers only a fix older than ``Configuration/maximumCachedFixAge``. A cached fix no older than
    /// that is returned at once. Callers that arrive while a
    /// request is in flight share its outcome.
    public func requestLocation() async -> UserLocation? {
        startHandlingEvents()
        guard !Task.isCancelled, await currentStatus.isAuthorized else { return nil }
        if let cached = await cachedFix?.userLocation, isFresh(cached) { return cached }
        guard !Task.isCancelled else { return nil }
        // Callers that arrive while a request is in flight join its table.
        let waiters = locationWaiters
        let ticket = waiters.join()
        if locationRequest == nil { startLocationRequest() }
        let fix = await waiters.wait(ticket, cancelled: nil)
        // Cancelled while the request is still this one's: the last caller to leave stops it.
        if Task.isCancelled, waiters === locationWaiters, locationRequest != nil, waiters.isEmpty {
            endLocationRequest()
            send(.stopUpdatingLocation)
        }
        return fix
    }

    /// Whether `location` is no older than ``Configuration/maximumCachedFixAge``.
    private func isFresh(_ location: UserLocation) -> Bool {
        configuration.isFresh(fixTakenAt: location.timestamp, now: now())
    }

    private func startLocationRequest() {
        locationTimeoutTask?.cancel()
        let deadline = Deadline(after: configuration.locationTimeout, on: clock)
        let request = nextToken()
        locationRequest = request
        locationTimeoutTask = Task { [weak self] in
            do { try await deadline.wait() } catch { return }
            await self?.locationRequestTimedOut(request)
        }
        send(.requestLocation(configuration.desiredAccuracy, request: request))
    }

    /// The timer of `request` fired; one that fired as its request ended must not end a newer one.
    private func locationRequestTimedOut(_ request: Int) {
        guard request == locationRequest, !locationWaiters.isEmpty else { return }
        send(.stopUpdatingLocation)
        finishLocationRequest(with: nil)
    }

    /// Resumes every caller waiting for a fix, once each. An outcome with nobody waiting is dropped.
    private func finishLocationRequest(with location: UserLocation?) {
        let waiters = locationWaiters
        // However it ended, live updates and their session end with it; the classic request ends by
        // itself with its one outcome (and is stopped where it must be). Stopping twice does nothing.
        if sessionOutcomes != nil, locationRequest != nil { send(.stopUpdatingLocation) }
        endLocationRequest()
        waiters.resumeAll(returning: location)
    }

    /// Forgets the request under way: its timer, its id and its table of callers.
    private func endLocationRequest() {
        locationWaiters = Waiters()
        locationTimeoutTask?.cancel()
        locationTimeoutTask = nil
        locationRequest = nil
    }
}
