import AsyncSupport
import DeviceInterfaces
import DeviceSimulator
import Foundation
import Permissions
import Testing

/// Rule 19 to rule 22 (docs/requirements.md): Motion & Fitness authorization.
@Suite(.timeLimit(.minutes(1))) @MainActor struct SimulatedMotionTests {
    private let window = (start: Date(timeIntervalSince1970: 0), end: Date(timeIntervalSince1970: 60))

    private func motion(
        hasKey: Bool = true,
        coprocessor: Bool = true,
        status: MotionAuthorizationStatus = .notDetermined
    ) -> SimulatedMotion {
        SimulatedMotion(hasMotionCoprocessor: coprocessor, status: status, hasInfoPlistKey: { _ in hasKey })
    }

    @Test func rule19_givenNotDetermined_whenStatusRead_thenNoPrompt() {
        let motion = motion()
        #expect(motion.authorizationStatus == .notDetermined)
        #expect(motion.prompt.timesShown == 0)
    }

    @Test func rule19_givenNotDetermined_whenFirstActivityQuery_thenPromptAndAllowGivesActivities() async throws {
        let motion = motion()
        async let query = try await motion.queryActivity(from: window.start, to: window.end)
        await motion.prompt.waitUntilShown()
        #expect(motion.prompt.answer(.allow))
        #expect(try await query == motion.recordedActivityCount)
        #expect(motion.authorizationStatus == .authorized)
        #expect(motion.prompt.timesShown == 1)
    }

    @Test func rule19_givenTwoQueriesWhilePromptIsUp_whenAnswered_thenOnePromptAnswersBoth() async throws {
        let motion = motion()
        async let first = try await motion.queryActivity(from: window.start, to: window.end)
        await motion.prompt.waitUntilShown()
        async let second = try await motion.queryActivity(from: window.start, to: window.end)
        await motion.prompt.waitUntilRequestsWait(2)
        motion.prompt.answer(.allow)
        #expect(try await first == 3)
        #expect(try await second == 3)
        #expect(motion.prompt.timesShown == 1)
    }

    @Test func rule20_givenUserDoesNotAllow_whenQueried_thenCMError105() async {
        let motion = motion()
        async let query = try await motion.queryActivity(from: window.start, to: window.end)
        await motion.prompt.waitUntilShown()
        motion.prompt.answer(.dontAllow)
        do { _ = try await query; Issue.record("expected MotionActivityError.notAuthorized") } catch { #expect(error as? MotionActivityError == MotionActivityError.notAuthorized) }
        #expect(motion.authorizationStatus == .denied)
    }

    @Test func rule20_givenDenied_whenQueriedAgain_thenCMError105WithoutPrompt() async {
        let motion = motion(status: .denied)
        await #expect(throws: MotionActivityError.notAuthorized) {
            try await motion.queryActivity(from: window.start, to: window.end)
        }
        #expect(motion.prompt.timesShown == 0)
    }

    @Test func rule20_givenNoMotionCoprocessor_whenQueried_thenUnavailableAndCMError104() async {
        let motion = motion(coprocessor: false)
        #expect(!motion.isActivityAvailable)
        await #expect(throws: MotionActivityError.notAvailable) {
            try await motion.queryActivity(from: window.start, to: window.end)
        }
    }

    @Test func rule21_givenNoMotionUsageDescription_whenQueried_thenTheAppWouldCrash() async {
        let motion = motion(hasKey: false)
        await #expect {
            try await motion.queryActivity(from: window.start, to: window.end)
        } throws: { error in
            (error as? SimulatedCrash)?.reason.contains("NSMotionUsageDescription") == true
        }
        #expect(motion.prompt.timesShown == 0)
    }

    @Test func rule22_givenFitnessTrackingOff_whenStatusRead_thenRestrictedAndQueriesFail() async {
        let motion = motion(status: .authorized)
        motion.setFitnessTrackingEnabled(false)
        #expect(motion.authorizationStatus == .restricted)
        await #expect(throws: MotionActivityError.notAuthorized) {
            try await motion.queryActivity(from: window.start, to: window.end)
        }
        motion.setFitnessTrackingEnabled(true)
        #expect(motion.authorizationStatus == .authorized)
    }

    @Test func rule29_givenDevice_whenMotionPromptIsUp_thenAppIsInactiveUntilAnswered() async throws {
        let clock = VirtualClock()
        let device = SimulatedDevice(
            configuration: DeviceConfiguration(infoPlistKeys: ["NSMotionUsageDescription"]),
            clock: clock
        )
        try device.launch()
        let motion = device.motion
        async let query = try await motion.queryActivity(from: window.start, to: window.end)
        await motion.prompt.waitUntilShown()
        #expect(device.systemAlert?.kind == .motionActivity)
        #expect(device.scenePhase == .inactive)
        try device.answerSystemAlert(.ok)
        #expect(device.scenePhase == .active)
        #expect(try await query == 3)
    }

    @Test func rule28_givenAppInForeground_whenMotionChangedInSettings_thenRefused() throws {
        let device = SimulatedDevice(clock: VirtualClock())
        try device.launch()
        #expect(throws: SimulatedDeviceError.settingsUnreachableWhileAppInForeground) {
            try device.setMotionAllowed(true)
        }
    }
}
