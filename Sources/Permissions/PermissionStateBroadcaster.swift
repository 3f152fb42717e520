import AsyncSupport
import PetSpotDomain
/// Hands every change of one permission's state to any number of `AsyncStream` subscribers.
@MainActor
final class PermissionStateBroadcaster {
    private var subscribers = Subscribers<PermissionState>()

    /// A new stream that starts with `current` and then yields every change.
    func subscribe(current: PermissionState) -> AsyncStream<PermissionState> {
        subscribers.subscribe(initial: current) { [weak self] id in
            Task { @MainActor in self?.subscribers.unsubscribe(id) }
        }
    }

    func send(_ state: PermissionState) {
        subscribers.yield(state)
    }

    var subscriberCount: Int { subscribers.count }
}
