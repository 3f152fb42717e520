import DeviceInterfaces
import DeviceSimulator
import Foundation
import LocationBridge
import PetSpotDomain
import Testing

/// Rule 2, rule 9, rule 11, rule 13 to rule 18 (docs/requirements.md): the manager's callbacks, accuracy and `requestLocation()`.
@Suite(.timeLimit(.minutes(1))) @MainActor struct SimulatedLocationManagerTests {
    private static let authorized: (inout DeviceConfiguration) -> Void = {
        $0.location.authorization = .authorizedWhenInUse
        $0.location.fixDelay = .seconds(2)
    }

    @Test func rule02_givenManagerOnMainActor_whenSeveralCallbacksHappen_thenTheyArriveInOrderOnItsEventStream() async throws {
        let harness = DeviceHarness()
        let manager = try harness.device.launch()
        var iterator = manager.events.makeAsyncIterator()
        manager.requestWhenInUseAuthorization()
        try harness.device.answerSystemAlert(.allowWhileUsing)
        manager.requestLocation()
        await harness.advance(by: .seconds(2))

        #expect(await iterator.next() == .authorizationChanged(.notDetermined, .fullAccuracy))
        #expect(await iterator.next() == .authorizationChanged(.authorizedWhenInUse, .fullAccuracy))
        guard case .locationsUpdated(let fixes) = await iterator.next() else {
            Issue.record("expected a location update third")
            return
        }
        #expect(fixes.count == 1)
    }

    @Test func rule09_givenServicesOff_whenAskedFromOffTheMainActor_thenTheManagerAnswersAsynchronously() async throws {
        let harness = DeviceHarness { $0.location.servicesEnabled = false }
        let manager = try await harness.launched()
        async let enabled = manager.locationServicesEnabled()  // a child task: off the main actor

        #expect(await enabled == false)
        #expect(manager.authorizationStatus == .denied)
    }

    @Test func rule11_givenPreciseLocationOff_whenRequestingLocation_thenFixIsBlurredUpTo20KmAndReducedReported() async throws {
        let harness = DeviceHarness {
            Self.authorized(&$0)
            $0.location.preciseLocation = false
        }
        let manager = try await harness.launched()
        manager.requestLocation()
        await harness.advance(by: .seconds(2))

        #expect(harness.callbacks.first == .authorizationChanged(.authorizedWhenInUse, .reducedAccuracy))
        guard case .locationsUpdated(let fixes) = harness.callbacks.last, let fix = fixes.last else {
            Issue.record("expected a location update")
            return
        }
        let distance = Self.metres(from: DeviceHarness.home, toLatitude: fix.latitude, longitude: fix.longitude)
        #expect(distance >= 900 && distance <= 20_100)
        #expect(fix.horizontalAccuracy >= distance)
    }

    @Test func rule11_givenPreciseLocationTurnedOffInSettings_whenAppReturns_thenAccuracyChangeReportedAsAuthorizationCallback() async throws {
        let harness = DeviceHarness(Self.authorized)
        let manager = try await harness.launched()
        try harness.device.openSettings()
        try harness.device.setPreciseLocation(false)
        try harness.device.foreground()

        #expect(harness.callbacks == [
            .authorizationChanged(.authorizedWhenInUse, .fullAccuracy),
            .authorizationChanged(.authorizedWhenInUse, .reducedAccuracy),
        ])
        #expect(manager.accuracyAuthorization == .reducedAccuracy)
    }

    @Test func rule12_givenPurposeKeyMissing_whenRequestingTemporaryFullAccuracy_thenPromptDeclinedAndNoAlert() async throws {
        let harness = DeviceHarness {
            Self.authorized(&$0)
            $0.location.preciseLocation = false
        }
        let manager = try await harness.launched()
        var result: LocationManagerError?
        manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "NearbyPets") { result = $0 }
        await harness.advance(by: .zero)

        #expect(result == .promptDeclined)
        #expect(harness.device.systemAlert == nil)
        #expect(manager.accuracyAuthorization == .reducedAccuracy)
    }

    @Test func rule12_givenReducedAccuracyAndPurposeKey_whenAllowOnce_thenFullAccuracyUntilTheAppLeavesUse() async throws {
        let harness = DeviceHarness {
            Self.authorized(&$0)
            $0.location.preciseLocation = false
            $0.temporaryLocationPurposeKeys = ["NearbyPets"]
            $0.location.allowOnceExpiryDelay = .seconds(5)
        }
        let manager = try await harness.launched()
        var result: LocationManagerError? = .network
        manager.requestTemporaryFullAccuracyAuthorization(withPurposeKey: "NearbyPets") { result = $0 }
        #expect(harness.device.systemAlert?.kind == .locationTemporaryFullAccuracy)
        try harness.device.answerSystemAlert(.allowOnce)
        #expect(result == nil)
        #expect(manager.accuracyAuthorization == .fullAccuracy)

        try harness.device.background()
        await harness.advance(by: .seconds(5))
        try harness.device.foreground()
        #expect(harness.callbacks == [
            .authorizationChanged(.authorizedWhenInUse, .reducedAccuracy),
            .authorizationChanged(.authorizedWhenInUse, .fullAccuracy),
            .authorizationChanged(.authorizedWhenInUse, .reducedAccuracy),
        ])
    }

    @Test func rule13_givenAuthorized_whenRequestingLocation_thenExactlyOneUpdateThenItStops() async throws {
        let harness = DeviceHarness(Self.authorized)
        let manager = try await harness.launched()
        var iterator = manager.events.makeAsyncIterator()
        _ = await iterator.next()
        manager.requestLocation()
        await harness.advance(by: .seconds(2))

        let expected = LocationFix(
            latitude: DeviceHarness.home.latitude,
            longitude: DeviceHarness.home.longitude,
            horizontalAccuracy: 5,
            timestamp: harness.device.configuration.epoch.addingTimeInterval(2)
        )
        #expect(await iterator.next() == .locationsUpdated([expected]))
        await harness.advance(by: .seconds(60))
        #expect(try await harness.remainingEvents(of: &iterator) == [])
    }

    @Test func rule14_givenFixDelay_whenRequestingLocation_thenOutcomeArrivesOnlyAfterTheDelayOnTheClock() async throws {
        let harness = DeviceHarness(Self.authorized)
        let manager = try await harness.launched()
        manager.requestLocation()
        await harness.advance(by: .milliseconds(1_999))
        #expect(harness.callbacks.count == 1)

        await harness.advance(by: .milliseconds(1))
        let last = harness.device.log.last
        #expect(last?.elapsed == .seconds(2))
        #expect(last?.date == harness.device.configuration.epoch.addingTimeInterval(2))
        if case .delegateCallback(_, .locationsUpdated) = last?.event {} else {
            Issue.record("expected the fix at 2 s, got \(String(describing: last))")
        }
    }

    @Test func rule14_givenKilometreAccuracyAsked_whenRequestingLocation_thenTheCoarseFixComesAfterTheCoarseDelay() async throws {
        let harness = DeviceHarness {
            Self.authorized(&$0)
            $0.location.coarseFixDelay = .milliseconds(300)
        }
        let manager = try await harness.launched()
        manager.desiredAccuracy = .kilometer
        manager.requestLocation()
        await harness.advance(by: .milliseconds(299))
        #expect(harness.callbacks.count == 1)

        await harness.advance(by: .milliseconds(1))
        guard case .locationsUpdated(let fixes) = harness.callbacks.last else {
            Issue.record("expected a fix at 300 ms, got \(String(describing: harness.callbacks.last))")
            return
        }
        #expect(fixes.map(\.horizontalAccuracy) == [1_000])
    }

    @Test func rule14_givenNoFixPossible_whenRequestingLocation_thenLocationUnknownAfterTheTimeout() async throws {
        let harness = DeviceHarness {
            Self.authorized(&$0)
            $0.location.position = nil
            $0.location.noFixTimeout = .seconds(10)
        }
        let manager = try await harness.launched()
        manager.requestLocation()
        await harness.advance(by: .seconds(9))
        #expect(harness.callbacks.count == 1)

        await harness.advance(by: .seconds(1))
        #expect(harness.callbacks.last == .failed(.locationUnknown))
        #expect(manager.location == nil)
    }

    @Test func rule15_givenNotAuthorized_whenRequestingLocation_thenFailsWithDenied() async throws {
        let harness = DeviceHarness { $0.location.authorization = .denied }
        let manager = try await harness.launched()
        manager.requestLocation()
        await harness.advance(by: .zero)

        #expect(harness.callbacks == [.authorizationChanged(.denied, .fullAccuracy), .failed(.denied)])
    }

    @Test func rule16_givenRequestInFlight_whenRequestingAgain_thenOnlyOneOutcome() async throws {
        let harness = DeviceHarness(Self.authorized)
        let manager = try await harness.launched()
        manager.requestLocation()
        await harness.advance(by: .seconds(1))
        manager.requestLocation()
        await harness.advance(by: .seconds(5))

        let outcomes = harness.callbacks.dropFirst()
        #expect(outcomes.count == 1)
        #expect(harness.device.log.first { if case .delegateCallback(_, .locationsUpdated) = $0.event { true } else { false } }?.elapsed == .seconds(2))
    }

    @Test func rule16_givenRequestInFlight_whenStopUpdatingLocation_thenNoOutcome() async throws {
        let harness = DeviceHarness(Self.authorized)
        let manager = try await harness.launched()
        manager.requestLocation()
        await harness.advance(by: .seconds(1))
        manager.stopUpdatingLocation()
        await harness.advance(by: .seconds(30))

        #expect(harness.callbacks.count == 1)
        #expect(harness.events.contains(.locationRequestCancelled(manager: manager.id)))
    }

    @Test func rule17_givenBothOutcomeKinds_whenTheyHappen_thenBothArriveOnTheOneEventStream() async throws {
        let harness = DeviceHarness(Self.authorized)
        let manager = try await harness.launched()
        var iterator = manager.events.makeAsyncIterator()
        manager.requestLocation()
        await harness.advance(by: .seconds(2))
        harness.device.move(to: nil)
        manager.requestLocation()
        await harness.advance(by: .seconds(10))

        let events = try await harness.remainingEvents(of: &iterator)
        #expect(events.count == 3)
        #expect(events.last == .failed(.locationUnknown))
        if case .locationsUpdated = events[1] {} else { Issue.record("expected a fix, got \(events[1])") }
    }

    @Test func rule18_givenNoFixEverTaken_whenReadingLocation_thenNil() async throws {
        let harness = DeviceHarness(Self.authorized)
        let manager = try await harness.launched()

        #expect(manager.location == nil)
    }

    @Test func rule18_givenCachedFix_whenReadingLocation_thenItCarriesItsVirtualAge() async throws {
        let harness = DeviceHarness {
            Self.authorized(&$0)
            $0.location.cachedFix = .init(coordinate: DeviceHarness.home, horizontalAccuracy: 65, age: .seconds(3_600))
        }
        let manager = try await harness.launched()
        await harness.advance(by: .seconds(60))

        let fix = try #require(manager.location)
        #expect(harness.device.now.timeIntervalSince(fix.timestamp) == 3_660)
        #expect(fix.horizontalAccuracy == 65)
    }

    @Test func rule18_givenCachedFixDeliveredOnRequest_whenRequestingLocation_thenTheOldFixArrivesAtOnce() async throws {
        let harness = DeviceHarness {
            Self.authorized(&$0)
            $0.location.cachedFix = .init(coordinate: DeviceHarness.home, age: .seconds(600))
            $0.location.deliversCachedFixOnRequest = true
        }
        let manager = try await harness.launched()
        manager.requestLocation()
        await harness.advance(by: .zero)

        guard case .locationsUpdated(let fixes) = harness.callbacks.last, let fix = fixes.last else {
            Issue.record("expected the cached fix")
            return
        }
        #expect(fix.timestamp == harness.device.configuration.epoch.addingTimeInterval(-600))
    }

    private static func metres(from origin: GeoCoordinate, toLatitude latitude: Double, longitude: Double) -> Double {
        let radius = 6_371_000.0
        let dLat = (latitude - origin.latitude) * .pi / 180
        let dLon = (longitude - origin.longitude) * .pi / 180
        let a = sin(dLat / 2) * sin(dLat / 2)
            + cos(origin.latitude * .pi / 180) * cos(latitude * .pi / 180) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * radius * asin(min(1, a.squareRoot()))
    }
}
