import AsyncSupport
import DeviceInterfaces
import DeviceSimulator
import Foundation
import LocationBridge
import Permissions
import Testing

/// Motion and Health prompts follow the app's lifecycle as the location alert does: they go away
/// unanswered when the app leaves the foreground, and one held back by another alert shows as soon as
/// that alert is answered.
@Suite(.timeLimit(.minutes(1))) @MainActor struct SystemPromptLifecycleTests {
    private let window = (start: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 60))

    private func device(_ keys: Set<String>) -> SimulatedDevice {
        SimulatedDevice(configuration: DeviceConfiguration(infoPlistKeys: keys), clock: VirtualClock())
    }

    @Test func givenMotionPromptUp_whenAppGoesToBackground_thenDismissedUnansweredAndTheNextQueryAsksAgain() async throws {
        let device = device([InfoPlistRequirement.motion.key])
        try device.launch()
        let motion = device.motion
        async let query = try await motion.queryActivity(from: window.start, to: window.end)
        await motion.prompt.waitUntilShown()

        try device.background()

        do { _ = try await query; Issue.record("expected SystemPromptDismissed") } catch { #expect(error is SystemPromptDismissed) }
        #expect(motion.authorizationStatus == .notDetermined)
        #expect(device.log.contains { $0.event == .systemAlertDismissed(device.systemAlertShown(.motionActivity)) })
        try device.foreground()
        async let again = try await motion.queryActivity(from: window.start, to: window.end)
        await motion.prompt.waitUntilShown()
        #expect(device.systemAlert?.kind == .motionActivity)
        try device.answerSystemAlert(.ok)
        #expect(try await again == motion.recordedActivityCount)
        #expect(motion.prompt.timesShown == 2)
    }

    @Test func givenHealthSheetUp_whenAppIsTerminated_thenTheRequestEndsAndAfterRelaunchTheSheetShowsAgain() async throws {
        let device = device([InfoPlistRequirement.healthShare.key, InfoPlistRequirement.healthUpdate.key])
        try device.launch()
        let health = device.health
        async let request = try await health.requestAuthorization(toShare: [.workout], read: [.workout])
        await health.prompt.waitUntilShown()

        try device.terminate()

        #expect(try await request == true)
        #expect(health.authorizationStatus(for: .workout) == .notDetermined)
        try device.launch()
        async let again = try await health.requestAuthorization(toShare: [.workout], read: [.workout])
        await health.prompt.waitUntilShown()
        #expect(device.systemAlert?.kind == .healthAccess)
        try device.answerSystemAlert(.healthTurnOnAll)
        #expect(try await again == true)
        #expect(health.authorizationStatus(for: .workout) == .sharingAuthorized)
    }

    @Test func givenLocationAlertUp_whenMotionIsQueried_thenItsPromptShowsAsSoonAsTheLocationAlertIsAnswered() async throws {
        let device = device([InfoPlistRequirement.locationWhenInUse.key, InfoPlistRequirement.motion.key])
        let manager = try device.launch()
        manager.requestWhenInUseAuthorization()
        #expect(device.systemAlert?.kind == .locationWhenInUse)
        let motion = device.motion
        async let query = try await motion.queryActivity(from: window.start, to: window.end)
        await motion.prompt.waitUntilShown()
        #expect(device.systemAlert?.kind == .locationWhenInUse)

        try device.answerSystemAlert(.allowWhileUsing)

        #expect(device.systemAlert?.kind == .motionActivity)
        #expect(device.scenePhase == .inactive)
        try device.answerSystemAlert(.ok)
        #expect(try await query == motion.recordedActivityCount)
        #expect(device.scenePhase == .active)
    }
}

extension SimulatedDevice {
    /// The alert of `kind` as the device last showed it (for comparing log entries).
    fileprivate func systemAlertShown(_ kind: SystemAlert.Kind) -> SystemAlert {
        log.reversed().compactMap { entry -> SystemAlert? in
            if case .systemAlertShown(let alert) = entry.event, alert.kind == kind { alert } else { nil }
        }.first ?? SystemAlert(kind: kind, buttons: [])
    }
}
