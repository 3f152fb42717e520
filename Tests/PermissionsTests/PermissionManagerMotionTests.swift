import AsyncSupport
import DeviceInterfaces
import DeviceSimulator
import Foundation
import LocationBridge
import Permissions
import PetSpotDomain
import TestSupport
import Testing

@MainActor
@Suite(.timeLimit(.minutes(1))) struct PermissionManagerMotionTests {
    @Test func givenNotDetermined_whenChecked_thenNoPromptAndNoQuery() async {
        let harness = PermissionHarness()
        #expect(await harness.manager.check(.motion) == .notDetermined)
        #expect(harness.motion.prompt.timesShown == 0)
        #expect(harness.motion.queryCount == 0)
    }

    @Test func givenNotDetermined_whenRequestAndUserAllows_thenAuthorizedThroughOneQuery() async throws {
        let harness = PermissionHarness()
        async let request = try await harness.manager.requestMotion()
        await harness.motion.prompt.waitUntilShown()
        #expect(harness.manager.requestsInFlight == [.motion])
        harness.motion.prompt.answer(.allow)
        #expect(try await request == .authorized)
        #expect(harness.motion.queryCount == 1)
        #expect(harness.manager.motionStatus == .authorized)
    }

    @Test func givenNotDetermined_whenUserDoesNotAllow_thenError105MeansDenied() async throws {
        let harness = PermissionHarness()
        async let request = try await harness.manager.request(.motion)
        await harness.motion.prompt.waitUntilShown()
        harness.motion.prompt.answer(.dontAllow)
        #expect(try await request == .denied)
    }

    @Test(arguments: [MotionAuthorizationStatus.denied, .authorized])
    func givenDecided_whenRequest_thenReturnsAtOnceWithoutQuery(status: MotionAuthorizationStatus) async throws {
        let harness = PermissionHarness(motion: .init(status: status))
        #expect(try await harness.manager.requestMotion() == status.permissionState(isActivityAvailable: true))
        #expect(harness.motion.queryCount == 0)
    }

    @Test func givenNoMotionCoprocessor_whenRequest_thenUnavailableWithoutQuery() async throws {
        let harness = PermissionHarness(motion: .init(hasMotionCoprocessor: false))
        #expect(try await harness.manager.requestMotion() == .unavailable)
        #expect(harness.motion.queryCount == 0)
    }

    @Test func givenFitnessTrackingOff_whenChecked_thenRestrictedAndRequestAsksNothing() async throws {
        let harness = PermissionHarness(motion: .init(fitnessTrackingEnabled: false))
        #expect(await harness.manager.check(.motion) == .restricted)
        #expect(try await harness.manager.requestMotion() == .restricted)
        #expect(harness.motion.queryCount == 0)
    }

    @Test func givenNoMotionUsageDescription_whenRequest_thenThrowsNamingTheKeyInsteadOfCrashing() async {
        let harness = PermissionHarness(infoPlist: .complete(without: "NSMotionUsageDescription"))
        await #expect(throws: PermissionRequestError.missingUsageDescription(.motion, keys: ["NSMotionUsageDescription"])) {
            try await harness.manager.requestMotion()
        }
        #expect(harness.motion.queryCount == 0)
    }

    @Test func givenAppInfoPlistLacksTheKey_whenQueried_thenTheSimulatedCrashIsReported() async {
        let harness = PermissionHarness(appKeys: [])
        await #expect {
            try await harness.manager.requestMotion()
        } throws: { error in
            guard case .systemError(.motion, let message) = error as? PermissionRequestError else { return false }
            return message.contains("NSMotionUsageDescription")
        }
    }

    @Test func givenAuthorized_whenDeniedInSettingsAndAppRefreshes_thenDeniedIsPublished() async {
        let harness = PermissionHarness(motion: .init(status: .authorized))
        let updates = harness.manager.stateUpdates(for: .motion)
        harness.motion.setAllowedInSettings(false)
        #expect(harness.manager.state(for: .motion) == .authorized)
        await harness.becameActive()
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next() == .authorized)
        #expect(await iterator.next() == .denied)
    }

    @Test func givenDenied_whenFitnessTrackingSwitchedOffThenOnAgain_thenRestrictedThenDenied() async {
        let harness = PermissionHarness(motion: .init(status: .denied))
        harness.motion.setFitnessTrackingEnabled(false)
        #expect(await harness.manager.check(.motion) == .restricted)
        harness.motion.setFitnessTrackingEnabled(true)
        #expect(await harness.manager.check(.motion) == .denied)
    }

    @Test func givenMotionPromptLeftUp_whenTheAuthorizationTimeoutPasses_thenTheRequestEndsNotDetermined() async throws {
        let harness = PermissionHarness()
        async let request = try await harness.manager.requestMotion()
        await harness.motion.prompt.waitUntilShown()

        harness.clock.advance(by: .seconds(29))
        #expect(harness.manager.requestsInFlight == [.motion])
        harness.clock.advance(by: .seconds(1))

        #expect(try await request == .notDetermined)
        #expect(harness.manager.requestsInFlight.isEmpty)
    }

    @Test func givenWaitingMotionRequest_whenTheCallerIsCancelled_thenItIsReleasedAtOnce() async throws {
        let harness = PermissionHarness()
        try await withThrowingTaskGroup(of: PermissionState.self) { request in
            request.addTask { try await harness.manager.requestMotion() }
            await harness.motion.prompt.waitUntilShown()

            request.cancelAll()

            let state = try await request.next()
            #expect(state == .notDetermined)
        }
        harness.motion.prompt.answer(.allow)
        #expect(try await harness.manager.requestMotion() == .authorized)
    }

    @Test func givenQueryFailsWith106_whenRequest_thenUnavailable() async throws {
        let manager = PermissionManager(
            locationService: LocationService(manager: FakeLocationManager(status: .notDetermined)),
            motion: NotEntitledMotion(),
            health: SimulatedHealth(hasInfoPlistKey: { _ in true }),
            infoPlist: .complete,
            ledger: InMemoryPermissionLedger(),
            settingsOpener: .none
        )
        #expect(try await manager.requestMotion() == .unavailable)
    }
}

/// CoreMotion answering "not entitled" (106), which the simulated iPhone never does for an app.
@MainActor
private final class NotEntitledMotion: MotionAuthorizing {
    let isActivityAvailable = true
    let authorizationStatus = MotionAuthorizationStatus.notDetermined

    func queryActivity(from start: Date, to end: Date) async throws -> Int {
        throw MotionActivityError.notEntitled
    }
}
