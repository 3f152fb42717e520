/// Tasks waiting for a condition over main-actor state: each resumes when a change makes its
/// condition true, or when the waiting task is cancelled. No time is involved, and a test's time limit
/// (which cancels the test) always ends the wait, so a test that waits for something that never
/// happens fails instead of hanging the run.
@MainActor
public final class ConditionWaiters {
    private struct Waiter {
        let condition: @MainActor () -> Bool
        let continuation: CheckedContinuation<Void, Never>
    }

    private var waiters: [Int: Waiter] = [:]
    private var nextID = 0

    public init() {}

    /// Returns once `condition` holds: at once, or after the ``changed()`` that makes it true; also
    /// returns (with `condition` still false) when the waiting task is cancelled.
    public func wait(until condition: @escaping @MainActor () -> Bool) async {
        if condition() { return }
        let id = nextID
        nextID += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                // Cancelled before this point: the handler below has already run and found nothing.
                if Task.isCancelled {
                    continuation.resume()
                } else {
                    waiters[id] = Waiter(condition: condition, continuation: continuation)
                }
            }
        } onCancel: {
            // Runs on the cancelling thread, then hops to the main actor: by then the waiter is
            // registered, or it never will be (the body above saw the cancellation).
            Task { @MainActor in self.release(id) }
        }
    }

    /// Re-checks every waiting condition after the state changed, resuming those now true.
    public func changed() {
        for (id, waiter) in waiters where waiter.condition() {
            waiters[id] = nil
            waiter.continuation.resume()
        }
    }

    private func release(_ id: Int) {
        waiters.removeValue(forKey: id)?.continuation.resume()
    }
}
