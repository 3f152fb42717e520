import AsyncSupport
import DeviceInterfaces
import DeviceSimulator
import Foundation
import PetSpotDomain
import Testing
import TestSupport

@testable import LocationBridge

@MainActor
@Suite(.timeLimit(.minutes(1))) struct LocationServiceAuthorizationTests {
    @Test(arguments: [
        LocationPermissionStatus.authorizedWhenInUse, .authorizedAlways, .denied, .restricted,
    ])
    func givenStatusAlreadyDetermined_whenRequestingWhenInUse_thenReturnsItAtOnceWithoutAsking(
        status: LocationPermissionStatus
    ) async {
        let harness = Harness(status: status)

        let answer = await harness.service.requestWhenInUseAuthorization()

        #expect(answer == status)
        #expect(harness.manager.calls.isEmpty)
    }

    @Test func givenNotDetermined_whenCreationCallbackArrivesBeforeTheAnswer_thenWaitsForTheRealAnswer() async {
        let harness = Harness(status: .notDetermined)
        let service = harness.service
        async let request = service.requestWhenInUseAuthorization()
        await harness.manager.waitForCalls(1)

        await harness.deliver(.authorizationChanged(.notDetermined, .fullAccuracy))
        await harness.deliver(.authorizationChanged(.authorizedWhenInUse, .fullAccuracy))

        #expect(await request == .authorizedWhenInUse)
        #expect(harness.manager.calls == [.requestWhenInUseAuthorization])
    }

    @Test func givenNotDetermined_whenPersonDeclines_thenReturnsDenied() async {
        let harness = Harness(status: .notDetermined)
        let service = harness.service
        async let request = service.requestWhenInUseAuthorization()
        await harness.manager.waitForCalls(1)

        await harness.deliver(.authorizationChanged(.denied, .fullAccuracy))

        #expect(await request == .denied)
    }

    @Test func givenInfoPlistKeyMissing_whenNoCallbackEverComes_thenReturnsNotDeterminedAfterTheBound() async {
        let harness = Harness(status: .notDetermined)
        let service = harness.service
        async let request = service.requestWhenInUseAuthorization()
        await harness.manager.waitForCalls(1)

        harness.clock.advance(by: .seconds(29))
        #expect(await service.authorizationWaiterCount == 1)
        harness.clock.advance(by: .seconds(1))

        #expect(await request == .notDetermined)
        #expect(await service.authorizationWaiterCount == 0)
    }

    @Test func givenTwoConcurrentRequests_whenAnswered_thenOneSystemRequestAndBothGetTheAnswer() async {
        let harness = Harness(status: .notDetermined)
        let service = harness.service
        async let first = service.requestWhenInUseAuthorization()
        await harness.manager.waitForCalls(1)
        async let second = await service.requestWhenInUseAuthorization()
        await waitUntil { await service.authorizationWaiterCount == 2 }

        await harness.deliver(.authorizationChanged(.authorizedWhenInUse, .reducedAccuracy))

        #expect(await first == .authorizedWhenInUse)
        #expect(await second == .authorizedWhenInUse)
        #expect(harness.manager.calls == [.requestWhenInUseAuthorization])
    }

    @Test func givenWaitingRequest_whenCancelled_thenReturnsNotDeterminedAndALateAnswerIsIgnored() async {
        let harness = Harness(status: .notDetermined)
        let service = harness.service
        await withTaskGroup(of: LocationPermissionStatus.self) { request in
            request.addTask { await service.requestWhenInUseAuthorization() }
            await harness.manager.waitForCalls(1)

            request.cancelAll()
            #expect(await request.next() == .notDetermined)
        }
        await harness.deliver(.authorizationChanged(.authorizedWhenInUse, .fullAccuracy))
        harness.clock.advance(by: .seconds(60))

        #expect(await service.authorizationWaiterCount == 0)
        #expect(await service.authorizationStatus == .authorizedWhenInUse)
    }

    @Test func givenAnsweredRequest_whenTheTimeoutWouldHaveFired_thenNothingIsResumedAgain() async {
        let harness = Harness(status: .notDetermined)
        let service = harness.service
        async let request = service.requestWhenInUseAuthorization()
        await harness.manager.waitForCalls(1)
        await harness.deliver(.authorizationChanged(.denied, .fullAccuracy))
        #expect(await request == .denied)

        harness.clock.advance(by: .seconds(60))
        await harness.deliver(.authorizationChanged(.authorizedWhenInUse, .fullAccuracy))

        #expect(await service.authorizationWaiterCount == 0)
    }

    @Test func givenObserver_whenStatusChanges_thenEachRealChangeIsReportedAndTheCreationCallbackIsNot() async {
        let harness = Harness(status: .denied)
        let updates = await harness.service.authorizationStatusUpdates()
        var iterator = updates.makeAsyncIterator()

        await harness.deliver(.authorizationChanged(.denied, .fullAccuracy))  // creation-time
        await harness.deliver(.authorizationChanged(.authorizedWhenInUse, .fullAccuracy))
        await harness.deliver(.authorizationChanged(.authorizedWhenInUse, .reducedAccuracy))
        await harness.deliver(.authorizationChanged(.denied, .reducedAccuracy))

        #expect(await iterator.next() == .authorizedWhenInUse)
        #expect(await iterator.next() == .denied)
    }
}
