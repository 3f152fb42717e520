import AsyncSupport
import DeviceSimulator
import LocationBridge
import PetSpotDomain
import Permissions
import TestSupport
import Testing

@MainActor
@Suite(.timeLimit(.minutes(1))) struct PermissionManagerLocationTests {
    // MARK: When-In-Use

    @Test func givenNotDetermined_whenUserAllowsWhileUsing_thenAuthorized() async throws {
        let harness = PermissionHarness()
        async let request = try await harness.manager.requestLocationWhenInUse()
        await harness.location.waitForCalls(1)
        harness.report(.authorizedWhenInUse)
        #expect(try await request == .authorized)
        #expect(harness.manager.locationStatus == .authorizedWhenInUse)
        #expect(harness.location.calls == [.requestWhenInUseAuthorization])
    }

    @Test func givenNotDetermined_whenUserDoesNotAllow_thenDenied() async throws {
        let harness = PermissionHarness()
        async let request = try await harness.manager.request(.location)
        await harness.location.waitForCalls(1)
        harness.report(.denied)
        #expect(try await request == .denied)
    }

    @Test func givenCreationCallbackReportsNotDetermined_whenWaiting_thenWaitsForTheRealAnswer() async throws {
        let harness = PermissionHarness()
        async let request = try await harness.manager.requestLocationWhenInUse()
        await harness.location.waitForCalls(1)
        harness.report(.notDetermined)
        harness.report(.authorizedWhenInUse)
        #expect(try await request == .authorized)
    }

    @Test(arguments: [LocationPermissionStatus.denied, .restricted, .authorizedWhenInUse, .authorizedAlways])
    func givenDeterminedStatus_whenRequestWhenInUse_thenReturnsAtOnceWithoutAsking(
        status: LocationPermissionStatus
    ) async throws {
        let harness = PermissionHarness(locationStatus: status)
        let state = try await harness.manager.requestLocationWhenInUse()
        #expect(state == PermissionState(status))
        #expect(harness.location.calls.isEmpty)
    }

    @Test func givenNoWhenInUseKey_whenRequest_thenThrowsNamingTheKeyAndNeverAsks() async {
        let harness = PermissionHarness(infoPlist: .complete(without: "NSLocationWhenInUseUsageDescription"))
        await #expect(throws: PermissionRequestError.missingUsageDescription(
            .location, keys: ["NSLocationWhenInUseUsageDescription"]
        )) {
            try await harness.manager.requestLocationWhenInUse()
        }
        #expect(harness.location.calls.isEmpty)
    }

    @Test func givenIOSSendsNoCallback_whenRequestWhenInUse_thenReturnsNotDeterminedAfterTheTimeout() async throws {
        let harness = PermissionHarness()
        async let request = try await harness.manager.requestLocationWhenInUse()
        await harness.location.waitForCalls(1)
        harness.clock.advance(by: .seconds(29))
        #expect(harness.manager.requestsInFlight == [.location])
        harness.clock.advance(by: .seconds(1))
        #expect(try await request == .notDetermined)
        #expect(harness.manager.requestsInFlight.isEmpty)
    }

    @Test func givenLateAnswerAfterTimeout_whenItArrives_thenStateAndStreamFollow() async throws {
        let harness = PermissionHarness()
        let updates = harness.manager.stateUpdates(for: .location)
        async let request = try await harness.manager.requestLocationWhenInUse()
        await harness.location.waitForCalls(1)
        harness.clock.advance(by: .seconds(60))
        #expect(try await request == .notDetermined)
        harness.report(.authorizedWhenInUse)
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next() == .notDetermined)
        #expect(await iterator.next() == .authorized)
    }

    @Test func givenTwoConcurrentRequests_whenAnswered_thenOneSystemRequestAndBothGetTheAnswer() async throws {
        let harness = PermissionHarness()
        async let first = try await harness.manager.requestLocationWhenInUse()
        await harness.location.waitForCalls(1)
        async let second = try await harness.manager.requestLocationWhenInUse()
        await Task.yield()
        harness.report(.authorizedWhenInUse)
        #expect(try await first == .authorized)
        #expect(try await second == .authorized)
        #expect(harness.location.calls == [.requestWhenInUseAuthorization])
    }

    // MARK: Always

    @Test func givenWhileUsing_whenUserChangesToAlwaysAllow_thenUpgraded() async throws {
        let harness = PermissionHarness(locationStatus: .authorizedWhenInUse)
        async let request = try await harness.manager.requestLocationAlways()
        await harness.location.waitForCalls(1)
        await harness.service.applicationWillResignActive()
        harness.report(.authorizedAlways)
        #expect(try await request == .upgraded)
        #expect(harness.manager.locationStatus == .authorizedAlways)
        #expect(harness.location.calls == [.requestAlwaysAuthorization])
        #expect(harness.ledger.alwaysLocationRequested)
    }

    @Test func givenWhileUsing_whenUserKeepsOnlyWhileUsing_thenStaysWhenInUseAtTheTimeoutWithoutHanging() async throws {
        let harness = PermissionHarness(locationStatus: .authorizedWhenInUse)
        async let request = try await harness.manager.requestLocationAlways()
        await harness.location.waitForCalls(1)
        await harness.service.applicationWillResignActive()
        harness.clock.advance(by: .seconds(30))
        #expect(try await request == .stayedWhenInUse)
        #expect(harness.manager.locationStatus == .authorizedWhenInUse)
    }

    @Test func givenAlwaysPromptAnswered_whenAppBecomesActiveAndRefreshes_thenWaitEndsAfterTheSettleDelay() async throws {
        let harness = PermissionHarness(locationStatus: .authorizedWhenInUse)
        async let request = try await harness.manager.requestLocationAlways()
        await harness.location.waitForCalls(1)
        await harness.service.applicationWillResignActive()
        await harness.becameActive()
        harness.clock.advance(by: .seconds(1))
        #expect(try await request == .stayedWhenInUse)
    }

    @Test func givenRefreshDuringAlwaysPrompt_whenCallbackArrivesWithinSettleDelay_thenUpgraded() async throws {
        let harness = PermissionHarness(locationStatus: .authorizedWhenInUse)
        async let request = try await harness.manager.requestLocationAlways()
        await harness.location.waitForCalls(1)
        await harness.service.applicationWillResignActive()
        await harness.becameActive()
        harness.report(.authorizedAlways)
        #expect(try await request == .upgraded)
    }

    @Test func givenAlwaysAlreadyRequestedThisInstall_whenRequestAlways_thenAlreadyAskedOnceWithoutCalling() async throws {
        let harness = PermissionHarness(
            locationStatus: .authorizedWhenInUse,
            ledger: InMemoryPermissionLedger(alwaysLocationRequested: true)
        )
        #expect(try await harness.manager.requestLocationAlways() == .alreadyAskedOnce)
        #expect(harness.location.calls.isEmpty)
        #expect(!harness.manager.canRequestLocationAlways)
    }

    @Test func givenKeepOnlyWhileUsingOnce_whenRequestAlwaysAgain_thenNotAskedTwice() async throws {
        let harness = PermissionHarness(locationStatus: .authorizedWhenInUse)
        async let first = try await harness.manager.requestLocationAlways()
        await harness.location.waitForCalls(1)
        await harness.service.applicationWillResignActive()
        harness.clock.advance(by: .seconds(30))
        #expect(try await first == .stayedWhenInUse)
        #expect(try await harness.manager.requestLocationAlways() == .alreadyAskedOnce)
        #expect(harness.location.calls == [.requestAlwaysAuthorization])
    }

    @Test func givenNotDetermined_whenRequestAlways_thenWhenInUseMustComeFirstAndNothingIsAsked() async throws {
        let harness = PermissionHarness()
        #expect(try await harness.manager.requestLocationAlways() == .needsWhenInUseFirst)
        #expect(harness.location.calls.isEmpty)
        #expect(!harness.ledger.alwaysLocationRequested)
    }

    @Test func givenAlways_whenRequestAlways_thenAlreadyAlways() async throws {
        let harness = PermissionHarness(locationStatus: .authorizedAlways)
        #expect(try await harness.manager.requestLocationAlways() == .alreadyAlways)
        #expect(harness.location.calls.isEmpty)
    }

    @Test(arguments: [LocationPermissionStatus.denied, .restricted])
    func givenDeniedOrRestricted_whenRequestAlways_thenNotAllowed(status: LocationPermissionStatus) async throws {
        let harness = PermissionHarness(locationStatus: status)
        #expect(try await harness.manager.requestLocationAlways() == .notAllowed(PermissionState(status)))
        #expect(harness.location.calls.isEmpty)
    }

    @Test func givenNoAlwaysKey_whenRequestAlways_thenThrowsNamingTheKey() async {
        let harness = PermissionHarness(
            locationStatus: .authorizedWhenInUse,
            infoPlist: .complete(without: "NSLocationAlwaysAndWhenInUseUsageDescription")
        )
        await #expect(throws: PermissionRequestError.missingUsageDescription(
            .location, keys: ["NSLocationAlwaysAndWhenInUseUsageDescription"]
        )) {
            try await harness.manager.requestLocationAlways()
        }
        #expect(harness.location.calls.isEmpty)
        #expect(!harness.ledger.alwaysLocationRequested)
    }

    @Test func givenIOSIgnoresTheAlwaysRequest_whenNoPromptAppears_thenTheWaitEndsSoonAndTheOneRequestIsNotUsedUp() async throws {
        let harness = PermissionHarness(locationStatus: .authorizedWhenInUse)
        async let request = try await harness.manager.requestLocationAlways()
        await harness.location.waitForCalls(1)

        harness.clock.advance(by: .seconds(1))

        #expect(try await request == .stayedWhenInUse)
        #expect(!harness.ledger.alwaysLocationRequested)
        #expect(harness.manager.canRequestLocationAlways)
    }

    // MARK: Settings and services

    @Test func givenLocationServicesOff_whenChecked_thenDeniedAndServicesReportedOff() async {
        let harness = PermissionHarness(locationStatus: .denied, servicesEnabled: false)
        #expect(await harness.manager.check(.location) == .denied)
        #expect(!harness.manager.locationServicesEnabled)
    }

    @Test func givenWhileUsing_whenChangedToNeverInSettings_thenStatusCallbackUpdatesState() async {
        let harness = PermissionHarness(locationStatus: .authorizedWhenInUse)
        let updates = harness.manager.stateUpdates(for: .location)
        harness.report(.denied)
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next() == .authorized)
        #expect(await iterator.next() == .denied)
        #expect(harness.manager.state(for: .location) == .denied)
    }

    @Test func givenDenied_whenOpenSettings_thenTheInjectedOpenerRuns() {
        let harness = PermissionHarness(locationStatus: .denied)
        harness.manager.openSettings()
        #expect(harness.settings.opened == 1)
    }
}
