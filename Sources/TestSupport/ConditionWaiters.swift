import AsyncSupport

/// Tasks waiting for a condition over main-actor state: each resumes when a change makes its
/// condition true, or when the waiting task is cancelled. No time is involved, and a test's time limit
/// (which cancels the test) always ends the wait, so a test that waits for something that never
/// happens fails instead of hanging the run.
@MainActor
public final class ConditionWaiters {
    private let waiters = Waiters<Void>()
    private var conditions: [Waiters<Void>.Ticket: @MainActor () -> Bool] = [:]

    public init() {}

    /// Returns once `condition` holds: at once, or after the ``changed()`` that makes it true; also
    /// returns (with `condition` still false) when the waiting task is cancelled.
    public func wait(until condition: @escaping @MainActor () -> Bool) async {
        if condition() { return }
        let ticket = waiters.join()
        conditions[ticket] = condition
        await waiters.wait(ticket, cancelled: ())
        conditions[ticket] = nil
    }

    /// Re-checks every waiting condition after the state changed, resuming those now true.
    public func changed() {
        for (ticket, condition) in conditions where condition() {
            conditions[ticket] = nil
            waiters.resume(ticket, returning: ())
        }
    }
}
