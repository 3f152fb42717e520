/// A moment on an injected clock, fixed when the wait starts, not when the waiting task first runs.
///
/// `clock.sleep(for:)` inside a timer task measures from whenever that task gets to run; if the clock
/// moved meanwhile (a test advancing its clock, a virtual clock stepping a scenario), the timer would
/// end later than asked, or never. A `Deadline` taken where the wait begins ends when the clock
/// passes that moment, however late its task starts.
public struct Deadline: Sendable {
    private let isDue: @Sendable () -> Bool
    private let sleepUntilDeadline: @Sendable () async throws -> Void

    /// The moment `delay` from the clock's present time.
    public init(after delay: Duration, on clock: any Clock<Duration>) {
        self = Self.make(after: delay, on: clock)
    }

    private init(isDue: @escaping @Sendable () -> Bool, sleep: @escaping @Sendable () async throws -> Void) {
        self.isDue = isDue
        sleepUntilDeadline = sleep
    }

    private static func make<C: Clock<Duration>>(after delay: Duration, on clock: C) -> Deadline {
        let deadline = clock.now.advanced(by: delay)
        return Deadline(
            isDue: { clock.now >= deadline },
            sleep: { try await clock.sleep(until: deadline, tolerance: nil) }
        )
    }

    /// Returns at the deadline, at once if it has passed; throws `CancellationError` when the waiting
    /// task is cancelled.
    public func wait() async throws {
        try Task.checkCancellation()
        if isDue() { return }
        try await sleepUntilDeadline()
    }
}
