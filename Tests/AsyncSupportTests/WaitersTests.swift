import AsyncSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct WaitersTests {
    @Test func givenASuspendedWaiter_whenResumed_thenItReturnsTheValue() async {
        let waiters = Waiters<Int>()
        let ticket = waiters.join()
        let waiting = Task { await waiters.wait(ticket, cancelled: -1) }

        #expect(waiters.resume(ticket, returning: 7))

        #expect(await waiting.value == 7)
        #expect(waiters.isEmpty)
    }

    @Test func givenAJoinedTicket_whenResumedBeforeItWaits_thenTheWaitReturnsTheValueAtOnce() async {
        let waiters = Waiters<String>()
        let ticket = waiters.join()

        waiters.resume(ticket, returning: "late registration")

        #expect(waiters.isEmpty)
        #expect(await waiters.wait(ticket, cancelled: "cancelled") == "late registration")
    }

    @Test func givenAWaiter_whenResumedTwice_thenOnlyTheFirstValueCounts() async {
        let waiters = Waiters<Int>()
        let ticket = waiters.join()

        #expect(waiters.resume(ticket, returning: 1))
        #expect(!waiters.resume(ticket, returning: 2))

        #expect(await waiters.wait(ticket, cancelled: 0) == 1)
        #expect(!waiters.resume(ticket, returning: 3))
    }

    @Test func givenASuspendedWaiter_whenItsTaskIsCancelled_thenItReturnsTheCancelledValueAndLeaves() async {
        let waiters = Waiters<Int>()
        let ticket = waiters.join()
        let waiting = Task { await waiters.wait(ticket, cancelled: -1) }

        waiting.cancel()

        #expect(await waiting.value == -1)
        #expect(waiters.isEmpty)
        #expect(!waiters.resume(ticket, returning: 5))
    }

    @Test func givenACancelledTask_whenItWaits_thenItReturnsTheCancelledValueAtOnce() async {
        let waiters = Waiters<Int>()
        let waiting = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await waiters.wait(cancelled: -1)
        }

        #expect(await waiting.value == -1)
        #expect(waiters.isEmpty)
    }

    @Test func givenManyWaiters_whenAllAreResumed_thenEachGetsTheValueOnceAndLateJoinersWait() async {
        let waiters = Waiters<Int>()
        let tickets = (0..<50).map { _ in waiters.join() }
        let waiting = tickets.map { ticket in Task { await waiters.wait(ticket, cancelled: -1) } }
        waiting[3].cancel()

        let resumed = waiters.resumeAll(returning: 42)

        var values: [Int] = []
        for task in waiting { values.append(await task.value) }
        // The cancelled one got its own value, unless the resume came first; nobody got two.
        #expect(resumed == values.filter { $0 == 42 }.count)
        #expect(values.allSatisfy { $0 == 42 || $0 == -1 })
        #expect(values.enumerated().allSatisfy { $0.element == 42 || $0.offset == 3 })
        let late = waiters.join()
        #expect(waiters.pending == [late])
    }

    @Test func givenAWaiterWithADeadline_whenTheClockPassesIt_thenTheTimerReleasesTheWaiter() async {
        let clock = VirtualClock()
        let waiters = Waiters<String>()
        let ticket = waiters.join()
        let deadline = Deadline(after: .seconds(5), on: clock)
        let timer = Task {
            try await deadline.wait()
            waiters.resume(ticket, returning: "timed out")
        }
        let waiting = Task { await waiters.wait(ticket, cancelled: "cancelled") }

        clock.advance(by: .seconds(5))

        #expect(await waiting.value == "timed out")
        try? await timer.value
    }
}
