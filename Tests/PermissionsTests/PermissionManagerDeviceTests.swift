import AsyncSupport
import DeviceInterfaces
import DeviceSimulator
import PetSpotDomain
import Permissions
import Testing

/// The permission manager inside the app on the simulated iPhone, which follows the iOS rules of docs/requirements.md.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct PermissionManagerDeviceTests {
    // MARK: Location, two steps (rule 3 to rule 6)

    @Test func givenFreshInstall_whenWhileUsingThenChangeToAlwaysAllow_thenTwoPromptsAndAlways() async throws {
        let harness = try DevicePermissionHarness()
        await harness.settle()
        async let first = try await harness.manager.requestLocationWhenInUse()
        await harness.alertShown(.locationWhenInUse)
        try harness.device.answerSystemAlert(.allowWhileUsing)
        #expect(try await first == .authorized)
        async let second = try await harness.manager.requestLocationAlways()
        await harness.alertShown(.locationAlwaysUpgrade)
        try harness.device.answerAlwaysUpgrade(.changeToAlwaysAllow)
        #expect(try await second == .upgraded)
        #expect(harness.manager.locationStatus == .authorizedAlways)
        #expect(harness.alertsShown == [.locationWhenInUse, .locationAlwaysUpgrade])
    }

    @Test func givenWhileUsing_whenKeepOnlyWhileUsing_thenNoCallbackAndTheWaitEndsWhenTheAppIsActiveAgain() async throws {
        let harness = try DevicePermissionHarness(location: .init(authorization: .authorizedWhenInUse))
        await harness.settle()
        async let request = try await harness.manager.requestLocationAlways()
        await harness.alertShown(.locationAlwaysUpgrade)
        #expect(harness.device.scenePhase == .inactive)
        try harness.device.answerAlwaysUpgrade(.keepOnlyWhileUsing)
        #expect(harness.device.scenePhase == .active)
        await harness.becameActive()
        harness.clock.advance(by: .seconds(1))
        #expect(try await request == .stayedWhenInUse)
        #expect(try await harness.manager.requestLocationAlways() == .alreadyAskedOnce)
        #expect(harness.alertsShown == [.locationAlwaysUpgrade])
    }

    @Test func givenAllowOnce_whenRequestAlways_thenIOSIgnoresItTheWaitEndsSoonAndTheOneRequestIsNotUsedUp() async throws {
        let harness = try DevicePermissionHarness()
        #expect(try await harness.allowOnceGranted() == .authorized)

        let outcome = try await harness.alwaysRequestedAndIgnored()

        #expect(outcome == .stayedWhenInUse)
        #expect(harness.ignoredReasons("requestAlwaysAuthorization") == ["the When-In-Use grant is temporary (Allow Once)"])
        #expect(!harness.ledger.alwaysLocationRequested)
    }

    @Test func givenAlwaysIgnoredDuringAllowOnce_whenWhileUsingChosenInSettings_thenTheAlwaysPromptStillShows() async throws {
        let harness = try DevicePermissionHarness()
        _ = try await harness.allowOnceGranted()
        _ = try await harness.alwaysRequestedAndIgnored()
        harness.manager.openSettings()
        try harness.device.setLocationAuthorization(.whileUsing)
        try harness.device.foreground()
        await harness.becameActive()

        async let request = try await harness.manager.requestLocationAlways()
        await harness.alertShown(.locationAlwaysUpgrade)
        try harness.device.answerAlwaysUpgrade(.changeToAlwaysAllow)

        #expect(try await request == .upgraded)
        #expect(harness.ledger.alwaysLocationRequested)
    }

    @Test func givenAlwaysIgnoredDuringAllowOnce_whenTheGrantLapses_thenTheOneAlwaysRequestIsAvailableAgain() async throws {
        let harness = try DevicePermissionHarness()
        _ = try await harness.allowOnceGranted()
        _ = try await harness.alwaysRequestedAndIgnored()
        try harness.device.background()
        harness.clock.advance(by: .seconds(10))
        harness.device.runDueWork()
        try harness.device.foreground()
        await harness.becameActive()
        #expect(harness.manager.state(for: .location) == .notDetermined)
        #expect(!harness.ledger.alwaysLocationRequested)
    }

    @Test func givenAppInBackground_whenRequestWhenInUse_thenIOSShowsNothingAndTheWaitIsBounded() async throws {
        let harness = try DevicePermissionHarness()
        await harness.settle()
        try harness.device.background()
        async let request = try await harness.manager.requestLocationWhenInUse()
        #expect(await harness.ignored("requestWhenInUseAuthorization") == "the app is not in the foreground")
        harness.clock.advance(by: .seconds(60))
        #expect(try await request == .notDetermined)
        #expect(harness.alertsShown.isEmpty)
    }

    @Test func givenDenied_whenOpenSettingsAndWhileUsingChosenThere_thenAuthorizedOnReturn() async throws {
        let harness = try DevicePermissionHarness(location: .init(authorization: .denied))
        await harness.settle()
        let updates = harness.manager.stateUpdates(for: .location)
        harness.manager.openSettings()
        #expect(harness.device.scenePhase == .background)
        try harness.device.setLocationAuthorization(.whileUsing)
        try harness.device.foreground()
        await harness.becameActive()
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next() == .denied)
        #expect(await iterator.next() == .authorized)
    }

    // MARK: Motion (rule 19 to rule 22)

    @Test func givenNotDetermined_whenRequestMotionAndOK_thenAlertMadeTheAppInactiveAndAuthorized() async throws {
        let harness = try DevicePermissionHarness()
        #expect(await harness.manager.check(.motion) == .notDetermined)
        #expect(harness.alertsShown.isEmpty)
        async let request = try await harness.manager.requestMotion()
        await harness.alertShown(.motionActivity)
        #expect(harness.device.scenePhase == .inactive)
        try harness.device.answerSystemAlert(.ok)
        #expect(try await request == .authorized)
    }

    @Test func givenMotionPromptUp_whenTheAppLeavesTheForeground_thenTheRequestEndsNotDeterminedAndTheNextAllowAsksAgain() async throws {
        let harness = try DevicePermissionHarness()
        async let request = try await harness.manager.requestMotion()
        await harness.alertShown(.motionActivity)

        try harness.device.background()

        #expect(try await request == .notDetermined)
        try harness.device.foreground()
        await harness.becameActive()
        async let again = try await harness.manager.requestMotion()
        await harness.alertShown(.motionActivity)
        try harness.device.answerSystemAlert(.ok)
        #expect(try await again == .authorized)
        #expect(harness.alertsShown == [.motionActivity, .motionActivity])
    }

    @Test func givenHealthSheetUp_whenTheAppIsRelaunched_thenTheRequestEndedAndAllowAsksAgain() async throws {
        let harness = try DevicePermissionHarness()
        async let request = try await harness.manager.requestHealth()
        await harness.alertShown(.healthAccess)

        try harness.device.terminate()

        #expect(try await request == .notDetermined)
        try harness.device.launch()
        async let again = try await harness.manager.requestHealth()
        await harness.alertShown(.healthAccess)
        try harness.device.answerSystemAlert(.healthTurnOnAll)
        #expect(try await again == .authorized)
    }

    @Test func givenMotionDenied_whenAllowedInSettings_thenAuthorizedAfterReturnAndRefresh() async throws {
        let harness = try DevicePermissionHarness()
        async let request = try await harness.manager.requestMotion()
        await harness.alertShown(.motionActivity)
        try harness.device.answerSystemAlert(.dontAllow)
        #expect(try await request == .denied)
        harness.manager.openSettings()
        try harness.device.setMotionAllowed(true)
        try harness.device.foreground()
        #expect(harness.manager.state(for: .motion) == .denied)
        await harness.becameActive()
        #expect(harness.manager.state(for: .motion) == .authorized)
    }

    @Test func givenFitnessTrackingSwitchedOff_whenRefreshed_thenRestricted() async throws {
        let harness = try DevicePermissionHarness()
        try harness.device.background()
        try harness.device.setFitnessTrackingEnabled(false)
        try harness.device.foreground()
        await harness.becameActive()
        #expect(harness.manager.state(for: .motion) == .restricted)
    }

    // MARK: HealthKit (rule 23 to rule 27)

    @Test func givenNothingAsked_whenHealthSheetAnsweredSwitchBySwitch_thenWriteStatusPerTypeAndNoReadClaim() async throws {
        let harness = try DevicePermissionHarness()
        async let request = try await harness.manager.requestHealth()
        await harness.alertShown(.healthAccess)
        try harness.device.answerHealthSheet(.allow(share: [.workout], read: [.stepCount]))
        #expect(try await request == .authorized)
        #expect(harness.manager.health.savingAllowed == [.workout])
        #expect(harness.manager.health.savingDenied == [.workoutRoute])
        #expect(harness.manager.health.requestStatus == .unnecessary)
        #expect(try await harness.manager.requestHealth() == .authorized)
        #expect(harness.alertsShown == [.healthAccess])
    }

    @Test func givenInstalledAppLacksHealthUpdateKey_whenRequested_thenTheCrashIsAnErrorNamingTheKey() async throws {
        let harness = try DevicePermissionHarness(
            appKeys: DevicePermissionHarness.allKeys.subtracting(["NSHealthUpdateUsageDescription"]),
            managerKeys: DevicePermissionHarness.allKeys
        )
        await #expect {
            try await harness.manager.requestHealth()
        } throws: { error in
            guard case .systemError(.healthKit, let message) = error as? PermissionRequestError else { return false }
            return message.contains("NSHealthUpdateUsageDescription") && message.contains("NSInvalidArgumentException")
        }
        #expect(harness.alertsShown.isEmpty)
    }

    @Test func givenSavingTurnedOffInHealthApp_whenBack_thenDeniedAndReadingStillUnknown() async throws {
        let harness = try DevicePermissionHarness()
        async let request = try await harness.manager.requestHealth()
        await harness.alertShown(.healthAccess)
        try harness.device.answerSystemAlert(.healthTurnOnAll)
        #expect(try await request == .authorized)
        try harness.device.background()
        try harness.device.setHealthSharing(.sharingDenied, for: .workout)
        try harness.device.setHealthSharing(.sharingDenied, for: .workoutRoute)
        try harness.device.setHealthReading(false, for: .stepCount)
        try harness.device.foreground()
        await harness.becameActive()
        #expect(harness.manager.state(for: .healthKit) == .denied)
        #expect(harness.manager.health.requestStatus == .unnecessary)
    }
}
