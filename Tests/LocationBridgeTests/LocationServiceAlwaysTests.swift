import AsyncSupport
import DeviceInterfaces
import DeviceSimulator
import Foundation
import PetSpotDomain
import Testing
import TestSupport

@testable import LocationBridge

/// The Always step (rule 6) through the one location bridge: bounded, ended by the app becoming active
/// again when iOS sends no callback, and telling an ignored request from an answered one.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct LocationServiceAlwaysTests {
    @Test(arguments: [LocationPermissionStatus.notDetermined, .authorizedAlways, .denied, .restricted])
    func givenStatusIsNotWhileUsing_whenRequestingAlways_thenReturnsAtOnceWithoutAsking(
        status: LocationPermissionStatus
    ) async {
        let harness = Harness(status: status)

        let answer = await harness.service.requestAlwaysAuthorization()

        #expect(answer == AuthorizationAnswer(status: status, promptAppeared: false))
        #expect(harness.manager.calls.isEmpty)
    }

    @Test func givenWhileUsing_whenPromptShownAndChangeToAlwaysAllow_thenAlwaysWithThePromptSeen() async {
        let harness = Harness(status: .authorizedWhenInUse)
        let service = harness.service
        async let request = service.requestAlwaysAuthorization()
        await harness.manager.waitForCalls(1)

        await harness.service.applicationWillResignActive()
        await harness.deliver(.authorizationChanged(.authorizedAlways, .fullAccuracy))

        #expect(await request == AuthorizationAnswer(status: .authorizedAlways, promptAppeared: true))
        #expect(harness.manager.calls == [.requestAlwaysAuthorization])
    }

    @Test func givenPromptShown_whenKeepOnlyWhileUsing_thenTheWaitEndsTheSettleDelayAfterTheAppIsActiveAgain() async {
        let harness = Harness(status: .authorizedWhenInUse)
        let service = harness.service
        async let request = service.requestAlwaysAuthorization()
        await harness.manager.waitForCalls(1)
        await service.applicationWillResignActive()
        harness.clock.advance(by: .seconds(5))
        #expect(await service.authorizationWaiterCount == 1)

        await service.applicationDidBecomeActive()
        harness.clock.advance(by: .milliseconds(999))
        #expect(await service.authorizationWaiterCount == 1)
        harness.clock.advance(by: .milliseconds(1))

        #expect(await request == AuthorizationAnswer(status: .authorizedWhenInUse, promptAppeared: true))
    }

    @Test func givenIOSIgnoresTheRequest_whenTheAppNeverResignsActive_thenTheWaitEndsAfterThePromptAppearanceBound() async {
        let harness = Harness(status: .authorizedWhenInUse)
        let service = harness.service
        async let request = service.requestAlwaysAuthorization()
        await harness.manager.waitForCalls(1)

        harness.clock.advance(by: .seconds(1))

        #expect(await request == AuthorizationAnswer(status: .authorizedWhenInUse, promptAppeared: false))
        #expect(await service.authorizationWaiterCount == 0)
    }

    @Test func givenPromptLeftUp_whenNoAnswerEver_thenTheWaitEndsAtTheAuthorizationTimeout() async {
        let harness = Harness(status: .authorizedWhenInUse)
        let service = harness.service
        async let request = service.requestAlwaysAuthorization()
        await harness.manager.waitForCalls(1)
        await service.applicationWillResignActive()

        harness.clock.advance(by: .seconds(29))
        #expect(await service.authorizationWaiterCount == 1)
        harness.clock.advance(by: .seconds(1))

        #expect(await request == AuthorizationAnswer(status: .authorizedWhenInUse, promptAppeared: true))
    }

    @Test func givenAWaitingCaller_whenItsTaskIsCancelled_thenItIsReleasedAtOnceAndTheRoundEnds() async {
        let harness = Harness(status: .authorizedWhenInUse)
        let service = harness.service
        await withTaskGroup(of: AuthorizationAnswer.self) { request in
            request.addTask { await service.requestAlwaysAuthorization() }
            await harness.manager.waitForCalls(1)
            await service.applicationWillResignActive()

            request.cancelAll()

            #expect(await request.next()?.status == .authorizedWhenInUse)
        }
        await waitUntil { await service.authorizationWaiterCount == 0 }
    }

    @Test func givenWhenInUseAlertUp_whenTheAnswerComesAsTheAppIsActiveAgain_thenItIsTheAnswer() async {
        let harness = Harness(status: .notDetermined)
        let service = harness.service
        async let request = service.requestWhenInUseAuthorization()
        await harness.manager.waitForCalls(1)
        await service.applicationWillResignActive()

        await service.applicationDidBecomeActive()
        await harness.deliver(.authorizationChanged(.denied, .fullAccuracy))

        #expect(await request == .denied)
    }

    @Test func givenWhenInUseAlertDismissedByABackgroundTrip_whenTheAppIsActiveAgain_thenTheWaitEndsAfterTheSettleDelay() async {
        let harness = Harness(status: .notDetermined)
        let service = harness.service
        async let request = service.requestWhenInUseAuthorization()
        await harness.manager.waitForCalls(1)
        await service.applicationWillResignActive()
        harness.clock.advance(by: .seconds(3))

        await service.applicationDidBecomeActive()
        harness.clock.advance(by: .milliseconds(999))
        #expect(await service.authorizationWaiterCount == 1)
        harness.clock.advance(by: .milliseconds(1))

        #expect(await request == .notDetermined)
        #expect(await service.authorizationWaiterCount == 0)
    }

    @Test func givenWhenInUseAlertUp_whenTheAppReachesTheBackground_thenTheWaitEndsAtOnceAndTheNextRequestAsksAgain() async {
        let harness = Harness(status: .notDetermined)
        let service = harness.service
        async let request = service.requestWhenInUseAuthorization()
        await harness.manager.waitForCalls(1)
        await service.applicationWillResignActive()

        await service.applicationDidEnterBackground()

        #expect(await request == .notDetermined)
        async let again = await service.requestWhenInUseAuthorization()
        await harness.manager.waitForCalls(2)
        #expect(harness.manager.calls == [.requestWhenInUseAuthorization, .requestWhenInUseAuthorization])
        await harness.deliver(.authorizationChanged(.authorizedWhenInUse, .fullAccuracy))
        #expect(await again == .authorizedWhenInUse)
    }

    @Test func givenWhenInUseAnsweredButItsCallbackNotYetHandled_whenAlwaysIsRequested_thenItIsAskedAndNeverJoinsTheOldWait() async {
        let harness = Harness(status: .notDetermined)
        let service = harness.service
        async let whenInUse = service.requestWhenInUseAuthorization()
        await harness.manager.waitForCalls(1)
        await service.applicationWillResignActive()
        harness.manager.authorizationStatus = .authorizedWhenInUse

        async let always = await service.requestAlwaysAuthorization()
        await harness.manager.waitForCalls(2)

        #expect(await whenInUse == .authorizedWhenInUse)
        #expect(harness.manager.calls == [.requestWhenInUseAuthorization, .requestAlwaysAuthorization])
        harness.clock.advance(by: .seconds(1))
        #expect(await always == AuthorizationAnswer(status: .authorizedWhenInUse, promptAppeared: false))
    }
}
