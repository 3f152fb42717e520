import ConcurrencyExtras

/// A clock that moves only when its driver (a scenario replay or a test) moves it, and that tells the
/// driver when its next sleeper is due — what the driver needs to step from one wake-up to the next
/// exactly.
///
/// Whatever the order in which tasks run, a sleep ends once the clock has reached its deadline: the
/// check "is the deadline past?" and the registration of the sleeper happen under one lock, so a
/// sleeper whose task only reaches `sleep(until:)` after the clock moved past (or exactly to) its
/// deadline returns at once instead of waiting for a tick that will never come. (swift-clocks'
/// `TestClock` keeps such a sleeper, whose deadline equals `now`, until the next advance: a test that
/// advances exactly to a timeout then hangs whenever the timer's task ran late.) Code under test
/// fixes its deadlines when it starts waiting (``Deadline``), so moving the clock early is harmless.
public final class VirtualClock: Clock, Sendable {
    public struct Instant: InstantProtocol, Hashable {
        public var offset: Duration

        public init(offset: Duration) {
            self.offset = offset
        }

        public func advanced(by duration: Duration) -> Self { Self(offset: offset + duration) }
        public func duration(to other: Self) -> Duration { other.offset - offset }
        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Sleeper {
        let id: Int
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var nextID = 0
    }

    private let state = LockIsolated(State())

    public init() {}

    public var now: Instant { state.value.now }
    public var minimumResolution: Duration { .zero }

    /// How many sleeps were ever started; grows with every one, so a driver can tell activity.
    public var sleepCount: Int { state.value.nextID }

    /// The earliest deadline anyone sleeps until, or nil when nobody sleeps.
    public var nextDeadline: Instant? {
        state.value.sleepers.map(\.deadline).min()
    }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withValue { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Checked under the lock that the cancellation handler also takes: either the handler
                // ran before (and the task is already marked cancelled) or it will find the sleeper.
                let outcome = state.withValue { state -> Result<Bool, CancellationError> in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(true) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .success(false)
                }
                switch outcome {
                case .failure(let error): continuation.resume(throwing: error)
                case .success(true): continuation.resume()
                case .success(false): break
                }
            }
        } onCancel: {
            let sleeper = state.withValue { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration` and wakes everyone due by then (see ``move(to:)``). It does not
    /// wait for the woken tasks to run: a test awaits what it expects of them.
    public func advance(by duration: Duration) {
        moveAndWake { $0.advanced(by: duration) }
    }

    /// Moves time to `instant` (never backwards) and wakes, in deadline order, everyone due by then.
    public func move(to instant: Instant) {
        moveAndWake { _ in instant }
    }

    /// How many sleepers are waiting now.
    public var sleeperCount: Int { state.value.sleepers.count }

    /// Moves time to `target(now)` in one step under the lock, then wakes everyone due.
    private func moveAndWake(_ target: @Sendable (Instant) -> Instant) {
        let due = state.withValue { state -> [Sleeper] in
            let instant = target(state.now)
            if state.now < instant { state.now = instant }
            let due = state.sleepers.filter { $0.deadline <= state.now }
                .sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
            state.sleepers.removeAll { $0.deadline <= state.now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
