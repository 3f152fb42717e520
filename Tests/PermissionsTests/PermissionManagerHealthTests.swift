import AsyncSupport
import DeviceInterfaces
import DeviceSimulator
import Permissions
import Testing

@MainActor
@Suite(.timeLimit(.minutes(1))) struct PermissionManagerHealthTests {
    @Test func givenNoHealthData_whenRequest_thenUnavailableAndNothingAsked() async throws {
        let harness = PermissionHarness(health: .init(isHealthDataAvailable: false))
        #expect(try await harness.manager.requestHealth() == .unavailable)
        #expect(harness.health.requestCount == 0)
        #expect(!harness.manager.health.isAvailable)
    }

    @Test func givenNothingAsked_whenChecked_thenNotDeterminedBecauseASheetWouldAppear() async {
        let harness = PermissionHarness()
        #expect(await harness.manager.check(.healthKit) == .notDetermined)
        #expect(harness.manager.health.requestStatus == .shouldRequest)
        #expect(harness.health.prompt.timesShown == 0)
    }

    @Test func givenHealthSheetLeftUp_whenTheAuthorizationTimeoutPasses_thenTheRequestEndsNotDetermined() async throws {
        let harness = PermissionHarness()
        async let request = try await harness.manager.requestHealth()
        await harness.health.prompt.waitUntilShown()

        harness.clock.advance(by: .seconds(30))

        #expect(try await request == .notDetermined)
        #expect(harness.manager.requestsInFlight.isEmpty)
    }

    @Test func givenWaitingHealthRequest_whenTheCallerIsCancelled_thenItIsReleasedAtOnce() async throws {
        let harness = PermissionHarness()
        try await withThrowingTaskGroup(of: PermissionState.self) { request in
            request.addTask { try await harness.manager.requestHealth() }
            await harness.health.prompt.waitUntilShown()

            request.cancelAll()

            let state = try await request.next()
            #expect(state == .notDetermined)
        }
    }

    @Test func givenNothingAsked_whenUserTurnsOnAll_thenAuthorizedWithWriteStatusPerType() async throws {
        let harness = PermissionHarness()
        async let request = try await harness.manager.requestHealth()
        await harness.health.prompt.waitUntilShown()
        harness.health.prompt.answer(.turnOnAll)
        #expect(try await request == .authorized)
        #expect(harness.manager.health.writeStatus == [.workout: .sharingAuthorized, .workoutRoute: .sharingAuthorized])
        #expect(harness.manager.health.requestStatus == .unnecessary)
    }

    @Test func givenNothingAsked_whenUserDoesNotAllow_thenDeniedAlthoughHealthKitReportedSuccess() async throws {
        let harness = PermissionHarness()
        async let request = try await harness.manager.requestHealth()
        await harness.health.prompt.waitUntilShown()
        harness.health.prompt.answer(.dontAllow)
        #expect(try await request == .denied)
        #expect(harness.manager.health.savingDenied == [.workout, .workoutRoute])
    }

    @Test func givenNothingAsked_whenUserAllowsWorkoutsOnly_thenAuthorizedWithRoutesListedAsDenied() async throws {
        let harness = PermissionHarness()
        async let request = try await harness.manager.requestHealth()
        await harness.health.prompt.waitUntilShown()
        harness.health.prompt.answer(.allow(share: [.workout], read: []))
        #expect(try await request == .authorized)
        #expect(harness.manager.health.savingAllowed == [.workout])
        #expect(harness.manager.health.savingDenied == [.workoutRoute])
    }

    @Test func givenEveryTypeDecided_whenRequest_thenNoSheetAndNoRequest() async throws {
        let harness = PermissionHarness(health: .init(
            shareStatus: [.workout: .sharingDenied, .workoutRoute: .sharingDenied],
            readAllowed: [.stepCount: true, .distanceWalkingRunning: false]
        ))
        #expect(try await harness.manager.requestHealth() == .denied)
        #expect(harness.health.requestCount == 0)
        #expect(harness.health.prompt.timesShown == 0)
    }

    @Test func givenWritesDecidedButReadsNot_whenChecked_thenNotDeterminedBecauseTheSheetWouldStillAppear() async {
        let harness = PermissionHarness(health: .init(
            shareStatus: [.workout: .sharingAuthorized, .workoutRoute: .sharingAuthorized]
        ))
        #expect(await harness.manager.check(.healthKit) == .notDetermined)
    }

    @Test func givenReadingAllowedButSavingDenied_whenChecked_thenDeniedBecauseReadingCannotBeKnown() async {
        let harness = PermissionHarness(health: .init(
            shareStatus: [.workout: .sharingDenied, .workoutRoute: .sharingDenied],
            readAllowed: [.stepCount: true, .distanceWalkingRunning: true]
        ))
        #expect(await harness.manager.check(.healthKit) == .denied)
    }

    @Test func givenNoHealthShareUsageDescription_whenRequest_thenThrowsNamingTheKeyInsteadOfCrashing() async {
        let harness = PermissionHarness(infoPlist: .complete(without: "NSHealthShareUsageDescription"))
        await #expect(throws: PermissionRequestError.missingUsageDescription(
            .healthKit, keys: ["NSHealthShareUsageDescription"]
        )) {
            try await harness.manager.requestHealth()
        }
        #expect(harness.health.requestCount == 0)
    }

    @Test func givenASaveOnlyRequestWithoutTheReadKey_whenRequest_thenTheSheetIsShown() async throws {
        let harness = PermissionHarness(
            infoPlist: .complete(without: "NSHealthShareUsageDescription"),
            healthRequest: .paintMyTown
        )
        async let request = try await harness.manager.requestHealth()
        await harness.health.prompt.waitUntilShown()
        harness.health.prompt.answer(.turnOnAll)
        #expect(try await request == .authorized)
        #expect(harness.health.requestCount == 1)
    }

    @Test func givenBothHealthKeysMissing_whenRequest_thenBothAreNamed() async {
        let harness = PermissionHarness(
            infoPlist: .complete(without: "NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription")
        )
        await #expect(throws: PermissionRequestError.missingUsageDescription(
            .healthKit, keys: ["NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription"]
        )) {
            try await harness.manager.requestHealth()
        }
    }

    @Test func givenNoHealthKitEntitlement_whenRequest_thenSystemErrorNamesTheEntitlement() async {
        let harness = PermissionHarness(health: .init(hasHealthKitEntitlement: false))
        await #expect {
            try await harness.manager.requestHealth()
        } throws: { error in
            guard case .systemError(.healthKit, let message) = error as? PermissionRequestError else { return false }
            return message.contains("com.apple.developer.healthkit")
        }
    }

    @Test func givenAuthorized_whenSavingTurnedOffInHealthAppAndAppRefreshes_thenDeniedIsPublished() async {
        let harness = PermissionHarness(health: .init(
            shareStatus: [.workout: .sharingAuthorized, .workoutRoute: .sharingAuthorized],
            readAllowed: [.stepCount: true, .distanceWalkingRunning: true]
        ))
        await harness.manager.check(.healthKit)
        let updates = harness.manager.stateUpdates(for: .healthKit)
        harness.health.setShareStatusInHealthApp(.sharingDenied, for: .workout)
        harness.health.setShareStatusInHealthApp(.sharingDenied, for: .workoutRoute)
        await harness.becameActive()
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next() == .authorized)
        #expect(await iterator.next() == .denied)
    }

    @Test func givenReadingTurnedOffInHealthApp_whenRefreshed_thenNothingChangesBecauseIOSHidesIt() async {
        let harness = PermissionHarness(health: .init(
            shareStatus: [.workout: .sharingAuthorized, .workoutRoute: .sharingAuthorized],
            readAllowed: [.stepCount: true, .distanceWalkingRunning: true]
        ))
        await harness.manager.check(.healthKit)
        let before = harness.manager.health
        harness.health.setReadAllowedInHealthApp(false, for: .stepCount)
        await harness.becameActive()
        #expect(harness.manager.health == before)
    }
}
