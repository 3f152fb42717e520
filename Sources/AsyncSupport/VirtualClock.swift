import Foundation

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
public final class VirtualClock: Clock, @unchecked Sendable {
    // `@unchecked`: `state` is read and written only inside `withLock`; sleepers are resumed through
    // `waiters`, which is Sendable, after the lock is released.

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
        /// Order of arrival: sleepers due at one moment wake in it.
        let sequence: Int
        let deadline: Instant
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Waiters<Bool>.Ticket: Sleeper] = [:]
        var sleepCount = 0
    }

    private let lock = NSLock()
    private var state = State()
    /// Sleepers resume with `true` when woken, `false` when cancelled.
    private let waiters = Waiters<Bool>()

    public init() {}

    public var now: Instant { withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// How many sleeps were ever started; grows with every one, so a driver can tell activity.
    public var sleepCount: Int { withLock { $0.sleepCount } }

    /// The earliest deadline anyone sleeps until, or nil when nobody sleeps.
    public var nextDeadline: Instant? {
        withLock { $0.sleepers.values.map(\.deadline).min() }
    }

    /// How many sleepers are waiting now.
    public var sleeperCount: Int { withLock { $0.sleepers.count } }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let ticket = withLock { state -> Waiters<Bool>.Ticket? in
            state.sleepCount += 1
            if deadline <= state.now { return nil }
            let ticket = waiters.join()
            state.sleepers[ticket] = Sleeper(sequence: state.sleepCount, deadline: deadline)
            return ticket
        }
        guard let ticket else { return }
        let woken = await withTaskCancellationHandler {
            await waiters.wait(ticket, cancelled: false)
        } onCancel: {
            // A cancelled sleeper leaves at once, so the driver never steps to its deadline.
            _ = withLock { $0.sleepers.removeValue(forKey: ticket) }
        }
        if !woken { throw CancellationError() }
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

    /// Moves time to `target(now)` in one step under the lock, then wakes everyone due.
    private func moveAndWake(_ target: (Instant) -> Instant) {
        let due = withLock { state -> [Waiters<Bool>.Ticket] in
            let instant = target(state.now)
            if state.now < instant { state.now = instant }
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
                .sorted { ($0.value.deadline, $0.value.sequence) < ($1.value.deadline, $1.value.sequence) }
            for (ticket, _) in due { state.sleepers[ticket] = nil }
            return due.map(\.key)
        }
        for ticket in due { waiters.resume(ticket, returning: true) }
    }

    private func withLock<T>(_ body: (inout State) -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body(&state)
    }
}
