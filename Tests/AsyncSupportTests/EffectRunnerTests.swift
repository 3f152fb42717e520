import AsyncSupport
import Testing

/// The one loop that runs every machine: log before effects, effects in order, work tracked until idle.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct EffectRunnerTests {
    /// A counter machine: each event adds to the total, logs it, says it and waits until released.
    @MainActor
    final class Counter {
        var total = 0
        var trail: [String] = []
        let release = Waiters<Void>()
        lazy var runner = EffectRunner<Int, String, String>(
            step: { [unowned self] amount in
                total += amount
                return MachineStep(effects: ["say \(total)", "wait"], log: ["added \(amount)"])
            },
            perform: { [unowned self] effect in
                trail.append(effect)
                guard effect == "wait" else { return nil }
                return { [release] in await release.wait(cancelled: ()) }
            }
        )
    }

    @Test func givenAnEvent_whenSent_thenItsLogComesBeforeItsEffectsWhichRunInOrder() {
        let counter = Counter()
        counter.runner.onLog = { [unowned counter] in counter.trail.append($0) }

        let tasks = counter.runner.send(2)

        #expect(counter.trail == ["added 2", "say 2", "wait"])
        #expect(tasks.count == 1)
        counter.release.resumeAll(returning: ())
    }

    @Test func givenWorkGoingOn_whenWaitingUntilIdle_thenTheWaitEndsWhenTheLastWorkEnds() async {
        let counter = Counter()
        counter.runner.send(1)
        counter.runner.send(1)
        let idleSeen = Waiters<Void>()
        let seen = idleSeen.join()
        async let idle: Void = {
            await counter.runner.waitUntilIdle()
            idleSeen.resume(seen, returning: ())
        }()
        while counter.release.pending.count < 2 { await Task.yield() }
        // Every task on the main actor gets its turns; a wait that ended early would have ended here.
        for _ in 0..<20 { await Task.yield() }
        #expect(idleSeen.pending == [seen])

        counter.release.resumeAll(returning: ())

        await idle
        #expect(idleSeen.isEmpty)
    }

    @Test func givenACallerWaitingForItsEffects_whenCancelled_thenItsWorkIsCancelledAndTheWaitEnds() async {
        let counter = Counter()
        await withTaskGroup(of: Void.self) { caller in
            caller.addTask { await counter.runner.sendAndWait(5) }
            while counter.release.pending.isEmpty { await Task.yield() }

            caller.cancelAll()
            await caller.next()
        }
        await counter.runner.waitUntilIdle()

        #expect(counter.total == 5)
        #expect(counter.release.isEmpty)
    }
}
