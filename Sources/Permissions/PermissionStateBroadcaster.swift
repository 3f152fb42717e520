/// Hands every change of one permission's state to any number of `AsyncStream` subscribers.
@MainActor
final class PermissionStateBroadcaster {
    private var subscribers: [Int: AsyncStream<PermissionState>.Continuation] = [:]
    private var nextID = 0

    /// A new stream that starts with `current` and then yields every change.
    func subscribe(current: PermissionState) -> AsyncStream<PermissionState> {
        let (stream, continuation) = AsyncStream<PermissionState>.makeStream(bufferingPolicy: .unbounded)
        let id = nextID
        nextID += 1
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.subscribers[id] = nil }
        }
        continuation.yield(current)
        return stream
    }

    func send(_ state: PermissionState) {
        // In subscription order, so that who hears a change first never depends on hashing.
        for id in subscribers.keys.sorted() { subscribers[id]?.yield(state) }
    }

    var subscriberCount: Int { subscribers.count }
}
