import AsyncSupport
import DeviceInterfaces
import Foundation
import Observation
import PetSpotDomain

/// Records walks: runs ``WalkMachine`` and performs its effects on the phone — location updates under
/// a background activity session, Motion's activity and pedometer, the painted town kept, the walk
/// saved to Health.
///
/// It asks for nothing: the app decides whether a walk may start (location allowed) and whether it
/// pauses itself (Motion allowed), and says so in ``start(autoPause:)``.
@MainActor
@Observable
public final class WalkModel {
    /// What the walk did and what became of it, for the app's log. Never a coordinate.
    public enum Event: Hashable, Sendable {
        case walk(WalkMachine.Logged)
        /// Health saved the ended walk as a workout with its route.
        case workoutSaved
        /// Health did not take it; the walk is kept in the app all the same.
        case workoutNotSaved(WorkoutSaveError)
    }

    /// The walk under way, or the last one.
    public private(set) var state: WalkMachine.State
    /// Every walk recorded, newest last, as kept across launches.
    public private(set) var walks: [StoredWalk]
    /// Receives every ``Event`` as it happens.
    @ObservationIgnored public var onEvent: (@MainActor (Event) -> Void)?

    @ObservationIgnored private let location: any WalkLocationTracking
    @ObservationIgnored private let motion: (any WalkMotionTracking)?
    @ObservationIgnored private let workouts: (any WorkoutSaving)?
    @ObservationIgnored private let storage: any WalkStorage
    @ObservationIgnored private let now: @Sendable () -> Date
    @ObservationIgnored private var backgroundActivity: (any BackgroundActivity)?
    @ObservationIgnored private var locationTask: Task<Void, Never>?
    @ObservationIgnored private var motionTasks: [Task<Void, Never>] = []
    @ObservationIgnored private lazy var runner: EffectRunner<WalkMachine.Event, WalkMachine.Effect, WalkMachine.Logged> = {
        // Unowned: the runner is this model's own and never outlives it.
        let runner = EffectRunner(step: { [unowned self] in step($0) }, perform: { [unowned self] in perform($0) })
        runner.onLog = { [unowned self] in onEvent?(.walk($0)) }
        return runner
    }()

    /// - Parameters:
    ///   - motion: activity and pedometer, or nil in an app built without Motion.
    ///   - workouts: Health, or nil in an app built without HealthKit.
    ///   - now: the present date, on the clock the fixes are stamped with.
    public init(
        location: any WalkLocationTracking,
        motion: (any WalkMotionTracking)?,
        workouts: (any WorkoutSaving)?,
        storage: any WalkStorage,
        configuration: WalkMachine.Configuration = WalkMachine.Configuration(),
        now: @escaping @Sendable () -> Date
    ) {
        self.location = location
        self.motion = motion
        self.workouts = workouts
        self.storage = storage
        self.now = now
        state = WalkMachine.State(painted: storage.paintedCells, configuration: configuration)
        walks = storage.walks
    }

    isolated deinit {
        locationTask?.cancel()
        for task in motionTasks { task.cancel() }
        backgroundActivity?.invalidate()
    }

    /// Starts a walk; `autoPause` when Motion & Fitness is allowed (and this app has Motion).
    public func start(autoPause: Bool) {
        runner.send(.start(at: now(), autoPause: autoPause && motion != nil))
    }

    public func pause() { runner.send(.pause(at: now())) }

    public func resume() { runner.send(.resume(at: now())) }

    public func end() { runner.send(.end(at: now())) }

    /// The app leaves the foreground: the walk under way is kept now, as iOS may end the app from
    /// here on without warning (rule 35).
    public func leftForeground() { runner.send(.leftForeground) }

    /// Goes on with the walk that was under way when the app's last process ended (iOS ended it, or
    /// it crashed), if one was: called as the app launches, in use or in the background (rule 35).
    /// A walk whose save to Health never answered is saved again first.
    public func restore() {
        runner.send(.launched)
        guard let kept = storage.walkInProgress else {
            // Nothing to go on with (or nothing readable): iOS must not relaunch the app for it.
            location.stopRelaunchMonitoring()
            return
        }
        runner.send(.restore(kept, at: now()))
    }

    /// Returns once every save to Health under way has answered.
    public func waitUntilIdle() async {
        await runner.waitUntilIdle()
    }

    private func step(_ event: WalkMachine.Event) -> WalkMachine.Step {
        WalkMachine.step(&state, event)
    }

    private func perform(_ effect: WalkMachine.Effect) -> (@MainActor () async -> Void)? {
        switch effect {
        case .startLocationUpdates:
            // Begun here, while the person is in the app starting the walk, as iOS requires; on a
            // launch in the background, at once, as iOS expects of a relaunched app (rule 35).
            backgroundActivity = location.beginBackgroundActivity()
            location.startRelaunchMonitoring()
            let updates = location.walkUpdates()
            locationTask = Task { [weak self] in
                for await update in updates {
                    guard let fix = update.location?.userLocation else { continue }
                    self?.runner.send(.located(fix))
                }
            }
        case .stopLocationUpdates:
            locationTask?.cancel()
            locationTask = nil
            backgroundActivity?.invalidate()
            backgroundActivity = nil
            location.stopRelaunchMonitoring()
        case .startMotionUpdates:
            guard let motion, let start = state.startedAt else { return nil }
            let activities = motion.activityUpdates()
            let steps = motion.stepUpdates(from: start)
            motionTasks = [
                Task { [weak self] in
                    for await activity in activities { self?.runner.send(.activity(activity)) }
                },
                Task { [weak self] in
                    for await count in steps { self?.runner.send(.stepsCounted(count)) }
                },
            ]
        case .stopMotionUpdates:
            for task in motionTasks { task.cancel() }
            motionTasks = []
        case .keepWalk(let kept):
            storage.walkInProgress = kept
        case .finish(let summary):
            // Kept first: whatever Health says, nothing of the walk is lost.
            storage.paintedCells = state.painted
            walks.append(StoredWalk(summary))
            storage.walks = walks
            storage.walkInProgress = nil
            let index = walks.count - 1
            return { [weak self] in await self?.save(at: index) }
        case .resumeUnansweredSaves:
            let unanswered = walks.indices.filter { walks[$0].savedToHealth == nil }
            guard !unanswered.isEmpty else { return nil }
            return { [weak self] in
                for index in unanswered { await self?.save(at: index) }
            }
        }
        return nil
    }

    /// Saves the kept walk at `index` to Health and keeps what Health answered. Made again at the
    /// next launch if this process ends first; the walk's sync identifier makes the second save
    /// replace whatever the first left in Health.
    private func save(at index: Int) async {
        let walk = walks[index]
        let workout = WalkWorkout(
            start: walk.startedAt, end: walk.endedAt, distanceMetres: walk.distanceMetres, steps: walk.steps,
            route: walk.route.map { segment in segment.compactMap(\.fix) },
            syncIdentifier: walk.syncIdentifier,
            // Milliseconds of the attempt: a later save of the same walk has a greater version, unless
            // the phone's clock was set back between the two, when Health keeps the first attempt's.
            syncVersion: Int((now().timeIntervalSince1970 * 1000).rounded())
        )
        let outcome: Event
        do {
            guard let workouts else { throw WorkoutSaveError.unavailable }
            try await workouts.saveWalk(workout)
            outcome = .workoutSaved
        } catch let error as WorkoutSaveError {
            outcome = .workoutNotSaved(error)
        } catch {
            outcome = .workoutNotSaved(.failed(String(describing: error)))
        }
        walks[index].savedToHealth = outcome == .workoutSaved
        storage.walks = walks
        onEvent?(outcome)
    }
}
