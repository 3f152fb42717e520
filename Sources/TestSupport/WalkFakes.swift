import AsyncSupport
import DeviceInterfaces
import Foundation
import Observation
import PetSpotDomain

/// Location for a walk, pushed by the test.
@MainActor
public final class FakeWalkLocation: WalkLocationTracking {
    public final class Activity: BackgroundActivity {
        public private(set) var isValid = true
        public func invalidate() { isValid = false }
    }

    public private(set) var activities: [Activity] = []
    private var continuation: AsyncStream<LocationUpdate>.Continuation?

    public init() {}

    public func beginBackgroundActivity() -> any BackgroundActivity {
        let activity = Activity()
        activities.append(activity)
        return activity
    }

    public func walkUpdates() -> AsyncStream<LocationUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(of: LocationUpdate.self)
        self.continuation = continuation
        return stream
    }

    /// Whether the app asked iOS to relaunch it (the significant-change service is on).
    public private(set) var monitorsForRelaunch = false

    public func startRelaunchMonitoring() { monitorsForRelaunch = true }

    public func stopRelaunchMonitoring() { monitorsForRelaunch = false }

    public func send(_ fix: UserLocation) {
        continuation?.yield(LocationUpdate(location: LocationFix(
            latitude: fix.latitude, longitude: fix.longitude, horizontalAccuracy: fix.horizontalAccuracy, timestamp: fix.timestamp)))
    }
}

/// Motion for a walk, pushed by the test.
@MainActor
public final class FakeWalkMotion: WalkMotionTracking {
    public private(set) var stepsFrom: Date?
    private var activity: AsyncStream<MotionActivity>.Continuation?
    private var steps: AsyncStream<Int>.Continuation?

    public init() {}

    public func activityUpdates() -> AsyncStream<MotionActivity> {
        let (stream, continuation) = AsyncStream.makeStream(of: MotionActivity.self)
        activity = continuation
        return stream
    }

    public func stepUpdates(from start: Date) -> AsyncStream<Int> {
        stepsFrom = start
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        steps = continuation
        return stream
    }

    public func send(_ activity: MotionActivity) { self.activity?.yield(activity) }
    public func send(steps count: Int) { steps?.yield(count) }
}

/// Health that saves, or refuses with `refusal`; with `holdsSaves`, a save answers only at
/// ``releaseHeldSaves()`` (as a process that ends mid-save never hears the answer).
@MainActor
@Observable
public final class FakeWorkouts: WorkoutSaving {
    public var refusal: WorkoutSaveError?
    public var holdsSaves = false
    /// Every save asked for, answered or not.
    public private(set) var attempts: [WalkWorkout] = []
    public private(set) var saved: [WalkWorkout] = []
    @ObservationIgnored private let held = Waiters<Void>()

    public init(refusal: WorkoutSaveError? = nil) {
        self.refusal = refusal
    }

    public func saveWalk(_ workout: WalkWorkout) async throws(WorkoutSaveError) {
        attempts.append(workout)
        if holdsSaves {
            await held.wait(cancelled: ())
            throw .failed("no answer: the process ended")
        }
        if let refusal { throw refusal }
        saved.append(workout)
    }

    /// Ends every held save (each then fails).
    public func releaseHeldSaves() {
        held.resumeAll(returning: ())
    }
}

/// Waits until `condition` holds, woken by every change Observation sees in what it reads; false if
/// 30 seconds pass first (a deadline fixed when the wait begins) or the test is cancelled.
///
/// The deadline only ends a wait that would never end; it is long because work that hops off the
/// main actor (a `nonisolated async` adapter) waits for a thread of the shared pool, which the
/// whole suite's CPU-bound tests can hold for seconds on a two-core machine.
@MainActor
public func waitUntilObserved(_ condition: @escaping @MainActor () -> Bool) async -> Bool {
    let observer = ChangeObserver(condition)
    observer.observe()
    return await observer.waiters.wait(until: condition, orUntil: Deadline(after: .seconds(30), on: ContinuousClock()))
}

/// Tells waiters of every change to what a condition reads, re-arming after each.
@MainActor
private final class ChangeObserver {
    let waiters = ConditionWaiters()
    private let condition: @MainActor () -> Bool

    init(_ condition: @escaping @MainActor () -> Bool) {
        self.condition = condition
    }

    func observe() {
        withObservationTracking { _ = condition() } onChange: { [weak self] in
            // onChange runs before the change is made; the hop lets it land first.
            Task { @MainActor in
                self?.waiters.changed()
                self?.observe()
            }
        }
    }
}
