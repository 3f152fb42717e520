/// The `AsyncStream` subscribers of one kind of news: the one fan-out of the app's services and of the
/// simulated iPhone. Each ``subscribe(initial:bufferingPolicy:onTermination:)`` makes a new stream;
/// ``yield(_:)`` hands an element to every live subscriber, in the order they subscribed, so that who
/// hears a change first never depends on hashing.
///
/// A value type without a lock: its owner keeps it in isolated state (an actor, or a main-actor
/// class) and calls ``unsubscribe(_:)`` on that isolation from the `onTermination` it passed.
public struct Subscribers<Element: Sendable>: Sendable {
    private var entries: [(id: Int, continuation: AsyncStream<Element>.Continuation)] = []
    private var subscriptionsMade = 0

    public init() {}

    /// How many subscribers are live.
    public var count: Int { entries.count }

    /// A new stream, starting with `initial` if given. `onTermination` receives the subscription's id
    /// when the subscriber goes away (the owner then calls ``unsubscribe(_:)``).
    public mutating func subscribe(
        initial: Element? = nil,
        bufferingPolicy: AsyncStream<Element>.Continuation.BufferingPolicy = .unbounded,
        onTermination: @escaping @Sendable (_ id: Int) -> Void
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: bufferingPolicy)
        subscriptionsMade += 1
        let id = subscriptionsMade
        entries.append((id, continuation))
        continuation.onTermination = { _ in onTermination(id) }
        if let initial { continuation.yield(initial) }
        return stream
    }

    /// Forgets the subscription `id` (its stream ended).
    public mutating func unsubscribe(_ id: Int) {
        entries.removeAll { $0.id == id }
    }

    /// Hands `element` to every subscriber, in the order they subscribed.
    public func yield(_ element: Element) {
        for entry in entries { entry.continuation.yield(element) }
    }

    /// Ends every subscriber's stream (each then goes through its `onTermination`).
    public func finishAll() {
        for entry in entries { entry.continuation.finish() }
    }
}
