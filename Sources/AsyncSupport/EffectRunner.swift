/// The one loop that runs a pure state machine: it applies each event with the owner's `step`, hands
/// what happened to ``onLog``, and performs the effects in order with the owner's `perform`. An effect
/// with work that goes on runs it in a task of its own, tracked until it ends, so ``waitUntilIdle()``
/// returns once none is left.
///
/// The owner (a screen's model, the app model) keeps the machine's state itself, where Observation
/// sees it; `step` and `perform` are its methods. The startup screen, the permissions screen and the
/// app all run their machines through it.
@MainActor
public final class EffectRunner<Event, Effect, Logged> {
    /// What one event did: the effects to perform, in order, and what happened.
    public typealias Step = MachineStep<Effect, Logged>

    /// Receives everything the machine says happened, in order, before its effects start.
    public var onLog: (@MainActor (Logged) -> Void)?

    private let step: @MainActor (Event) -> Step
    private let perform: @MainActor (Effect) -> (@MainActor () async -> Void)?
    private var running: [Int: Task<Void, Never>] = [:]
    private var nextID = 0
    private let idleWaiters = Waiters<Void>()

    /// - Parameters:
    ///   - step: applies an event to the owner's state and returns what it did.
    ///   - perform: performs one effect; returns the work that goes on after it, if any, which the
    ///     runner starts in a task at once.
    public init(
        step: @escaping @MainActor (Event) -> Step,
        perform: @escaping @MainActor (Effect) -> (@MainActor () async -> Void)?
    ) {
        self.step = step
        self.perform = perform
    }

    /// Applies `event` and performs its effects; returns the tasks of those that go on.
    @discardableResult
    public func send(_ event: Event) -> [Task<Void, Never>] {
        let step = step(event)
        if let onLog {
            for logged in step.log { onLog(logged) }
        }
        return step.effects.compactMap { effect in perform(effect).map(start) }
    }

    /// Applies `event` and returns when every effect it started has ended; cancelling the caller
    /// cancels those effects.
    public func sendAndWait(_ event: Event) async {
        let tasks = send(event)
        await withTaskCancellationHandler {
            for task in tasks { await task.value }
        } onCancel: {
            for task in tasks { task.cancel() }
        }
    }

    /// Returns when no effect is running (effects that start others are waited for too), or as soon
    /// as the calling task is cancelled: cancelling stops the wait, never the machine's work.
    public func waitUntilIdle() async {
        guard !running.isEmpty else { return }
        await idleWaiters.wait(cancelled: ())
    }

    /// Runs `work` in a task kept until it ends; the last one to end wakes the callers of
    /// ``waitUntilIdle()``.
    private func start(_ work: @escaping @MainActor () async -> Void) -> Task<Void, Never> {
        let id = nextID
        nextID += 1
        let task = Task {
            await work()
            self.running[id] = nil
            if self.running.isEmpty { self.idleWaiters.resumeAll(returning: ()) }
        }
        running[id] = task
        return task
    }
}
