import AppFeature
import AsyncSupport
import DeviceInterfaces
import Foundation
import Logging
import Permissions
import PetSpotDomain
import Testing

extension AppDependencies {
    /// The test form: every member that reaches outside the app fails the running test when it is
    /// used, so a test sets exactly the members its story touches and nothing is used by accident.
    /// Time is a fresh `VirtualClock`, the Info.plist is empty, the ledger is in memory and the
    /// logger discards.
    public static var test: AppDependencies {
        let clock = VirtualClock()
        return AppDependencies(
            locationManager: UnimplementedLocationManager(),
            pets: UnimplementedPets(),
            settingsOpener: SettingsOpener { unimplemented("settingsOpener") },
            ledger: InMemoryPermissionLedger(),
            clock: clock,
            now: { Date(timeIntervalSinceReferenceDate: clock.now.offset.timeInterval) },
            infoPlist: PropertyList([:]),
            logger: Logger(label: "permissions") { _ in SwiftLogNoOpLogHandler() }
        )
    }
}

/// Fails the running test: the app used a dependency the test did not set.
private func unimplemented(_ member: String) {
    Issue.record("AppDependencies.test: \(member) was used, but the test did not set it")
}

@MainActor
private final class UnimplementedLocationManager: LocationManaging {
    nonisolated let events = AsyncStream<LocationManagerEvent> { $0.finish() }
    var authorizationStatus: LocationPermissionStatus {
        unimplemented("locationManager.authorizationStatus")
        return .notDetermined
    }
    var accuracyAuthorization: LocationAccuracyAuthorization {
        unimplemented("locationManager.accuracyAuthorization")
        return .fullAccuracy
    }
    var location: LocationFix? {
        unimplemented("locationManager.location")
        return nil
    }
    var desiredAccuracy: LocationAccuracy {
        get { unimplemented("locationManager.desiredAccuracy"); return .best }
        set { unimplemented("locationManager.desiredAccuracy") }
    }
    func requestWhenInUseAuthorization() { unimplemented("locationManager.requestWhenInUseAuthorization()") }
    func requestAlwaysAuthorization() { unimplemented("locationManager.requestAlwaysAuthorization()") }
    func requestLocation() { unimplemented("locationManager.requestLocation()") }
    func stopUpdatingLocation() { unimplemented("locationManager.stopUpdatingLocation()") }
    nonisolated func locationServicesEnabled() async -> Bool {
        unimplemented("locationManager.locationServicesEnabled()")
        return false
    }
}

private struct UnimplementedPets: AnimalRepositoryProtocol {
    func fetchAnimals(near location: UserLocation?) async throws -> [Animal] {
        unimplemented("pets.fetchAnimals(near:)")
        return []
    }
}
