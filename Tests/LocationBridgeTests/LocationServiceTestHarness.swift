import AsyncSupport
import DeviceInterfaces
import DeviceSimulator
import Foundation
import PetSpotDomain
import Testing
import TestSupport

@testable import LocationBridge

/// A service over a scriptable manager and a test clock, with helpers that wait for conditions
/// (never for time).
@MainActor
struct Harness {
    nonisolated static let now = Date(timeIntervalSince1970: 1_800_000_000)

    let manager: FakeLocationManager
    let clock = VirtualClock()
    let service: LocationService

    init(
        status: LocationPermissionStatus,
        cached: LocationFix? = nil,
        configuration: LocationService.Configuration = .init()
    ) {
        manager = FakeLocationManager(status: status)
        manager.location = cached
        service = LocationService(
            manager: manager,
            clock: clock,
            now: { Harness.now },
            configuration: configuration
        )
    }

    nonisolated static func fix(lat: Double = 52.2297, lon: Double = 21.0122, accuracy: Double = 30, age: TimeInterval = 0)
        -> LocationFix
    {
        LocationFix(latitude: lat, longitude: lon, horizontalAccuracy: accuracy, timestamp: now - age)
    }

    /// Sends a callback and waits until the service has handled it.
    func deliver(_ event: LocationManagerEvent) async {
        let before = await service.handledEventCount
        manager.send(event)
        await waitUntil { await service.handledEventCount > before }
    }
}

/// Yields until `condition` holds; fails the test if it never does within many scheduling rounds.
@MainActor
func waitUntil(
    _ condition: () async -> Bool,
    sourceLocation: SourceLocation = #_sourceLocation
) async {
    for _ in 0..<100_000 {
        if await condition() { return }
        await Task.yield()
    }
    Issue.record("condition never became true", sourceLocation: sourceLocation)
}
