import DeviceInterfaces
import DeviceSimulator
import Foundation
import LocationBridge
import PetSpotDomain
import Testing

/// Rule 10, rule 28, rule 29 (docs/requirements.md), the driver-facing errors, and replay determinism.
@Suite(.timeLimit(.minutes(1))) @MainActor struct SimulatedDeviceLifecycleTests {
    @Test func rule10_givenDeniedApp_whenPersonAllowsInSettingsAndReturns_thenAppNotKilledAndCallbackBeforeActive() async throws {
        let harness = DeviceHarness { $0.location.authorization = .denied }
        let manager = try await harness.launched()
        try harness.device.openSettings()
        try harness.device.setLocationAuthorization(.whileUsing)
        try harness.device.foreground()

        #expect(!harness.events.contains(.appTerminated))
        #expect(manager.authorizationStatus == .authorizedWhenInUse)
        #expect(Array(harness.events.suffix(3)) == [
            .sceneChanged(from: .background, to: .inactive),
            .delegateCallback(manager: 1, .authorizationChanged(.authorizedWhenInUse, .fullAccuracy)),
            .sceneChanged(from: .inactive, to: .active),
        ])
    }

    @Test func rule10_givenAfterActiveOrderConfigured_whenReturningFromSettings_thenCallbackFollowsActive() async throws {
        let harness = DeviceHarness {
            $0.location.authorization = .denied
            $0.location.settingsChangeReport = .afterActive
        }
        _ = try await harness.launched()
        try harness.device.openSettings()
        try harness.device.setLocationAuthorization(.whileUsing)
        try harness.device.foreground()

        #expect(Array(harness.events.suffix(2)) == [
            .sceneChanged(from: .inactive, to: .active),
            .delegateCallback(manager: 1, .authorizationChanged(.authorizedWhenInUse, .fullAccuracy)),
        ])
    }

    @Test func rule28_givenActiveApp_whenOpeningSettingsAndReturning_thenScenePassesThroughInactiveBothWays() async throws {
        let harness = DeviceHarness()
        _ = try await harness.launched()
        try harness.device.openSettings()
        #expect(harness.device.scenePhase == .background)
        try harness.device.foreground()

        #expect(harness.events.contains(.settingsOpened))
        #expect(harness.sceneChanges == [
            "notRunning>inactive", "inactive>active",
            "active>inactive", "inactive>background",
            "background>inactive", "inactive>active",
        ])
    }

    @Test func rule29_givenSystemAlertUp_whenLookingAtTheScene_thenAppIsInactiveNotBackground() async throws {
        let harness = DeviceHarness()
        let manager = try await harness.launched()
        manager.requestWhenInUseAuthorization()

        #expect(harness.device.systemAlert != nil)
        #expect(harness.device.scenePhase == .inactive)
    }

    @Test func givenAlertUp_whenAppBackgrounded_thenAlertDismissedWithoutAnswerAndNoCallback() async throws {
        let harness = DeviceHarness()
        let manager = try await harness.launched()
        manager.requestWhenInUseAuthorization()
        try harness.device.background()

        #expect(harness.device.systemAlert == nil)
        #expect(harness.events.contains(.systemAlertDismissed(harness.device.log.compactMap {
            if case .systemAlertShown(let alert) = $0.event { alert } else { nil }
        }[0])))
        #expect(harness.authorizationCallbacks == [.notDetermined])
    }

    @Test func givenAppInForeground_whenChangingSettings_thenClearErrorAndNothingChanges() async throws {
        let harness = DeviceHarness()
        _ = try await harness.launched()

        #expect(throws: SimulatedDeviceError.settingsUnreachableWhileAppInForeground) {
            try harness.device.setLocationServicesEnabled(false)
        }
        #expect(harness.device.locationServicesEnabled)
    }

    @Test func givenRunningApp_whenLaunchingAgain_thenAppAlreadyRunningError() async throws {
        let harness = DeviceHarness()
        _ = try await harness.launched()

        #expect(throws: SimulatedDeviceError.appAlreadyRunning) { try harness.device.launch() }
        #expect(throws: SimulatedDeviceError.appNotInBackground(.active)) { try harness.device.foreground() }
    }

    @Test func givenSameScenario_whenReplayedTwice_thenLogsAndFixesAreIdentical() async throws {
        let first = try await Self.replayScenario()
        let second = try await Self.replayScenario()

        #expect(first == second)
        #expect(first.contains("[+9.000s] delegateCallback #1 locationsUpdated(1 fix, ±"))
    }

    @Test func givenLogEntry_whenPrinted_thenStableFormatWithoutCoordinates() {
        let fix = LocationFix(latitude: 52.2297, longitude: 21.0122, horizontalAccuracy: 5, timestamp: Date())
        let entry = DeviceLogEntry(
            elapsed: .milliseconds(2_050),
            date: Date(timeIntervalSince1970: 0),
            event: .delegateCallback(manager: 1, .locationsUpdated([fix]))
        )

        #expect(entry.description == "[+2.050s] delegateCallback #1 locationsUpdated(1 fix, ±5m)")
        #expect(!entry.description.contains("52.2"))
    }

    /// A scenario touching every timed path, printed as a driver would print it.
    private static func replayScenario() async throws -> String {
        let harness = DeviceHarness {
            $0.location.preciseLocation = false
            $0.location.allowOnceExpiryDelay = .seconds(3)
        }
        let manager = try harness.device.launch()
        manager.requestWhenInUseAuthorization()
        try harness.device.answerSystemAlert(.allowOnce)
        manager.requestLocation()
        manager.requestLocation()
        await harness.advance(by: .seconds(2))
        try harness.device.background()
        await harness.advance(by: .seconds(5))
        try harness.device.foreground()
        manager.requestWhenInUseAuthorization()
        try harness.device.answerSystemAlert(.allowWhileUsing)
        manager.requestLocation()
        await harness.advance(by: .seconds(5))
        let fixes = harness.callbacks.compactMap {
            if case .locationsUpdated(let fixes) = $0 { fixes.last.map { "\($0.latitude),\($0.longitude)" } } else { nil }
        }
        return (harness.device.log.map(\.description) + fixes).joined(separator: "\n")
    }
}
