import DeviceInterfaces
import DeviceSimulator
import Foundation
import LocationBridge
import PetSpotDomain
import Testing

/// Rule 1 to rule 8 (docs/requirements.md): authorization callbacks, the When-In-Use alert, Allow Once,
/// the Always upgrade, Location Services and restriction.
@Suite(.timeLimit(.minutes(1))) @MainActor struct SimulatedDeviceAuthorizationTests {

    @Test func rule01_givenFreshInstall_whenManagerCreated_thenOneNotDeterminedCallbackAfterCreationReturns() async throws {
        let harness = DeviceHarness()
        var duringLaunch: [DeviceEvent] = []
        harness.device.onEvent = { duringLaunch.append($0.event) }
        let manager = try harness.device.launch()
        harness.device.onEvent = nil

        #expect(duringLaunch.contains(.locationManagerCreated(manager: 1)))
        #expect(!duringLaunch.contains { if case .delegateCallback = $0 { true } else { false } })
        var iterator = manager.events.makeAsyncIterator()
        #expect(await iterator.next() == .authorizationChanged(.notDetermined, .fullAccuracy))
        await harness.advance(by: .seconds(60))
        #expect(try await harness.remainingEvents(of: &iterator) == [])
    }

    @Test func rule01_givenAppBackgrounded_whenStatusChangedInSettings_thenCallbackOnlyWhenAppResumes() async throws {
        let harness = DeviceHarness { $0.location.authorization = .denied }
        _ = try await harness.launched()
        try harness.device.background()
        try harness.device.setLocationAuthorization(.whileUsing)
        await harness.advance(by: .seconds(30))
        #expect(harness.authorizationCallbacks == [.denied])

        try harness.device.foreground()
        #expect(harness.authorizationCallbacks == [.denied, .authorizedWhenInUse])
    }

    @Test func rule03_givenInfoPlistKeyMissing_whenRequestingWhenInUse_thenNoAlertAndNoCallback() async throws {
        let harness = DeviceHarness { $0.infoPlistKeys = [] }
        let manager = try await harness.launched()
        manager.requestWhenInUseAuthorization()
        await harness.advance(by: .seconds(30))

        #expect(harness.device.systemAlert == nil)
        #expect(manager.authorizationStatus == .notDetermined)
        #expect(harness.authorizationCallbacks == [.notDetermined])
    }

    @Test func rule03_givenStatusAlreadyDenied_whenRequestingWhenInUse_thenNoAlertAndNoCallback() async throws {
        let harness = DeviceHarness { $0.location.authorization = .denied }
        let manager = try await harness.launched()
        manager.requestWhenInUseAuthorization()
        await harness.advance(by: .seconds(30))

        #expect(harness.device.systemAlert == nil)
        #expect(harness.authorizationCallbacks == [.denied])
    }

    @Test func rule03_givenAppInBackground_whenRequestingWhenInUse_thenNoAlert() async throws {
        let harness = DeviceHarness()
        let manager = try await harness.launched()
        try harness.device.background()
        manager.requestWhenInUseAuthorization()

        #expect(harness.device.systemAlert == nil)
        #expect(harness.device.scenePhase == .background)
    }

    @Test func rule03_givenNotDeterminedInForegroundWithKey_whenRequestingWhenInUse_thenAlertShown() async throws {
        let harness = DeviceHarness()
        let manager = try await harness.launched()
        manager.requestWhenInUseAuthorization()

        #expect(harness.device.systemAlert?.kind == .locationWhenInUse)
        #expect(harness.device.systemAlert?.buttons == [.allowOnce, .allowWhileUsing, .dontAllow])
    }

    @Test func rule04_givenAlertShown_whenAllowWhileUsing_thenWhenInUseReportedAndAppActiveAgain() async throws {
        let harness = DeviceHarness()
        let manager = try await harness.launched()
        manager.requestWhenInUseAuthorization()
        #expect(harness.device.scenePhase == .inactive)

        try harness.device.answerSystemAlert(.allowWhileUsing)

        #expect(harness.authorizationCallbacks == [.notDetermined, .authorizedWhenInUse])
        #expect(harness.device.scenePhase == .active)
        #expect(harness.sceneChanges.suffix(2) == ["active>inactive", "inactive>active"])
        #expect(!harness.device.locationGrantIsTemporary)
    }

    @Test func rule04_givenAlertShown_whenAllowOnce_thenWhenInUseReportedLikeAPermanentGrant() async throws {
        let harness = DeviceHarness()
        let manager = try await harness.launched()
        manager.requestWhenInUseAuthorization()
        try harness.device.answerSystemAlert(.allowOnce)

        #expect(harness.authorizationCallbacks == [.notDetermined, .authorizedWhenInUse])
        #expect(manager.authorizationStatus == .authorizedWhenInUse)
        #expect(harness.device.locationGrantIsTemporary)
    }

    @Test func rule04_givenAlertShown_whenDontAllow_thenDeniedReported() async throws {
        let harness = DeviceHarness()
        let manager = try await harness.launched()
        manager.requestWhenInUseAuthorization()
        try harness.device.answerSystemAlert(.dontAllow)

        #expect(harness.authorizationCallbacks == [.notDetermined, .denied])
        #expect(harness.device.systemAlert == nil)
    }

    @Test func rule04_givenNoAlertShowing_whenAnswering_thenClearError() async throws {
        let harness = DeviceHarness()
        _ = try await harness.launched()

        #expect(throws: SimulatedDeviceError.noSystemAlertShowing(tried: .allowOnce)) {
            try harness.device.answerSystemAlert(.allowOnce)
        }
        #expect(
            SimulatedDeviceError.noSystemAlertShowing(tried: .allowOnce).description
                == "cannot tap allowOnce: no system alert is showing"
        )
    }

    @Test func rule05_givenAllowOnce_whenBackgroundedPastExpiryDelay_thenNotDeterminedReportedOnReturn() async throws {
        let harness = DeviceHarness { $0.location.allowOnceExpiryDelay = .seconds(5) }
        let manager = try await harness.launched()
        manager.requestWhenInUseAuthorization()
        try harness.device.answerSystemAlert(.allowOnce)
        try harness.device.background()
        await harness.advance(by: .seconds(4))
        #expect(harness.device.locationAuthorization == .authorizedWhenInUse)

        await harness.advance(by: .seconds(1))
        #expect(harness.device.locationAuthorization == .notDetermined)
        #expect(harness.device.log.last.map { ($0.event, $0.elapsed) } ?? (.appLaunched, .zero) == (.allowOnceExpired, .seconds(5)))
        try harness.device.foreground()
        #expect(harness.authorizationCallbacks == [.notDetermined, .authorizedWhenInUse, .notDetermined])
    }

    @Test func rule05_givenAllowOnce_whenAppReturnsBeforeExpiry_thenGrantKept() async throws {
        let harness = DeviceHarness { $0.location.allowOnceExpiryDelay = .seconds(5) }
        let manager = try await harness.launched()
        manager.requestWhenInUseAuthorization()
        try harness.device.answerSystemAlert(.allowOnce)
        try harness.device.background()
        await harness.advance(by: .seconds(3))
        try harness.device.foreground()
        await harness.advance(by: .seconds(60))

        #expect(harness.device.locationAuthorization == .authorizedWhenInUse)
        #expect(!harness.events.contains(.allowOnceExpired))
    }

    @Test func rule05_givenAllowOnce_whenTerminatedAndRelaunched_thenNotDeterminedAndAlertCanShowAgain() async throws {
        let harness = DeviceHarness()
        let first = try await harness.launched()
        first.requestWhenInUseAuthorization()
        try harness.device.answerSystemAlert(.allowOnce)
        try harness.device.terminate()
        #expect(harness.events.suffix(3) == [.allowOnceExpired, .sceneChanged(from: .active, to: .notRunning), .appTerminated])

        let second = try await harness.launched()
        #expect(harness.callbacks.last == .authorizationChanged(.notDetermined, .fullAccuracy))
        second.requestWhenInUseAuthorization()
        #expect(harness.device.systemAlert?.kind == .locationWhenInUse)
    }

    @Test func rule06_givenPermanentWhenInUse_whenKeepOnlyWhileUsing_thenNoCallback() async throws {
        let harness = DeviceHarness(Self.withAlwaysKey(.authorizedWhenInUse))
        let manager = try await harness.launched()
        manager.requestAlwaysAuthorization()
        #expect(harness.device.systemAlert?.kind == .locationAlwaysUpgrade)

        try harness.device.answerAlwaysUpgrade(.keepOnlyWhileUsing)
        await harness.advance(by: .seconds(10))
        #expect(harness.authorizationCallbacks == [.authorizedWhenInUse])
        #expect(manager.authorizationStatus == .authorizedWhenInUse)
    }

    @Test func rule06_givenPermanentWhenInUse_whenChangeToAlwaysAllow_thenAuthorizedAlwaysReported() async throws {
        let harness = DeviceHarness(Self.withAlwaysKey(.authorizedWhenInUse))
        let manager = try await harness.launched()
        manager.requestAlwaysAuthorization()
        try harness.device.answerAlwaysUpgrade(.changeToAlwaysAllow)

        #expect(harness.authorizationCallbacks == [.authorizedWhenInUse, .authorizedAlways])
    }

    @Test func rule06_givenAlwaysAlreadyRequestedOnThisInstall_whenRequestingAgain_thenNothingHappens() async throws {
        let harness = DeviceHarness(Self.withAlwaysKey(.authorizedWhenInUse))
        let manager = try await harness.launched()
        manager.requestAlwaysAuthorization()
        try harness.device.answerAlwaysUpgrade(.keepOnlyWhileUsing)
        try harness.device.terminate()

        let relaunched = try await harness.launched()
        relaunched.requestAlwaysAuthorization()
        #expect(harness.device.systemAlert == nil)
        #expect(harness.events.last == .requestIgnored(
            request: "requestAlwaysAuthorization", reason: "Always was already requested on this install"
        ))
    }

    @Test func rule06_givenAllowOnceGrant_whenRequestingAlways_thenIgnored() async throws {
        let harness = DeviceHarness(Self.withAlwaysKey(.notDetermined))
        let manager = try await harness.launched()
        manager.requestWhenInUseAuthorization()
        try harness.device.answerSystemAlert(.allowOnce)
        manager.requestAlwaysAuthorization()

        #expect(harness.device.systemAlert == nil)
        #expect(harness.authorizationCallbacks == [.notDetermined, .authorizedWhenInUse])
    }

    @Test func rule06_givenNotDetermined_whenRequestingAlwaysAndAllowWhileUsing_thenProvisionalAlwaysReported() async throws {
        let harness = DeviceHarness(Self.withAlwaysKey(.notDetermined))
        let manager = try await harness.launched()
        manager.requestAlwaysAuthorization()
        #expect(harness.device.systemAlert?.kind == .locationWhenInUse)

        try harness.device.answerSystemAlert(.allowWhileUsing)
        #expect(harness.authorizationCallbacks == [.notDetermined, .authorizedAlways])
    }

    @Test func rule06_givenAlwaysKeyMissing_whenRequestingAlways_thenNothingHappens() async throws {
        let harness = DeviceHarness { $0.location.authorization = .authorizedWhenInUse }
        let manager = try await harness.launched()
        manager.requestAlwaysAuthorization()

        #expect(harness.device.systemAlert == nil)
        #expect(harness.events.last == .requestIgnored(
            request: "requestAlwaysAuthorization", reason: "Info.plist lacks \(InfoPlistRequirement.locationAlways.key)"
        ))
    }

    @Test func rule07_givenAuthorized_whenLocationServicesOffThenOn_thenDeniedThenPreviousStatusReported() async throws {
        let harness = DeviceHarness { $0.location.authorization = .authorizedWhenInUse }
        let manager = try await harness.launched()
        try harness.device.background()
        try harness.device.setLocationServicesEnabled(false)
        try harness.device.foreground()
        #expect(manager.authorizationStatus == .denied)
        #expect(await manager.locationServicesEnabled() == false)

        try harness.device.background()
        try harness.device.setLocationServicesEnabled(true)
        try harness.device.foreground()
        #expect(harness.authorizationCallbacks == [.authorizedWhenInUse, .denied, .authorizedWhenInUse])
        #expect(await manager.locationServicesEnabled())
    }

    @Test func rule08_givenRestricted_whenPersonTriesToChangeItInSettings_thenRefusedAndStatusStays() async throws {
        let harness = DeviceHarness { $0.location.authorization = .restricted }
        let manager = try await harness.launched()
        manager.requestWhenInUseAuthorization()
        #expect(harness.device.systemAlert == nil)
        try harness.device.openSettings()

        #expect(throws: SimulatedDeviceError.locationSettingRestricted) {
            try harness.device.setLocationAuthorization(.whileUsing)
        }
        try harness.device.foreground()
        #expect(manager.authorizationStatus == .restricted)
        #expect(harness.authorizationCallbacks == [.restricted])
    }

    private static func withAlwaysKey(
        _ status: LocationPermissionStatus
    ) -> (inout DeviceConfiguration) -> Void {
        { configuration in
            configuration.infoPlistKeys = [InfoPlistRequirement.locationWhenInUse.key, InfoPlistRequirement.locationAlways.key]
            configuration.location.authorization = status
        }
    }
}
