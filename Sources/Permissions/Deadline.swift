/// A sleep whose deadline is fixed when it is made, not when the sleeping task first runs, so a wait
/// started before the clock moves always ends when the clock passes its deadline.
struct Deadline: Sendable {
    private let sleepUntilDeadline: @Sendable () async throws -> Void

    init(after delay: Duration, on clock: some Clock<Duration>) {
        let deadline = clock.now.advanced(by: delay)
        sleepUntilDeadline = { try await clock.sleep(until: deadline, tolerance: nil) }
    }

    /// Returns at the deadline (at once if it has passed); throws `CancellationError` when cancelled.
    func wait() async throws {
        try await sleepUntilDeadline()
    }
}
