import DeviceInterfaces
import Foundation
import LocationBridge
import PetSpotDomain

/// A scriptable `LocationManaging`: it records every call and sends exactly the callbacks a test
/// tells it to, in the order given, so tests can deliver callbacks in any order iOS might.
@MainActor
public final class FakeLocationManager: LocationManaging {
    public enum Call: Sendable, Equatable {
        case requestWhenInUseAuthorization
        case requestAlwaysAuthorization
        case requestLocation(LocationAccuracy)
        case stopUpdatingLocation
    }

    public var authorizationStatus: LocationPermissionStatus
    public var accuracyAuthorization: LocationAccuracyAuthorization = .fullAccuracy
    public var location: LocationFix?
    public var desiredAccuracy: LocationAccuracy = .best
    public nonisolated let events: AsyncStream<LocationManagerEvent>
    private let eventSink: AsyncStream<LocationManagerEvent>.Continuation
    private let servicesEnabled: Bool
    /// Every call made, in order.
    public private(set) var calls: [Call] = []
    private let callWaiters = ConditionWaiters()

    public init(status: LocationPermissionStatus, servicesEnabled: Bool = true) {
        authorizationStatus = status
        self.servicesEnabled = servicesEnabled
        (events, eventSink) = AsyncStream<LocationManagerEvent>.makeStream()
    }

    public func requestWhenInUseAuthorization() { record(.requestWhenInUseAuthorization) }
    public func requestAlwaysAuthorization() { record(.requestAlwaysAuthorization) }
    public func requestLocation() { record(.requestLocation(desiredAccuracy)) }
    public func stopUpdatingLocation() { record(.stopUpdatingLocation) }

    public nonisolated func locationServicesEnabled() async -> Bool { servicesEnabled }

    /// Sends a callback as iOS would. Changing authorization also updates ``authorizationStatus``.
    public func send(_ event: LocationManagerEvent) {
        if case .authorizationChanged(let status, let accuracy) = event {
            authorizationStatus = status
            accuracyAuthorization = accuracy
        }
        eventSink.yield(event)
    }

    /// Waits until at least `count` calls were made (no time involved: it resumes on the call), or
    /// until the waiting task is cancelled.
    public func waitForCalls(_ count: Int) async {
        await callWaiters.wait { [unowned self] in calls.count >= count }
    }

    private func record(_ call: Call) {
        calls.append(call)
        callWaiters.changed()
    }
}
