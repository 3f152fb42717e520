import AsyncSupport
import Testing

/// A wait for a condition over main-actor state ends when a change makes it true, at its deadline, or
/// when its task is cancelled; never because some time or number of turns went by.
@Suite(.timeLimit(.minutes(1)))
@MainActor
struct ConditionWaitersTests {
    final class Flag {
        var isSet = false
    }

    @Test func givenAFalseCondition_whenAChangeMakesItTrue_thenTheBoundedWaitReturnsTrue() async {
        let waiters = ConditionWaiters()
        let flag = Flag()
        let clock = VirtualClock()
        let wait = Task { await waiters.wait(until: { flag.isSet }, orUntil: Deadline(after: .seconds(1), on: clock)) }
        // The timer's sleep on the clock shows that the wait has begun.
        while clock.sleeperCount == 0, !Task.isCancelled { await Task.yield() }

        flag.isSet = true
        waiters.changed()

        #expect(await wait.value)
        // The deadline's timer left the clock with the wait.
        #expect(clock.sleeperCount == 0)
    }

    @Test func givenAConditionThatStaysFalse_whenTheDeadlinePasses_thenTheWaitReturnsFalse() async {
        let waiters = ConditionWaiters()
        let clock = VirtualClock()
        let deadline = Deadline(after: .seconds(1), on: clock)
        clock.advance(by: .seconds(1))

        #expect(await waiters.wait(until: { false }, orUntil: deadline) == false)
    }

    @Test func givenABoundedWait_whenItsTaskIsCancelled_thenItReturnsFalseBeforeTheDeadline() async {
        let waiters = ConditionWaiters()
        let clock = VirtualClock()
        let wait = Task { await waiters.wait(until: { false }, orUntil: Deadline(after: .seconds(1), on: clock)) }
        while clock.sleeperCount == 0, !Task.isCancelled { await Task.yield() }

        wait.cancel()

        #expect(await wait.value == false)
        #expect(clock.sleeperCount == 0)
    }
}
