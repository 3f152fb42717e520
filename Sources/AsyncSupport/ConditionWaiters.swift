/// Tasks waiting for a condition over main-actor state: each resumes when a change makes its
/// condition true, or when the waiting task is cancelled. The owner of the state calls ``changed()``
/// after every change a condition may read. No time is involved in ``wait(until:)``, and a test's time
/// limit (which cancels the test) always ends the wait, so a test that waits for something that never
/// happens fails instead of hanging the run; ``wait(until:orUntil:)`` also ends at a deadline.
@MainActor
public final class ConditionWaiters {
    private let waiters = Waiters<Void>()
    private var conditions: [Waiters<Void>.Ticket: @MainActor () -> Bool] = [:]

    public init() {}

    /// Returns once `condition` holds: at once, or after the ``changed()`` that makes it true; also
    /// returns (with `condition` still false) when the waiting task is cancelled.
    public func wait(until condition: @escaping @MainActor () -> Bool) async {
        _ = await wait(until: condition, deadline: nil)
    }

    /// Waits as ``wait(until:)`` does, and no later than `deadline` (fixed by the caller when its
    /// wait began); returns whether `condition` holds at the end.
    public func wait(until condition: @escaping @MainActor () -> Bool, orUntil deadline: Deadline) async -> Bool {
        await wait(until: condition, deadline: deadline)
    }

    private func wait(until condition: @escaping @MainActor () -> Bool, deadline: Deadline?) async -> Bool {
        if condition() { return true }
        let ticket = waiters.join()
        conditions[ticket] = condition
        let timer = deadline.map { deadline in
            Task { [waiters] in
                // Cancelled once the wait is over: resuming a ticket that has its value does nothing.
                try? await deadline.wait()
                waiters.resume(ticket, returning: ())
            }
        }
        await waiters.wait(ticket, cancelled: ())
        timer?.cancel()
        conditions[ticket] = nil
        return condition()
    }

    /// Re-checks every waiting condition after the state changed, resuming those now true.
    public func changed() {
        for (ticket, condition) in conditions where condition() {
            conditions[ticket] = nil
            waiters.resume(ticket, returning: ())
        }
    }
}
