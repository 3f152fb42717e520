import AsyncSupport
import DeviceInterfaces
import DeviceSimulator
import LocationBridge
import PetSpotDomain
import Permissions
import TestSupport

/// A permission manager wired to a scriptable location manager, the simulated Motion and HealthKit,
/// a test clock and an in-memory ledger.
@MainActor
final class PermissionHarness {
    let clock = VirtualClock()
    let location: FakeLocationManager
    let motion: SimulatedMotion
    let health: SimulatedHealth
    let ledger: InMemoryPermissionLedger
    let settings = SettingsSpy()
    let service: LocationService
    let manager: PermissionManager

    /// - Parameters:
    ///   - infoPlist: what the manager believes the Info.plist holds.
    ///   - appKeys: what the simulated iPhone's Info.plist holds (defaults to the same).
    init(
        locationStatus: LocationPermissionStatus = .notDetermined,
        servicesEnabled: Bool = true,
        motion: SimulatedMotion.Setup = .init(),
        health: SimulatedHealth.Setup = .init(),
        infoPlist: PropertyList = .complete,
        appKeys: Set<String>? = nil,
        ledger: InMemoryPermissionLedger = InMemoryPermissionLedger(),
        healthRequest: HealthAuthorizationRequest = .readingAndSaving
    ) {
        let keys = appKeys ?? Set(infoPlist.values.keys)
        location = FakeLocationManager(status: locationStatus, servicesEnabled: servicesEnabled)
        service = LocationService(manager: location, clock: clock)
        // The creation-time callback iOS sends every new manager.
        location.send(.authorizationChanged(locationStatus, .fullAccuracy))
        self.motion = SimulatedMotion(
            hasMotionCoprocessor: motion.hasMotionCoprocessor,
            fitnessTrackingEnabled: motion.fitnessTrackingEnabled,
            status: motion.status,
            hasInfoPlistKey: { keys.contains($0) }
        )
        self.health = SimulatedHealth(
            isHealthDataAvailable: health.isHealthDataAvailable,
            hasHealthKitEntitlement: health.hasHealthKitEntitlement,
            shareStatus: health.shareStatus,
            readAllowed: health.readAllowed,
            hasInfoPlistKey: { keys.contains($0) }
        )
        self.ledger = ledger
        manager = PermissionManager(
            locationService: service,
            motion: self.motion,
            health: self.health,
            infoPlist: infoPlist,
            ledger: ledger,
            settingsOpener: SettingsOpener { [settings] in settings.opened += 1 },
            clock: clock,
            configuration: PermissionManager.Configuration(healthRequest: healthRequest)
        )
    }

    /// iOS reports a new location status through the delegate.
    func report(_ status: LocationPermissionStatus) {
        location.send(.authorizationChanged(status, .fullAccuracy))
    }

    /// The app is active again, as the app model tells it: the location bridge first (a pending
    /// request whose prompt is gone ends shortly), then every permission is read again.
    func becameActive() async {
        await service.applicationDidBecomeActive()
        await manager.checkAll()
    }
}

extension SimulatedMotion {
    struct Setup {
        var hasMotionCoprocessor = true
        var fitnessTrackingEnabled = true
        var status: MotionAuthorizationStatus = .notDetermined
    }
}

extension SimulatedHealth {
    struct Setup {
        var isHealthDataAvailable = true
        var hasHealthKitEntitlement = true
        var shareStatus: [HealthDataType: HealthShareStatus] = [:]
        var readAllowed: [HealthDataType: Bool] = [:]
    }
}

extension PropertyList {
    /// An Info.plist with every usage description PetSpot's permissions need.
    static let complete = PropertyList([
        "NSLocationWhenInUseUsageDescription": .string("Shows pets near you."),
        "NSLocationAlwaysAndWhenInUseUsageDescription": .string("Only while you use the app."),
        "NSLocationTemporaryUsageDescriptionDictionary": .dictionary(["NearbyPets": .string("Exact distance.")]),
        "NSMotionUsageDescription": .string("Counts walks."),
        "NSHealthShareUsageDescription": .string("Reads steps."),
        "NSHealthUpdateUsageDescription": .string("Saves walks."),
    ])

    /// ``complete`` without `keys`.
    static func complete(without keys: String...) -> PropertyList {
        var list = complete
        for key in keys { list.values[key] = nil }
        return list
    }
}

/// Counts how often Settings was opened.
@MainActor
final class SettingsSpy: Sendable {
    var opened = 0
}

extension HealthAuthorizationRequest {
    /// A request that both reads and saves, so that the tests reach each purpose string's rule.
    /// Paint My Town itself only saves.
    static let readingAndSaving = HealthAuthorizationRequest(
        share: [.workout, .workoutRoute],
        read: [.stepCount, .distanceWalkingRunning]
    )
}
