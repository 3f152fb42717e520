import AsyncSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct VirtualClockTests {
    @Test func givenSleepers_whenTimeMovesPastTheirDeadlines_thenTheyWakeAndTheNextDeadlineFollows() async throws {
        let clock = VirtualClock()
        try await withThrowingTaskGroup(of: Void.self) { early in
            early.addTask { try await clock.sleep(for: .seconds(1)) }
            try await withThrowingTaskGroup(of: Void.self) { late in
                late.addTask { try await clock.sleep(for: .seconds(5)) }
                // Both tasks reach their sleep on their own; nothing is asserted until they have.
                while clock.sleeperCount < 2, !Task.isCancelled { await Task.yield() }
                #expect(clock.nextDeadline?.offset == .seconds(1))

                clock.move(to: .init(offset: .seconds(2)))
                try await early.next()

                #expect(clock.nextDeadline?.offset == .seconds(5))
                late.cancelAll()
                await #expect(throws: CancellationError.self) { try await late.next() }
            }
        }
        #expect(clock.nextDeadline == nil)
    }

    @Test func givenTime_whenMovedBackwards_thenItStaysWhereItWas() {
        let clock = VirtualClock()
        clock.move(to: .init(offset: .seconds(3)))
        clock.move(to: .init(offset: .seconds(1)))
        #expect(clock.now.offset == .seconds(3))
    }

    @Test func givenClockAlreadyAtTheDeadline_whenATaskSleepsUntilIt_thenItReturnsAtOnce() async throws {
        let clock = VirtualClock()
        clock.advance(by: .seconds(30))

        try await clock.sleep(until: .init(offset: .seconds(30)))

        #expect(clock.nextDeadline == nil)
    }
}
