import AsyncSupport
import DeviceInterfaces
import LocationBridge
import PetSpotDomain
import Permissions
import TestSupport
import Testing

/// An app with no feature that uses Motion or Health is built without their adapters (it links
/// neither CoreMotion nor HealthKit): its manager offers location alone.
@MainActor
@Suite struct PermissionManagerLocationOnlyTests {
    let location = FakeLocationManager(status: .notDetermined, servicesEnabled: true)
    let manager: PermissionManager

    init() {
        let clock = VirtualClock()
        manager = PermissionManager(
            locationService: LocationService(manager: location, clock: clock),
            motion: nil,
            health: nil,
            infoPlist: .complete,
            ledger: InMemoryPermissionLedger(),
            settingsOpener: SettingsOpener {},
            clock: clock
        )
    }

    @Test func givenNoMotionOrHealth_whenAskedWhatItOffers_thenLocationAlone() {
        #expect(manager.permissions == [.location])
    }

    @Test func givenNoMotionOrHealth_whenEachIsRequested_thenUnavailableAndNothingAsked() async throws {
        #expect(try await manager.request(.motion) == .unavailable)
        #expect(try await manager.request(.healthKit) == .unavailable)
        #expect(await manager.check(.healthKit) == .unavailable)
        #expect(manager.requestsInFlight.isEmpty)
    }

    @Test func givenAllAdapters_whenAskedWhatItOffers_thenAllThree() {
        #expect(PermissionHarness().manager.permissions == [.location, .motion, .healthKit])
    }
}
