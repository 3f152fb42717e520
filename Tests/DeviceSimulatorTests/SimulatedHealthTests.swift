import AsyncSupport
import DeviceInterfaces
import DeviceSimulator
import Permissions
import Testing

/// Rule 23 to rule 27 (docs/requirements.md): HealthKit authorization.
@Suite(.timeLimit(.minutes(1))) @MainActor struct SimulatedHealthTests {
    private let share: Set<HealthDataType> = [.workout, .workoutRoute]
    private let read: Set<HealthDataType> = [.stepCount]

    private func health(
        keys: Set<String> = ["NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription"],
        available: Bool = true,
        entitled: Bool = true
    ) -> SimulatedHealth {
        SimulatedHealth(isHealthDataAvailable: available, hasHealthKitEntitlement: entitled, hasInfoPlistKey: { keys.contains($0) })
    }

    @Test func rule23_givenNoHealthData_whenRequested_thenHealthDataUnavailableError() async {
        let health = health(available: false)
        #expect(!health.isHealthDataAvailable)
        await #expect(throws: SimulatedHealthError.healthDataUnavailable) {
            try await health.requestAuthorization(toShare: share, read: read)
        }
        await #expect(throws: SimulatedHealthError.healthDataUnavailable) {
            try await health.requestStatus(toShare: share, read: read)
        }
    }

    @Test func rule24_givenReadingDeniedAndSavingAllowed_whenStatusRead_thenOnlySavingIsReported() async throws {
        let health = health()
        async let request = try await health.requestAuthorization(toShare: share, read: read)
        await health.prompt.waitUntilShown()
        health.prompt.answer(.allow(share: share, read: []))
        _ = try await request
        #expect(health.authorizationStatus(for: .workout) == .sharingAuthorized)
        // Read types have no write permission of their own: iOS reports them as never asked to save.
        #expect(health.authorizationStatus(for: .stepCount) == .notDetermined)
        #expect(health.readAllowed[.stepCount] == false)
    }

    @Test func rule25_givenUserDoesNotAllow_whenRequested_thenSuccessIsStillTrue() async throws {
        let health = health()
        async let request = try await health.requestAuthorization(toShare: share, read: read)
        await health.prompt.waitUntilShown()
        health.prompt.answer(.dontAllow)
        #expect(try await request == true)
        #expect(health.authorizationStatus(for: .workout) == .sharingDenied)
    }

    @Test func rule25_givenEverythingDecided_whenRequestedAgain_thenCompletesAtOnceWithoutSheet() async throws {
        let health = health()
        async let first = try await health.requestAuthorization(toShare: share, read: read)
        await health.prompt.waitUntilShown()
        health.prompt.answer(.turnOnAll)
        _ = try await first
        #expect(try await health.requestAuthorization(toShare: share, read: read))
        #expect(health.prompt.timesShown == 1)
    }

    @Test func rule25_givenOneNewType_whenRequested_thenTheSheetAsksOnlyForIt() async throws {
        let health = health()
        async let first = try await health.requestAuthorization(toShare: [.workout], read: [])
        await health.prompt.waitUntilShown()
        health.prompt.answer(.dontAllow)
        _ = try await first
        async let second = try await health.requestAuthorization(toShare: share, read: [])
        await health.prompt.waitUntilShown()
        health.prompt.answer(.turnOnAll)
        _ = try await second
        #expect(health.authorizationStatus(for: .workout) == .sharingDenied)
        #expect(health.authorizationStatus(for: .workoutRoute) == .sharingAuthorized)
    }

    @Test func rule26_givenUndecidedThenDecided_whenRequestStatusAsked_thenShouldRequestThenUnnecessary() async throws {
        let health = health()
        #expect(try await health.requestStatus(toShare: share, read: read) == .shouldRequest)
        async let request = try await health.requestAuthorization(toShare: share, read: read)
        await health.prompt.waitUntilShown()
        health.prompt.answer(.turnOnAll)
        _ = try await request
        #expect(try await health.requestStatus(toShare: share, read: read) == .unnecessary)
        #expect(try await health.requestStatus(toShare: share, read: read.union([.distanceWalkingRunning])) == .shouldRequest)
    }

    @Test(arguments: [
        ("NSHealthShareUsageDescription", Set<HealthDataType>(), Set<HealthDataType>([.stepCount])),
        ("NSHealthUpdateUsageDescription", Set<HealthDataType>([.workout]), Set<HealthDataType>()),
    ])
    func rule27_givenMissingUsageDescription_whenRequested_thenNSInvalidArgumentException(
        missing: String,
        share: Set<HealthDataType>,
        read: Set<HealthDataType>
    ) async {
        let health = health(keys: Set(["NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription"]).subtracting([missing]))
        await #expect {
            try await health.requestAuthorization(toShare: share, read: read)
        } throws: { error in
            guard let crash = error as? SimulatedCrash else { return false }
            return crash.exception == "NSInvalidArgumentException" && crash.reason.contains(missing)
        }
        #expect(health.prompt.timesShown == 0)
    }

    @Test func rule27_givenNoHealthKitEntitlement_whenRequested_thenMissingEntitlementError() async {
        let health = health(entitled: false)
        await #expect(throws: SimulatedHealthError.missingEntitlement) {
            try await health.requestAuthorization(toShare: share, read: read)
        }
    }

    @Test func rule29_givenDevice_whenHealthSheetIsUp_thenAppIsInactiveAndSwitchesApply() async throws {
        let device = SimulatedDevice(
            configuration: DeviceConfiguration(infoPlistKeys: ["NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription"]),
            clock: VirtualClock()
        )
        try device.launch()
        let health = device.health
        async let request = try await health.requestAuthorization(toShare: share, read: read)
        await health.prompt.waitUntilShown()
        #expect(device.systemAlert?.kind == .healthAccess)
        #expect(device.scenePhase == .inactive)
        try device.answerHealthSheet(.allow(share: [.workoutRoute], read: [.stepCount]))
        #expect(try await request)
        #expect(device.scenePhase == .active)
        #expect(health.authorizationStatus(for: .workout) == .sharingDenied)
        #expect(health.authorizationStatus(for: .workoutRoute) == .sharingAuthorized)
    }
}
