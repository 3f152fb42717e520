import AsyncSupport
import DeviceInterfaces
import DeviceSimulator
import Foundation
import PetSpotDomain
import Testing
import TestSupport

@testable import LocationBridge

@MainActor
@Suite(.timeLimit(.minutes(1))) struct LocationServiceLocationTests {
    @Test(arguments: [LocationPermissionStatus.notDetermined, .denied, .restricted])
    func givenNotAuthorized_whenRequestingLocation_thenNilWithoutTouchingTheManager(
        status: LocationPermissionStatus
    ) async {
        let harness = Harness(status: status, cached: Harness.fix())

        #expect(await harness.service.requestLocation() == nil)
        #expect(harness.manager.calls.isEmpty)
    }

    @Test func givenFreshCachedFix_whenRequestingLocation_thenReturnedAtOnceWithoutARequest() async throws {
        let cached = Harness.fix(age: 119)
        let harness = Harness(status: .authorizedWhenInUse, cached: cached)

        let location = await harness.service.requestLocation()

        #expect(location == cached.userLocation)
        #expect(harness.manager.calls.isEmpty)
    }

    @Test(arguments: [Harness.fix(age: 121), Harness.fix(accuracy: -1)])
    func givenStaleOrInvalidCachedFix_whenRequestingLocation_thenAFreshFixIsRequested(cached: LocationFix) async {
        let harness = Harness(status: .authorizedAlways, cached: cached)
        let service = harness.service
        async let request = service.requestLocation()
        await harness.manager.waitForCalls(1)
        let fresh = Harness.fix(lat: 50.06, lon: 19.94)

        await harness.deliver(.locationsUpdated([fresh]))

        #expect(await request == fresh.userLocation)
        #expect(harness.manager.calls == [.requestLocation(.kilometer)])
    }

    @Test func givenSeveralFixesInOneCallback_whenDelivered_thenTheNewestValidOneIsReturned() async {
        let harness = Harness(status: .authorizedWhenInUse)
        let service = harness.service
        async let request = service.requestLocation()
        await harness.manager.waitForCalls(1)
        let older = Harness.fix(lat: 1, lon: 1, age: 3)
        let newest = Harness.fix(lat: 2, lon: 2)

        await harness.deliver(.locationsUpdated([older, newest, Harness.fix(lat: 3, lon: 3, accuracy: -1)]))

        #expect(await request == newest.userLocation)
    }

    // Rule 18: iOS may answer a request with an old cached fix; it is not the current location.
    @Test func givenWaitingRequest_whenTheRequestDeliversAFixOlderThanTheFreshnessBound_thenNil() async {
        let harness = Harness(status: .authorizedWhenInUse)
        let service = harness.service
        async let request = service.requestLocation()
        await harness.manager.waitForCalls(1)

        await harness.deliver(.locationsUpdated([Harness.fix(age: 121)]))

        #expect(await request == nil)
    }

    @Test func givenWaitingRequest_whenTheRequestDeliversAFixWithinTheFreshnessBound_thenItIsReturned() async {
        let harness = Harness(status: .authorizedWhenInUse)
        let service = harness.service
        async let request = service.requestLocation()
        await harness.manager.waitForCalls(1)
        let recent = Harness.fix(age: 120)

        await harness.deliver(.locationsUpdated([recent]))

        #expect(await request == recent.userLocation)
    }

    @Test func givenWaitingRequest_whenTheManagerFails_thenNil() async {
        let harness = Harness(status: .authorizedWhenInUse)
        let service = harness.service
        async let request = service.requestLocation()
        await harness.manager.waitForCalls(1)

        await harness.deliver(.failed(.locationUnknown))

        #expect(await request == nil)
    }

    @Test func givenWaitingRequest_whenNoFixComesWithinTheTimeout_thenNilAndTheRequestIsStopped() async {
        let harness = Harness(status: .authorizedWhenInUse)
        let service = harness.service
        async let request = service.requestLocation()
        await harness.manager.waitForCalls(1)

        harness.clock.advance(by: .seconds(5))

        #expect(await request == nil)
        await harness.manager.waitForCalls(2)
        #expect(harness.manager.calls == [.requestLocation(.kilometer), .stopUpdatingLocation])
    }

    @Test func givenInjectedTimeout_whenItPasses_thenNilAtThatTimeAndNotBefore() async {
        let harness = Harness(
            status: .authorizedWhenInUse,
            configuration: .init(locationTimeout: .milliseconds(1500))
        )
        let service = harness.service
        async let request = service.requestLocation()
        await harness.manager.waitForCalls(1)

        harness.clock.advance(by: .milliseconds(1499))
        #expect(await harness.service.locationWaiterCount == 1)
        harness.clock.advance(by: .milliseconds(1))

        #expect(await request == nil)
    }

    @Test func givenTimedOutRequest_whenTheFixArrivesLate_thenItIsIgnoredAndTheNextRequestStillWorks() async {
        let harness = Harness(status: .authorizedWhenInUse)
        let service = harness.service
        async let first = service.requestLocation()
        await harness.manager.waitForCalls(1)
        harness.clock.advance(by: .seconds(5))
        #expect(await first == nil)

        await harness.deliver(.locationsUpdated([Harness.fix(lat: 9, lon: 9)]))
        async let second = service.requestLocation()
        await harness.manager.waitForCalls(3)
        let fresh = Harness.fix(lat: 10, lon: 10)
        await harness.deliver(.locationsUpdated([fresh]))

        #expect(await second == fresh.userLocation)
    }

    @Test func givenSuccess_whenAFailureFollows_thenTheSuccessStands() async {
        let harness = Harness(status: .authorizedWhenInUse)
        let service = harness.service
        async let request = service.requestLocation()
        await harness.manager.waitForCalls(1)
        let fix = Harness.fix()

        await harness.deliver(.locationsUpdated([fix]))
        await harness.deliver(.failed(.network))

        #expect(await request == fix.userLocation)
        #expect(await harness.service.locationWaiterCount == 0)
    }

    @Test func givenSuccess_whenASecondSuccessFollows_thenTheFirstStandsAndNothingResumesTwice() async {
        let harness = Harness(status: .authorizedWhenInUse)
        let service = harness.service
        async let request = service.requestLocation()
        await harness.manager.waitForCalls(1)
        let first = Harness.fix(lat: 1, lon: 1)

        await harness.deliver(.locationsUpdated([first]))
        await harness.deliver(.locationsUpdated([Harness.fix(lat: 2, lon: 2)]))

        #expect(await request == first.userLocation)
    }

    @Test func givenWaitingRequest_whenCancelledBeforeTheCallback_thenNilAndTheRequestIsStopped() async {
        let harness = Harness(status: .authorizedWhenInUse)
        let service = harness.service
        await withTaskGroup(of: UserLocation?.self) { request in
            request.addTask { await service.requestLocation() }
            await harness.manager.waitForCalls(1)

            request.cancelAll()

            #expect(await request.next() == .some(nil))
        }
        await harness.manager.waitForCalls(2)
        #expect(harness.manager.calls.last == .stopUpdatingLocation)
        #expect(await harness.service.locationWaiterCount == 0)
    }

    @Test func givenCancelledRequest_whenTheCallbackArrivesAfterwards_thenItIsIgnored() async {
        let harness = Harness(status: .authorizedWhenInUse)
        let service = harness.service
        await withTaskGroup(of: UserLocation?.self) { request in
            request.addTask { await service.requestLocation() }
            await harness.manager.waitForCalls(1)
            request.cancelAll()
            #expect(await request.next() == .some(nil))
        }

        await harness.deliver(.locationsUpdated([Harness.fix()]))
        await harness.deliver(.failed(.locationUnknown))
        harness.clock.advance(by: .seconds(10))

        #expect(await harness.service.locationWaiterCount == 0)
    }

    @Test func givenAlreadyCancelledTask_whenRequestingLocation_thenNilWithoutTouchingTheManager() async {
        let harness = Harness(status: .authorizedWhenInUse)
        let service = harness.service
        let location = await withTaskGroup(of: UserLocation?.self) { request in
            request.addTask {
                withUnsafeCurrentTask { $0?.cancel() }
                return await service.requestLocation()
            }
            return await request.next() ?? UserLocation?.none
        }

        #expect(location == nil)
        #expect(harness.manager.calls.isEmpty)
    }

    @Test func givenOneOfTwoCallersCancelled_whenTheFixArrives_thenTheOtherGetsIt() async {
        let harness = Harness(status: .authorizedWhenInUse)
        let service = harness.service
        let fix = Harness.fix()
        await withTaskGroup(of: UserLocation?.self) { first in
            first.addTask { await service.requestLocation() }
            await harness.manager.waitForCalls(1)
            async let second = service.requestLocation()
            await waitUntil { await service.locationWaiterCount == 2 }

            first.cancelAll()
            #expect(await first.next() == .some(nil))
            await harness.deliver(.locationsUpdated([fix]))

            #expect(await second == fix.userLocation)
        }
        #expect(harness.manager.calls == [.requestLocation(.kilometer)])
    }

    @Test func givenConcurrentCallers_whenOneFixArrives_thenOneRequestServesThemAll() async {
        let harness = Harness(status: .authorizedWhenInUse)
        let service = harness.service
        let fix = Harness.fix()
        await withTaskGroup(of: UserLocation?.self) { callers in
            for _ in 0..<5 { callers.addTask { await service.requestLocation() } }
            await waitUntil { await service.locationWaiterCount == 5 }

            await harness.deliver(.locationsUpdated([fix]))

            for await location in callers { #expect(location == fix.userLocation) }
        }
        #expect(harness.manager.calls == [.requestLocation(.kilometer)])
    }

    @Test func givenWaitingRequest_whenStatusChangesToDenied_thenNilAtOnce() async {
        let harness = Harness(status: .authorizedWhenInUse)
        let service = harness.service
        async let request = service.requestLocation()
        await harness.manager.waitForCalls(1)

        await harness.deliver(.authorizationChanged(.denied, .fullAccuracy))

        #expect(await request == nil)
    }

    @Test func givenWaitingRequest_whenOnlyAccuracyChanges_thenItKeepsWaitingForTheFix() async {
        let harness = Harness(status: .authorizedWhenInUse)
        let service = harness.service
        async let request = service.requestLocation()
        await harness.manager.waitForCalls(1)

        await harness.deliver(.authorizationChanged(.authorizedWhenInUse, .reducedAccuracy))
        #expect(await harness.service.locationWaiterCount == 1)
        let fix = Harness.fix(accuracy: 3000)
        await harness.deliver(.locationsUpdated([fix]))

        #expect(await request == fix.userLocation)
    }

    @Test func givenCallbackWithOnlyInvalidFixes_whenDelivered_thenNil() async {
        let harness = Harness(status: .authorizedWhenInUse)
        let service = harness.service
        async let request = service.requestLocation()
        await harness.manager.waitForCalls(1)

        await harness.deliver(.locationsUpdated([Harness.fix(accuracy: -1)]))

        #expect(await request == nil)
    }
}
