import AsyncSupport
import Testing

/// A bounded wait must end once the clock passes the moment the wait began plus its bound, however
/// late the waiting task gets to run (on a busy machine it may run after the test moved the clock).
@Suite(.timeLimit(.minutes(1))) struct DeadlineTests {
    @Test func givenClockMovedExactlyToTheDeadlineBeforeTheWaitStarts_whenWaiting_thenItReturnsAtOnce() async throws {
        let clock = VirtualClock()
        let deadline = Deadline(after: .seconds(30), on: clock)
        clock.advance(by: .seconds(30))

        try await deadline.wait()

        #expect(clock.now.offset == .seconds(30))
    }

    @Test func givenClockMovedPastTheDeadlineBeforeTheWaitStarts_whenWaiting_thenItReturnsAtOnce() async throws {
        let clock = VirtualClock()
        let deadline = Deadline(after: .seconds(5), on: clock)
        clock.advance(by: .seconds(60))

        try await deadline.wait()
    }

    @Test func givenWaitStartedBeforeTheDeadline_whenTheClockReachesIt_thenTheWaitEnds() async throws {
        let clock = VirtualClock()
        let deadline = Deadline(after: .seconds(5), on: clock)
        async let wait = try await deadline.wait()
        clock.advance(by: .seconds(5))

        try await wait
    }

    @Test func givenWaitingTask_whenCancelled_thenTheWaitThrowsCancellation() async {
        let clock = VirtualClock()
        let deadline = Deadline(after: .seconds(5), on: clock)
        await withThrowingTaskGroup(of: Void.self) { wait in
            wait.addTask { try await deadline.wait() }
            wait.cancelAll()

            await #expect(throws: CancellationError.self) { try await wait.next() }
        }
    }
}
