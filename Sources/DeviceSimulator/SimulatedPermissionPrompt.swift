import AsyncSupport

/// A system permission prompt (alert or sheet) of the simulated iPhone: it appears when a request
/// needs the person's answer and stays up until ``answer(_:)``. Every request made while it is up
/// waits for the same answer, as iOS shows one prompt at a time.
@MainActor
public final class SimulatedPermissionPrompt<Answer: Sendable> {
    /// Whether the prompt is on screen.
    public private(set) var isVisible = false
    /// How many times it appeared.
    public private(set) var timesShown = 0

    private var answerWaiters: [AsyncStream<Answer>.Continuation] = []
    /// Tests waiting for the prompt to show, or for requests to wait on it.
    private let stateWaiters = ConditionWaiters()
    /// Told when the prompt appears or goes; a device replaces it to show the prompt as its alert.
    var visibilityChanged: @MainActor (Bool) -> Void

    /// - Parameter visibilityChanged: told when the prompt appears or goes (the app is inactive while
    ///   a system prompt is up, rule 29).
    public init(visibilityChanged: @escaping @MainActor (Bool) -> Void = { _ in }) {
        self.visibilityChanged = visibilityChanged
    }

    /// Shows the prompt (if not up already) and waits for the answer; nil when the prompt went away
    /// unanswered (``dismiss()``) or the waiting task is cancelled.
    func present() async -> Answer? {
        let (answers, continuation) = AsyncStream<Answer>.makeStream(bufferingPolicy: .bufferingNewest(1))
        answerWaiters.append(continuation)
        if !isVisible {
            isVisible = true
            timesShown += 1
            visibilityChanged(true)
        }
        stateWaiters.changed()
        for await answer in answers { return answer }
        return nil
    }

    /// The person answers. Returns false (and does nothing) when no prompt is up.
    @discardableResult
    public func answer(_ answer: Answer) -> Bool {
        guard isVisible else { return false }
        isVisible = false
        visibilityChanged(false)
        let waiters = answerWaiters
        answerWaiters.removeAll()
        for waiter in waiters {
            waiter.yield(answer)
            waiter.finish()
        }
        return true
    }

    /// The prompt goes away unanswered (the app left the foreground or ended): every waiting request
    /// ends without an answer, and the next request shows the prompt again.
    public func dismiss() {
        let waiters = answerWaiters
        answerWaiters.removeAll()
        if isVisible {
            isVisible = false
            visibilityChanged(false)
        }
        for waiter in waiters { waiter.finish() }
    }

    /// Returns once the prompt is on screen (at once if it already is); no time involved.
    public func waitUntilShown() async {
        await stateWaiters.wait { [unowned self] in isVisible }
    }

    /// Returns once `count` requests wait for the prompt's answer (at once if they already do).
    public func waitUntilRequestsWait(_ count: Int) async {
        await stateWaiters.wait { [unowned self] in answerWaiters.count >= count }
    }
}
