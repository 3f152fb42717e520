import DeviceInterfaces
import Foundation
import PetSpotDomain

/// The app's `CLLocationManager` on the simulated device. It forwards every call to the device, which
/// decides what iOS would do; delegate callbacks arrive on ``events``.
@MainActor
public final class SimulatedLocationManager: LocationManaging {
    /// Numbers managers in creation order (#1 is the one made at launch), as the log shows them.
    public nonisolated let id: Int
    public nonisolated let events: AsyncStream<LocationManagerEvent>
    public var desiredAccuracy: LocationAccuracy = .best

    let continuation: AsyncStream<LocationManagerEvent>.Continuation
    weak var device: SimulatedDevice?
    /// The status and accuracy of the last authorization callback; nil until the creation callback.
    var lastReported: (LocationPermissionStatus, LocationAccuracyAuthorization)?
    /// The outstanding `requestLocation()`, if any.
    var pendingRequest: DeviceScheduler.JobID?
    /// False once the app's process has ended.
    var isAlive = true

    init(id: Int, device: SimulatedDevice) {
        self.id = id
        self.device = device
        (events, continuation) = AsyncStream<LocationManagerEvent>.makeStream()
    }

    public var authorizationStatus: LocationPermissionStatus {
        guard let device else { return .notDetermined }
        device.catchUp()
        return device.location.status
    }

    public var accuracyAuthorization: LocationAccuracyAuthorization {
        guard let device else { return .fullAccuracy }
        device.catchUp()
        return device.location.accuracy
    }

    public var location: LocationFix? {
        guard let device else { return nil }
        device.catchUp()
        return device.location.lastFix(seenBy: self)
    }

    public func requestWhenInUseAuthorization() {
        device?.catchUp()
        device?.location.requestWhenInUse(from: self)
    }

    public func requestAlwaysAuthorization() {
        device?.catchUp()
        device?.location.requestAlways(from: self)
    }

    public func requestLocation() {
        device?.catchUp()
        device?.location.requestLocation(from: self)
    }

    public func stopUpdatingLocation() {
        device?.catchUp()
        device?.location.stopUpdatingLocation(from: self)
    }

    /// Asks the device, off the caller's thread as iOS requires (rule 9).
    public nonisolated func locationServicesEnabled() async -> Bool {
        await servicesEnabled()
    }

    private func servicesEnabled() -> Bool {
        guard let device else { return false }
        device.catchUp()
        return device.location.servicesEnabled
    }
}

extension SimulatedLocationManager {
    /// `requestTemporaryFullAccuracyAuthorization(withPurposeKey:completion:)` (rule 12), which PetSpot
    /// does not use and ``LocationManaging`` therefore does not carry. Fails with `promptDeclined` when
    /// the purpose key is missing, the app is in the background, or accuracy is already full; otherwise
    /// shows the alert, and "Allow Once" grants full accuracy until the app stops being used.
    public func requestTemporaryFullAccuracyAuthorization(
        withPurposeKey purposeKey: String,
        completion: @escaping @MainActor (LocationManagerError?) -> Void
    ) {
        device?.catchUp()
        device?.location.requestTemporaryFullAccuracy(from: self, purposeKey: purposeKey, completion: completion)
    }
}
