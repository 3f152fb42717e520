import AsyncSupport
import DeviceInterfaces
import Foundation
import PetSpotDomain

extension DeviceConfiguration {
    /// A walk the person takes with the phone: a route walked at a pace, and what Motion sees on it.
    public struct Walk: Sendable {
        /// The route, in order; the person walks it once and stays at its end.
        public var path: [GeoCoordinate]
        public var speedMetresPerSecond: Double
        /// Changes of activity, each from its offset after the person sets off; walking before the first.
        /// While stationary the person does not move.
        public var activity: [(after: Duration, kind: MotionActivity.Kind)]
        /// How often live updates deliver a fix while the person walks.
        public var fixInterval: Duration
        /// Each fix's horizontal accuracy, in metres.
        public var fixAccuracy: Double
        /// The pedometer's steps per metre walked (a stride of about 74 cm).
        public var stepsPerMetre: Double

        public init(
            path: [GeoCoordinate],
            speedMetresPerSecond: Double = 1.4,
            activity: [(after: Duration, kind: MotionActivity.Kind)] = [],
            fixInterval: Duration = .seconds(1),
            fixAccuracy: Double = 5,
            stepsPerMetre: Double = 1.35
        ) {
            self.path = path
            self.speedMetresPerSecond = speedMetresPerSecond
            self.activity = activity
            self.fixInterval = fixInterval
            self.fixAccuracy = fixAccuracy
            self.stepsPerMetre = stepsPerMetre
        }
    }
}

/// The walk on the device: the person walking a route (``DeviceConfiguration/Walk``), and what the
/// app's walk sees of it — live updates under a background activity session (rule 32), Motion's
/// activity and pedometer (rule 33), and Health saving the workout (rule 34).
extension SimulatedDevice {
    /// The app's location for a walk (`CLBackgroundActivitySession`, `CLLocationUpdate.liveUpdates`).
    public var walkLocation: SimulatedWalkLocation {
        catchUp()
        return walkSubsystem.location
    }

    /// The app's activity updates and pedometer.
    public var walkMotion: SimulatedWalkMotion {
        catchUp()
        return walkSubsystem.motion
    }

    /// The app's workout saving.
    public var workouts: SimulatedWorkouts {
        catchUp()
        return walkSubsystem.workouts
    }

    /// The person sets off along the configured walk now.
    /// - Throws: ``SimulatedDeviceError/noWalkConfigured``.
    public func setOff() throws(SimulatedDeviceError) {
        catchUp()
        guard let walk = configuration.walk, !walk.path.isEmpty else { throw .noWalkConfigured }
        walkSubsystem.setOff(at: currentElapsed)
    }

    /// Where the person is now: the walk's start until they set off, then along its route.
    public var walkerPosition: GeoCoordinate? {
        catchUp()
        return walkSubsystem.position(at: currentElapsed)
    }

    var walkSubsystem: WalkSubsystem {
        subsystem(WalkSubsystem.self) { WalkSubsystem(device: self) }
    }
}

/// The person's walk and the app's three walk interfaces, ticking once per fix interval.
@MainActor
final class WalkSubsystem: DeviceSubsystem {
    private unowned let device: SimulatedDevice
    let location: SimulatedWalkLocation
    let motion: SimulatedWalkMotion
    let workouts: SimulatedWorkouts
    private var setOffAt: Duration?
    private var ticking: DeviceScheduler.JobID?
    /// The significant-change service (rule 35): where and when it last reported — its start, or the
    /// app's last relaunch — while the app has it on. iOS keeps it across the app's processes.
    private var relaunchReference: (position: GeoCoordinate, at: Duration)?
    /// Whether iOS ended the app to reclaim memory and has not launched it since.
    private var reclaimed = false
    /// When iOS last launched the app into the background, while that process runs (rule 35).
    private(set) var relaunchedAt: Duration?
    /// How soon after a launch into the background the app must make its sessions again for iOS to
    /// count them (rule 35): "within a few seconds of launch".
    static let sessionRejoinWindow: Duration = .seconds(5)
    private var watching: DeviceScheduler.JobID?

    /// Rule 35: the significant-change service reports a move of this many metres or more…
    static let significantChangeMetres = 500.0
    /// …and no sooner than this after its last report.
    static let significantChangeInterval: Duration = .seconds(300)

    init(device: SimulatedDevice) {
        self.device = device
        location = SimulatedWalkLocation()
        motion = SimulatedWalkMotion()
        workouts = SimulatedWorkouts()
        location.subsystem = self
        motion.subsystem = self
        workouts.subsystem = self
        workouts.health = { [unowned device] in device.healthSubsystem.health }
    }

    var walk: DeviceConfiguration.Walk? { device.configuration.walk }
    var phase: ScenePhase { device.phase }
    var now: Date { device.time.date(at: device.currentElapsed) }
    var elapsed: Duration { device.currentElapsed }

    func record(_ detail: String) {
        device.record(.subsystem(name: "walk", detail: detail))
    }

    func setOff(at elapsed: Duration) {
        setOffAt = elapsed
        record("setOff")
        startTicking()
    }

    /// Whether the app's process runs now: in use, or in the background while a background activity
    /// session is active (rule 32) or, launched there by iOS with Always, while it reads live updates
    /// (rule 35). A suspended or ended app receives nothing.
    var appRuns: Bool {
        switch phase {
        case .active, .inactive: true
        case .background:
            location.hasActiveSession
                || (relaunchedAt != nil && device.location.status == .authorizedAlways && location.hasConsumers)
        case .notRunning: false
        }
    }

    /// Whether location may be delivered to the app now (rule 32). From iOS 18, with
    /// `NSLocationRequireExplicitServiceSession`, only while the app holds a session: the walk's
    /// holds one beside its background activity (rule 31).
    var locationFlows: Bool {
        let explicit = device.configuration.supportsServiceSessions
            && device.infoPlistKeys.contains(ServiceSessionAuthorization.requireExplicitSessionKey)
        return appRuns && device.location.servicesEnabled && device.location.status.isAuthorized
            && (!explicit || location.holdsSession)
    }

    /// Whether Motion may deliver now (rule 33).
    var motionFlows: Bool {
        appRuns && device.motionSubsystem.motion.authorizationStatus == .authorized
            && device.motionSubsystem.motion.isActivityAvailable
    }

    func startTicking() {
        guard ticking == nil, let walk else { return }
        ticking = device.schedule(after: walk.fixInterval) { [weak self] in
            self?.ticking = nil
            self?.tick()
        }
    }

    /// One fix interval: the app's consumers hear what may reach them now.
    private func tick() {
        let elapsed = device.currentElapsed
        if locationFlows, let point = position(at: elapsed), let walk {
            location.deliver(LocationFix(
                latitude: point.latitude, longitude: point.longitude, horizontalAccuracy: walk.fixAccuracy, timestamp: now))
        }
        if motionFlows {
            motion.deliver(activity: activity(at: elapsed), steps: { [weak self] since in self?.steps(since: since) ?? 0 })
        }
        if location.hasConsumers || motion.hasConsumers { startTicking() }
    }

    /// The activity at `elapsed`: walking from setting off, then each configured change in turn.
    func activity(at elapsed: Duration) -> MotionActivity? {
        guard let setOffAt, let walk else { return nil }
        var current = MotionActivity(.walking, confidence: .high, at: device.time.date(at: setOffAt))
        for change in walk.activity where setOffAt + change.after <= elapsed {
            current = MotionActivity(change.kind, confidence: .high, at: device.time.date(at: setOffAt + change.after))
        }
        return current
    }

    /// Metres walked between setting off and `elapsed`: the time spent not stationary, at the pace.
    func metresWalked(until elapsed: Duration) -> Double {
        guard let setOffAt, let walk, elapsed > setOffAt else { return 0 }
        var moving = Duration.zero
        var from = setOffAt
        var stationary = false
        for change in walk.activity.sorted(by: { $0.after < $1.after }) {
            let at = min(elapsed, setOffAt + change.after)
            if !stationary, at > from { moving += at - from }
            from = max(from, at)
            stationary = change.kind == .stationary
        }
        if !stationary, elapsed > from { moving += elapsed - from }
        return min(moving.timeInterval * walk.speedMetresPerSecond, Self.length(of: walk.path))
    }

    /// Steps the pedometer counts from `since` to now.
    func steps(since: Date) -> Int {
        guard let walk else { return 0 }
        let start = Duration.seconds(since.timeIntervalSince(device.configuration.epoch))
        let metres = metresWalked(until: device.currentElapsed) - metresWalked(until: start)
        return Int((metres * walk.stepsPerMetre).rounded(.down))
    }

    /// Where the person is at `elapsed`.
    func position(at elapsed: Duration) -> GeoCoordinate? {
        guard let walk, let first = walk.path.first else { return nil }
        var left = metresWalked(until: elapsed)
        for (from, to) in zip(walk.path, walk.path.dropFirst()) {
            let leg = from.distance(to: to)
            if left <= leg { return leg == 0 ? from : from.interpolated(to: to, fraction: left / leg) }
            left -= leg
        }
        return walk.path.last ?? first
    }

    static func length(of path: [GeoCoordinate]) -> Double {
        zip(path, path.dropFirst()).reduce(0) { $0 + $1.0.distance(to: $1.1) }
    }

    func appWillTerminate() {
        relaunchedAt = nil
        location.appEnded()
        motion.appEnded()
    }

    // MARK: Rule 35: iOS ends the app, and may relaunch it

    func relaunchMonitoringChanged(on: Bool) {
        guard on else {
            guard relaunchReference != nil else { return }
            relaunchReference = nil
            if let watching { device.scheduler.cancel(watching) }
            watching = nil
            record("significantChangesStopped")
            return
        }
        guard relaunchReference == nil, let here = position(at: device.currentElapsed) else { return }
        relaunchReference = (here, device.currentElapsed)
        record("significantChangesStarted")
        watchSignificantChanges()
    }

    func appWasReclaimed() {
        reclaimed = true
    }

    /// Each fix interval while the service is on, whether the app runs or not: once the person is far
    /// enough from where it last reported, and long enough after, it reports again. A report finds the
    /// app ended by iOS: iOS launches it into the background, with Always only.
    private func watchSignificantChanges() {
        guard watching == nil, let walk else { return }
        watching = device.schedule(after: walk.fixInterval) { [weak self] in
            guard let self else { return }
            watching = nil
            guard let reference = relaunchReference else { return }
            let elapsed = device.currentElapsed
            let location = device.location
            if location.servicesEnabled, location.status.isAuthorized,
                elapsed - reference.at >= Self.significantChangeInterval,
                let here = position(at: elapsed), here.distance(to: reference.position) >= Self.significantChangeMetres
            {
                relaunchReference = (here, elapsed)
                record("significantChange")
                if reclaimed, phase == .notRunning, location.status == .authorizedAlways {
                    reclaimed = false
                    relaunchedAt = elapsed
                    device.launchInBackground(reason: "significantLocationChange")
                }
            }
            // At the end of the route, too near the last report for another: no report can come.
            if let walked = relaunchReference, metresWalked(until: elapsed) >= Self.length(of: walk.path),
                let here = position(at: elapsed), here.distance(to: walked.position) < Self.significantChangeMetres
            {
                return
            }
            watchSignificantChanges()
        }
    }

    func appDidLaunch() {
        reclaimed = false
        relaunchedAt = nil
    }

    /// The person opens the process iOS launched: from now on it is theirs, and suspended again without
    /// a session once they leave it (rule 32).
    func appWillEnterForeground() {
        relaunchedAt = nil
    }
}

/// The app's `CLBackgroundActivitySession` and `CLLocationUpdate.liveUpdates(.fitness)` on the
/// simulated iPhone (rule 32).
@MainActor
public final class SimulatedWalkLocation: WalkLocationTracking {
    weak var subsystem: WalkSubsystem?
    private var sessions: [SimulatedBackgroundActivity] = []
    private var consumers = Subscribers<LocationUpdate>()

    nonisolated init() {}

    /// Whether the app holds a background activity session that became active.
    public var hasActiveSession: Bool { sessions.contains { $0.isActive } }

    /// Whether the app holds a session iOS counts: an active one, or one a process iOS launched into
    /// the background made again at once (rule 35). One begun in the background otherwise does not
    /// count (rule 31: insufficiently in use).
    var holdsSession: Bool { sessions.contains { $0.isActive || ($0.rejoined && !$0.isInvalidated) } }

    /// `startMonitoringSignificantLocationChanges()` (rule 35).
    public func startRelaunchMonitoring() {
        subsystem?.relaunchMonitoringChanged(on: true)
    }

    /// `stopMonitoringSignificantLocationChanges()`.
    public func stopRelaunchMonitoring() {
        subsystem?.relaunchMonitoringChanged(on: false)
    }

    var hasConsumers: Bool { consumers.count > 0 }

    public func beginBackgroundActivity() -> any BackgroundActivity {
        // Rule 32: a session becomes active only while the app is in use, and only in an app that
        // declares the location background mode.
        let inUse = subsystem?.phase == .active || subsystem?.phase == .inactive
        let session = SimulatedBackgroundActivity(isActive: inUse, owner: self)
        // Rule 35: made again within seconds of a launch into the background, iOS counts it.
        if !inUse, let subsystem, let relaunched = subsystem.relaunchedAt,
            subsystem.elapsed - relaunched <= WalkSubsystem.sessionRejoinWindow
        {
            session.rejoined = true
        }
        sessions.append(session)
        let outcome =
            inUse ? "backgroundActivityStarted"
            : session.rejoined ? "backgroundActivityRejoined (relaunched)" : "backgroundActivityRefused (not in use)"
        subsystem?.record(outcome)
        return session
    }

    public func walkUpdates() -> AsyncStream<LocationUpdate> {
        let stream = consumers.subscribe { id in
            Task { @MainActor [weak self] in self?.consumers.unsubscribe(id) }
        }
        subsystem?.record("liveUpdatesStarted")
        subsystem?.startTicking()
        return stream
    }

    func deliver(_ fix: LocationFix) {
        guard consumers.count > 0 else { return }
        // Never the coordinates, in this log either.
        subsystem?.record("fixDelivered")
        consumers.yield(LocationUpdate(location: fix))
    }

    func ended(_ session: SimulatedBackgroundActivity) {
        subsystem?.record("backgroundActivityEnded")
    }

    func appEnded() {
        for session in sessions {
            session.isActive = false
            session.isInvalidated = true
        }
        sessions = []
        consumers.finishAll()
    }
}

/// A `CLBackgroundActivitySession` on the simulated iPhone.
@MainActor
public final class SimulatedBackgroundActivity: BackgroundActivity {
    /// Active from its start in the foreground until invalidated; never active again after that.
    public fileprivate(set) var isActive: Bool
    public fileprivate(set) var isInvalidated = false
    /// Made again at once by a process iOS launched into the background (rule 35).
    public fileprivate(set) var rejoined = false
    private weak var owner: SimulatedWalkLocation?

    fileprivate init(isActive: Bool, owner: SimulatedWalkLocation) {
        self.isActive = isActive
        self.owner = owner
    }

    public func invalidate() {
        guard !isInvalidated else { return }
        isInvalidated = true
        let wasActive = isActive
        isActive = false
        if wasActive { owner?.ended(self) }
    }
}

/// The app's `CMMotionActivityManager` activity updates and `CMPedometer` on the simulated iPhone
/// (rule 33).
@MainActor
public final class SimulatedWalkMotion: WalkMotionTracking {
    weak var subsystem: WalkSubsystem?
    private var activities = Subscribers<MotionActivity>()
    private var lastActivity: MotionActivity?
    private var pedometers: [Int: Pedometer] = [:]
    private var pedometersMade = 0

    /// One `startUpdates(from:)` of the pedometer, until its consumer stops.
    private struct Pedometer {
        var since: Date
        var continuation: AsyncStream<Int>.Continuation
        var last: Int?
    }

    nonisolated init() {}

    var hasConsumers: Bool { activities.count > 0 || !pedometers.isEmpty }

    public func activityUpdates() -> AsyncStream<MotionActivity> {
        lastActivity = nil
        let stream = activities.subscribe { id in
            Task { @MainActor [weak self] in self?.activities.unsubscribe(id) }
        }
        subsystem?.startTicking()
        return stream
    }

    public func stepUpdates(from start: Date) -> AsyncStream<Int> {
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        pedometersMade += 1
        let id = pedometersMade
        pedometers[id] = Pedometer(since: start, continuation: continuation, last: nil)
        continuation.onTermination = { _ in
            Task { @MainActor [weak self] in self?.pedometers[id] = nil }
        }
        subsystem?.startTicking()
        return stream
    }

    /// The current activity when it changed since the last delivery (the first delivery always), and
    /// each pedometer's count when it changed.
    func deliver(activity: MotionActivity?, steps: (Date) -> Int) {
        if let activity, activity != lastActivity, activities.count > 0 {
            lastActivity = activity
            subsystem?.record("activity \(activity.kind.rawValue)")
            activities.yield(activity)
        }
        // In the order they were started, so that the log reads the same on every run.
        for id in pedometers.keys.sorted() {
            guard let pedometer = pedometers[id] else { continue }
            let count = steps(pedometer.since)
            guard count != pedometer.last else { continue }
            pedometers[id]?.last = count
            subsystem?.record("steps \(count)")
            pedometer.continuation.yield(count)
        }
    }

    func appEnded() {
        activities.finishAll()
        for pedometer in pedometers.values { pedometer.continuation.finish() }
        pedometers = [:]
    }
}

/// Health's workout store on the simulated iPhone (rule 34): it saves a walk only when the app may
/// save workouts, and a workout whose sync identifier it already holds replaces it only with a
/// greater sync version (`HKMetadataKeySyncIdentifier`, `HKMetadataKeySyncVersion`).
@MainActor
public final class SimulatedWorkouts: WorkoutSaving {
    weak var subsystem: WalkSubsystem?
    var health: (() -> SimulatedHealth)?
    /// The workouts saved, in order.
    public private(set) var saved: [WalkWorkout] = []

    nonisolated init() {}

    public func saveWalk(_ workout: WalkWorkout) async throws(WorkoutSaveError) {
        guard let health = health?() else { throw .unavailable }
        guard health.isHealthDataAvailable else { throw .unavailable }
        guard health.authorizationStatus(for: .workout) == .sharingAuthorized,
            health.authorizationStatus(for: .workoutRoute) == .sharingAuthorized
        else {
            subsystem?.record("workoutRefused (not authorized)")
            throw .notAuthorized
        }
        if let existing = saved.firstIndex(where: { $0.syncIdentifier == workout.syncIdentifier }) {
            // Saved already: a greater version replaces it; any other keeps what Health has.
            if workout.syncVersion > saved[existing].syncVersion { saved[existing] = workout }
        } else {
            saved.append(workout)
        }
        subsystem?.record("workoutSaved")
    }
}
