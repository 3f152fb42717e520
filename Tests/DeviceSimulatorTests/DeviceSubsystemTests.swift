@testable import DeviceSimulator
import Foundation
import Testing

/// The extension points another permission simulation (Motion, HealthKit) plugs into.
@Suite(.timeLimit(.minutes(1))) @MainActor struct DeviceSubsystemTests {
    /// A stand-in subsystem that records the lifecycle it is told about.
    private final class RecordingSubsystem: DeviceSubsystem {
        var calls: [String] = []
        func appDidEnterBackground() { calls.append("background") }
        func appWillEnterForeground() { calls.append("willEnterForeground") }
        func appDidBecomeActive() { calls.append("active") }
        func appWillTerminate() { calls.append("terminate") }
    }

    @Test func givenRegisteredSubsystem_whenAppGoesThroughItsLifecycle_thenSubsystemIsToldInOrder() async throws {
        let harness = DeviceHarness()
        let recorder = harness.device.subsystem(RecordingSubsystem.self) { RecordingSubsystem() }
        #expect(harness.device.subsystem(RecordingSubsystem.self) { RecordingSubsystem() } === recorder)

        _ = try await harness.launched()
        try harness.device.background()
        try harness.device.foreground()
        try harness.device.terminate()

        #expect(recorder.calls == ["background", "willEnterForeground", "active", "terminate"])
    }

    @Test func givenStreamsOpened_whenAppLaunchesAndLeaves_thenLogAndScenePhaseStreamsCarryIt() async throws {
        let harness = DeviceHarness()
        var phases = harness.device.scenePhaseChanges().makeAsyncIterator()
        var entries = harness.device.logEntries().makeAsyncIterator()
        _ = try harness.device.launch()
        try harness.device.background()

        #expect(await entries.next()?.event == .appLaunched)
        #expect(await phases.next() == .inactive)
        #expect(await phases.next() == .active)
        #expect(await phases.next() == .inactive)
        #expect(await phases.next() == .background)
    }
}
