import AsyncSupport
import ConcurrencyExtras
import PetSpotDomain

/// A `LocationServiceProtocol` with stubbed answers, plus a way to push
/// status changes to observers.
public final class FakeLocationService: LocationServiceProtocol {
    private struct State {
        var status: LocationPermissionStatus
        var statusAfterRequest: LocationPermissionStatus?
        var location: UserLocation?
        var locationServicesEnabled = true
        var requestAuthorizationCallCount = 0
        var requestLocationCallCount = 0
        var subscribers = Subscribers<LocationPermissionStatus>()
    }

    private let state: LockIsolated<State>

    public init(status: LocationPermissionStatus = .notDetermined, location: UserLocation? = nil) {
        state = LockIsolated(State(status: status, location: location))
    }

    /// What ``authorizationStatus`` answers.
    public var stubbedAuthorizationStatus: LocationPermissionStatus {
        get { state.value.status }
        set { state.withValue { $0.status = newValue } }
    }

    /// The person's answer to the request; nil answers with the current status unchanged.
    public var stubbedStatusAfterRequest: LocationPermissionStatus? {
        get { state.value.statusAfterRequest }
        set { state.withValue { $0.statusAfterRequest = newValue } }
    }

    /// What ``requestLocation()`` returns; nil simulates a failure.
    public var stubbedLocation: UserLocation? {
        get { state.value.location }
        set { state.withValue { $0.location = newValue } }
    }

    /// What ``locationServicesEnabled`` answers.
    public var stubbedLocationServicesEnabled: Bool {
        get { state.value.locationServicesEnabled }
        set { state.withValue { $0.locationServicesEnabled = newValue } }
    }

    public var locationServicesEnabled: Bool {
        get async { stubbedLocationServicesEnabled }
    }

    public var requestAuthorizationCalled: Bool { state.value.requestAuthorizationCallCount > 0 }
    public var requestAuthorizationCallCount: Int { state.value.requestAuthorizationCallCount }
    public var requestLocationCallCount: Int { state.value.requestLocationCallCount }

    public var authorizationStatus: LocationPermissionStatus {
        get async { stubbedAuthorizationStatus }
    }

    public func requestWhenInUseAuthorization() async -> LocationPermissionStatus {
        let (status, changed) = state.withValue { state -> (LocationPermissionStatus, Bool) in
            state.requestAuthorizationCallCount += 1
            guard state.status == .notDetermined, let answer = state.statusAfterRequest else {
                return (state.status, false)
            }
            state.status = answer
            return (answer, answer != .notDetermined)
        }
        if changed { publish(status) }
        return status
    }

    public func requestLocation() async -> UserLocation? {
        state.withValue { state in
            state.requestLocationCallCount += 1
            return state.status.isAuthorized ? state.location : nil
        }
    }

    public func authorizationStatusUpdates() async -> AsyncStream<LocationPermissionStatus> {
        let state = self.state
        return state.withValue { value in
            value.subscribers.subscribe { id in state.withValue { $0.subscribers.unsubscribe(id) } }
        }
    }

    /// Changes the status as Settings or the system would, and tells every observer.
    public func simulateStatusChange(to status: LocationPermissionStatus) {
        state.withValue { $0.status = status }
        publish(status)
    }

    private func publish(_ status: LocationPermissionStatus) {
        state.value.subscribers.yield(status)
    }
}
