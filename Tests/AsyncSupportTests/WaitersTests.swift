import AsyncSupport
import Testing

@Suite(.timeLimit(.minutes(1))) struct WaitersTests {
    @Test func givenASuspendedWaiter_whenResumed_thenItReturnsTheValue() async {
        let waiters = Waiters<Int>()
        let ticket = waiters.join()
        async let waiting = await waiters.wait(ticket, cancelled: -1)

        #expect(waiters.resume(ticket, returning: 7))

        #expect(await waiting == 7)
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
        await withTaskGroup(of: Int.self) { waiting in
            waiting.addTask { await waiters.wait(ticket, cancelled: -1) }

            waiting.cancelAll()

            #expect(await waiting.next() == -1)
        }
        #expect(waiters.isEmpty)
        #expect(!waiters.resume(ticket, returning: 5))
    }

    @Test func givenACancelledTask_whenItWaits_thenItReturnsTheCancelledValueAtOnce() async {
        let waiters = Waiters<Int>()
        let value = await withTaskGroup(of: Int.self) { waiting in
            waiting.addTask {
                withUnsafeCurrentTask { $0?.cancel() }
                return await waiters.wait(cancelled: -1)
            }
            return await waiting.next()
        }

        #expect(value == -1)
        #expect(waiters.isEmpty)
    }

    @Test func givenManyWaiters_whenAllAreResumed_thenEachGetsTheValueOnceAndLateJoinersWait() async {
        let waiters = Waiters<Int>()
        let tickets = (0..<50).map { _ in waiters.join() }
        var values = [Int](repeating: 0, count: tickets.count)
        var resumed = 0
        await withTaskGroup(of: (Int, Int).self) { waiting in
            for (index, ticket) in tickets.enumerated() where index != 3 {
                waiting.addTask { (index, await waiters.wait(ticket, cancelled: -1)) }
            }
            await withTaskGroup(of: Int.self) { cancelled in
                cancelled.addTask { await waiters.wait(tickets[3], cancelled: -1) }
                cancelled.cancelAll()
                resumed = waiters.resumeAll(returning: 42)
                values[3] = await cancelled.next() ?? 0
            }
            for await (index, value) in waiting { values[index] = value }
        }
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
        async let timer: Void = {
            try? await deadline.wait()
            waiters.resume(ticket, returning: "timed out")
        }()
        async let waiting = await waiters.wait(ticket, cancelled: "cancelled")

        clock.advance(by: .seconds(5))

        #expect(await waiting == "timed out")
        await timer
    }
}
