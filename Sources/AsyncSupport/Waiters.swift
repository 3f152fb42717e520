// AsyncSupport holds the one way this package suspends a task until something happens — a
// `Waiters` table, a `Deadline` and the `VirtualClock` — so that "resumed exactly once, released on
// cancellation" is proven once, here, and every feature, fake and driver uses it.
import Foundation

/// Tasks suspended until a value is handed to them. Each is resumed exactly once: by
/// ``resume(_:returning:)`` or ``resumeAll(returning:)``, or, when its task is cancelled, with the value
/// it named for that case.
///
/// Joining and waiting are two steps, so a caller can act between them (start the request the first
/// waiter needs, arm a timer) without a window in which an answer is lost: a value handed to a ticket
/// that has joined but not yet suspended is kept, and its ``wait(_:cancelled:isolation:)`` returns it
/// at once. The methods are synchronous and take an internal lock, so any isolation may call them,
/// and a cancellation handler releases its waiter without hopping to another executor.
public final class Waiters<Value: Sendable>: @unchecked Sendable {
    // `@unchecked`: every read and write of `slots` and `nextID` happens between `lock.lock()` and
    // `lock.unlock()` in `withLock`, and no continuation is resumed while the lock is held.

    /// One waiter's place in the table.
    public struct Ticket: Hashable, Sendable {
        fileprivate let id: Int
    }

    private enum Slot {
        /// Joined; not suspended yet.
        case joined
        case suspended(CheckedContinuation<Value, Never>)
        /// Handed its value before it suspended.
        case resolved(Value)
    }

    private let lock = NSLock()
    private var slots: [Int: Slot] = [:]
    private var nextID = 0

    public init() {}

    /// Takes a place in the table: from now on a resume reaches this ticket, even before it waits.
    public func join() -> Ticket {
        withLock {
            nextID += 1
            slots[nextID] = .joined
            return Ticket(id: nextID)
        }
    }

    /// Suspends until `ticket` is handed a value, returning it; returns `cancelled` once the calling
    /// task is cancelled (at once if it already is). Each ticket waits once.
    public func wait(
        _ ticket: Ticket,
        cancelled: Value,
        isolation: isolated (any Actor)? = #isolation
    ) async -> Value {
        await withTaskCancellationHandler {
            await withCheckedContinuation(isolation: isolation) { continuation in
                let early: Value? = withLock {
                    switch slots[ticket.id] {
                    case .joined:
                        slots[ticket.id] = .suspended(continuation)
                        return nil
                    case .resolved(let value):
                        slots[ticket.id] = nil
                        return value
                    case .suspended, nil:
                        preconditionFailure("a ticket of Waiters waits once, after join()")
                    }
                }
                if let early { continuation.resume(returning: early) }
            }
        } onCancel: {
            resume(ticket, returning: cancelled)
        }
    }

    /// Joins and waits in one step, for callers with nothing to do in between.
    public func wait(cancelled: Value, isolation: isolated (any Actor)? = #isolation) async -> Value {
        await wait(join(), cancelled: cancelled, isolation: isolation)
    }

    /// Hands `value` to `ticket` if it has none yet; returns whether it did.
    @discardableResult
    public func resume(_ ticket: Ticket, returning value: Value) -> Bool {
        let continuation: CheckedContinuation<Value, Never>?? = withLock {
            switch slots[ticket.id] {
            case .joined:
                slots[ticket.id] = .resolved(value)
                return .some(nil)
            case .suspended(let continuation):
                slots[ticket.id] = nil
                return .some(continuation)
            case .resolved, nil:
                return nil
            }
        }
        guard let continuation else { return false }
        continuation?.resume(returning: value)
        return true
    }

    /// Hands `value` to every ticket that has none yet, in the order they joined; returns how many.
    @discardableResult
    public func resumeAll(returning value: Value) -> Int {
        let pending = withLock { slots.keys.sorted().map(Ticket.init(id:)) }
        return pending.count(where: { resume($0, returning: value) })
    }

    /// Tickets still waiting for a value (joined or suspended), in the order they joined.
    public var pending: [Ticket] {
        withLock {
            slots.filter { if case .resolved = $0.value { false } else { true } }.keys.sorted().map(Ticket.init(id:))
        }
    }

    /// Whether no ticket is waiting for a value.
    public var isEmpty: Bool { pending.isEmpty }

    private func withLock<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
