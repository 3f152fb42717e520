import DeviceInterfaces
import DeviceSimulator
import Foundation
import PetSpotDomain
import Testing

/// Rule 32 to rule 35 (docs/requirements.md): a walk on the simulated iPhone — live updates under a
/// background activity session, Motion's activity and pedometer, Health saving the workout.
@Suite(.timeLimit(.minutes(1))) @MainActor struct SimulatedWalkTests {
    /// 200 m due north of home.
    static let route = route(metres: 200)

    static func route(metres: Double) -> [GeoCoordinate] {
        guard let end = try? GeoCoordinate(latitude: DeviceHarness.home.latitude + metres / 111_195.0, longitude: DeviceHarness.home.longitude)
        else { preconditionFailure("a valid test coordinate") }
        return [DeviceHarness.home, end]
    }

    static func walker(
        location: LocationPermissionStatus = .authorizedWhenInUse,
        motion: MotionAuthorizationStatus = .authorized,
        activity: [(after: Duration, kind: MotionActivity.Kind)] = [],
        metres: Double = 200
    ) -> DeviceHarness {
        DeviceHarness {
            $0.location.authorization = location
            $0.motion.status = motion
            $0.walk = DeviceConfiguration.Walk(path: route(metres: metres), speedMetresPerSecond: 1.4, activity: activity)
        }
    }

    func walkEvents(_ harness: DeviceHarness) -> [String] {
        harness.device.log.compactMap {
            if case .subsystem("walk", let detail) = $0.event { detail } else { nil }
        }
    }

    func fixes(_ harness: DeviceHarness) -> Int { walkEvents(harness).filter { $0 == "fixDelivered" }.count }

    // MARK: Rule 35: iOS ends the app, and may launch it again in the background

    /// A walker 2 km long whose app turned the significant-change service on, set off, left the app,
    /// and was ended by iOS (or swiped away by the person); returns the background launches.
    func endedMidWalk(
        _ location: LocationPermissionStatus, byIOS: Bool = true, serviceOn: Bool = true, explicitSessions: Bool = false
    ) async throws -> (DeviceHarness, launches: () -> Int) {
        let harness = DeviceHarness {
            $0.location.authorization = location
            $0.walk = DeviceConfiguration.Walk(path: Self.route(metres: 2_000))
            if explicitSessions {
                $0.iosVersion = 18
                $0.infoPlistKeys.insert(ServiceSessionAuthorization.requireExplicitSessionKey)
            }
        }
        _ = try await harness.launched()
        var launches = 0
        harness.device.onBackgroundLaunch = { _ in launches += 1 }
        harness.device.walkLocation.startRelaunchMonitoring()
        if !serviceOn { harness.device.walkLocation.stopRelaunchMonitoring() }
        try harness.device.setOff()
        try harness.device.background()
        if byIOS { try harness.device.reclaimApp() } else { try harness.device.terminate() }
        return (harness, { launches })
    }

    /// Moves time on a second at a time until iOS has launched the app into the background (within
    /// ten minutes), so that what the test does next comes right after the launch.
    func advanceUntilLaunched(_ harness: DeviceHarness, _ launches: () -> Int) async throws {
        for _ in 0..<600 where launches() == 0 {
            await harness.advance(by: .seconds(1))
        }
        try #require(launches() == 1)
    }

    @Test func rule35_givenAlways_whenIOSEndsTheAppAndThePersonWalksOn_thenItIsLaunchedInTheBackground() async throws {
        let (harness, launches) = try await endedMidWalk(.authorizedAlways)
        // 418 m after 299 s: neither far enough nor long enough for the service to report.
        await harness.advance(by: .seconds(299))
        #expect(launches() == 0)
        await harness.advance(by: .seconds(90))
        #expect(launches() == 1)
        #expect(harness.device.scenePhase == .background)
        // With Always, the relaunched app's live updates flow in the background, with no active session.
        _ = harness.device.walkLocation.beginBackgroundActivity()
        #expect(!harness.device.walkLocation.hasActiveSession)
        let updates = harness.device.walkLocation.walkUpdates()
        await harness.advance(by: .seconds(5))
        #expect(fixes(harness) == 5)
        _ = updates
    }

    @Test func rule35_givenIOS18AndTheExplicitSessionKey_whenTheRelaunchedAppMakesItsSessionAtOnce_thenFixesFlow() async throws {
        let (harness, launches) = try await endedMidWalk(.authorizedAlways, explicitSessions: true)
        try await advanceUntilLaunched(harness, launches)
        _ = harness.device.walkLocation.beginBackgroundActivity()
        #expect(walkEvents(harness).last == "backgroundActivityRejoined (relaunched)")
        let updates = harness.device.walkLocation.walkUpdates()
        await harness.advance(by: .seconds(5))
        #expect(fixes(harness) == 5)
        _ = updates
    }

    @Test func rule35_givenIOS18AndTheExplicitSessionKey_whenTheRelaunchedAppMakesItsSessionLate_thenNoFix() async throws {
        let (harness, launches) = try await endedMidWalk(.authorizedAlways, explicitSessions: true)
        try await advanceUntilLaunched(harness, launches)
        await harness.advance(by: .seconds(10))
        _ = harness.device.walkLocation.beginBackgroundActivity()
        #expect(walkEvents(harness).last == "backgroundActivityRefused (not in use)")
        let updates = harness.device.walkLocation.walkUpdates()
        await harness.advance(by: .seconds(5))
        #expect(fixes(harness) == 0)
        _ = updates
    }

    @Test func rule35_givenAlwaysAndTheAppOnlyInTheBackground_whenThePersonWalksFar_thenNoLaunchAndNoFixWithoutASession() async throws {
        let harness = Self.walker(location: .authorizedAlways, metres: 2_000)
        _ = try await harness.launched()
        var launches = 0
        harness.device.onBackgroundLaunch = { _ in launches += 1 }
        harness.device.walkLocation.startRelaunchMonitoring()
        let updates = harness.device.walkLocation.walkUpdates()
        try harness.device.setOff()
        try harness.device.background()
        await harness.advance(by: .seconds(600))
        #expect(launches == 0)
        // Rule 32 holds for Always too: left by the person without a session, the app is suspended.
        #expect(fixes(harness) == 0)
        #expect(walkEvents(harness).contains("significantChange"))
        _ = updates
    }

    @Test func rule35_givenARelaunchedProcessThePersonOpened_whenTheyLeaveIt_thenItIsSuspendedWithoutASession() async throws {
        let (harness, launches) = try await endedMidWalk(.authorizedAlways)
        try await advanceUntilLaunched(harness, launches)
        let updates = harness.device.walkLocation.walkUpdates()
        try harness.device.foreground()
        await harness.advance(by: .seconds(2))
        try harness.device.background()
        let before = fixes(harness)
        await harness.advance(by: .seconds(10))
        #expect(fixes(harness) == before)
        _ = updates
    }

    @Test func rule35_givenWhileUsing_whenIOSEndsTheAppAndThePersonWalksFar_thenItIsNeverLaunched() async throws {
        let (harness, launches) = try await endedMidWalk(.authorizedWhenInUse)
        await harness.advance(by: .seconds(900))
        #expect(launches() == 0)
        #expect(harness.device.scenePhase == .notRunning)
        #expect(walkEvents(harness).contains("significantChange"))
    }

    @Test func rule35_givenAlways_whenThePersonSwipesTheAppAway_thenItIsNeverLaunched() async throws {
        let (harness, launches) = try await endedMidWalk(.authorizedAlways, byIOS: false)
        await harness.advance(by: .seconds(900))
        #expect(launches() == 0)
    }

    @Test func rule35_givenAlwaysAndTheServiceStopped_whenIOSEndsTheApp_thenItIsNeverLaunched() async throws {
        let (harness, launches) = try await endedMidWalk(.authorizedAlways, serviceOn: false)
        await harness.advance(by: .seconds(900))
        #expect(launches() == 0)
    }

    @Test func rule35_givenTheAppInUse_whenIOSWouldReclaimIt_thenRefused() async throws {
        let harness = Self.walker(location: .authorizedAlways)
        _ = try await harness.launched()
        #expect(throws: SimulatedDeviceError.appNotInBackground(.active)) { try harness.device.reclaimApp() }
    }

    // MARK: Rule 32: background activity session and live updates

    @Test func rule32_givenWhileUsingAndASessionBegunInUse_whenThePersonLeavesTheApp_thenFixesGoOnInTheBackground() async throws {
        let harness = Self.walker()
        _ = try await harness.launched()
        let session = harness.device.walkLocation.beginBackgroundActivity()
        var updates = harness.device.walkLocation.walkUpdates().makeAsyncIterator()
        try harness.device.setOff()
        await harness.advance(by: .seconds(10))
        try harness.device.background()
        await harness.advance(by: .seconds(10))
        #expect(fixes(harness) == 20)
        #expect(harness.device.walkLocation.hasActiveSession)
        let first = await updates.next()
        #expect(first?.location?.horizontalAccuracy == 5)
        session.invalidate()
        await harness.advance(by: .seconds(5))
        #expect(fixes(harness) == 20)
        #expect(walkEvents(harness).contains("backgroundActivityEnded"))
    }

    @Test func rule32_givenNoSession_whenThePersonLeavesTheApp_thenNoFixUntilTheyReturn() async throws {
        let harness = Self.walker()
        _ = try await harness.launched()
        let updates = harness.device.walkLocation.walkUpdates()
        try harness.device.setOff()
        await harness.advance(by: .seconds(3))
        try harness.device.background()
        await harness.advance(by: .seconds(30))
        #expect(fixes(harness) == 3)
        try harness.device.foreground()
        await harness.advance(by: .seconds(1))
        #expect(fixes(harness) == 4)
        _ = updates
    }

    @Test func rule32_givenTheAppInTheBackground_whenASessionBegins_thenItIsNotActive() async throws {
        let harness = Self.walker()
        _ = try await harness.launched()
        try harness.device.background()
        _ = harness.device.walkLocation.beginBackgroundActivity()
        #expect(!harness.device.walkLocation.hasActiveSession)
        #expect(walkEvents(harness) == ["backgroundActivityRefused (not in use)"])
    }

    @Test func rule32_givenIOS18AndTheExplicitSessionKey_whenNoSessionIsHeld_thenNoFixEvenInUse() async throws {
        let harness = DeviceHarness {
            $0.iosVersion = 18
            $0.infoPlistKeys.insert(ServiceSessionAuthorization.requireExplicitSessionKey)
            $0.location.authorization = .authorizedWhenInUse
            $0.walk = DeviceConfiguration.Walk(path: Self.route)
        }
        _ = try await harness.launched()
        let updates = harness.device.walkLocation.walkUpdates()
        try harness.device.setOff()
        await harness.advance(by: .seconds(5))
        #expect(fixes(harness) == 0)
        _ = harness.device.walkLocation.beginBackgroundActivity()
        await harness.advance(by: .seconds(5))
        #expect(fixes(harness) == 5)
        _ = updates
    }

    @Test(arguments: [LocationPermissionStatus.notDetermined, .denied, .restricted])
    func rule32_givenLocationNotAllowed_whenLiveUpdatesAreRead_thenNoFixEver(status: LocationPermissionStatus) async throws {
        let harness = Self.walker(location: status)
        _ = try await harness.launched()
        let updates = harness.device.walkLocation.walkUpdates()
        try harness.device.setOff()
        await harness.advance(by: .seconds(10))
        #expect(fixes(harness) == 0)
        _ = updates
    }

    @Test func rule32_givenTheWalk_whenFixesCome_thenThePersonIsWhereThePaceTookThem() async throws {
        let harness = Self.walker()
        _ = try await harness.launched()
        try harness.device.setOff()
        await harness.advance(by: .seconds(100))
        let position = try #require(harness.device.walkerPosition)
        #expect(abs(position.distance(to: DeviceHarness.home) - 140) < 0.01)
        await harness.advance(by: .seconds(100))
        #expect(harness.device.walkerPosition == Self.route.last)
    }

    // MARK: Rule 33: Motion's activity and pedometer

    @Test func rule33_givenMotionAllowed_whenThePersonStopsAndGoesOn_thenActivitiesAndStepsFollow() async throws {
        let harness = Self.walker(activity: [(.seconds(10), .stationary), (.seconds(40), .walking)])
        _ = try await harness.launched()
        let activities = harness.device.walkMotion.activityUpdates()
        let steps = harness.device.walkMotion.stepUpdates(from: harness.device.now)
        try harness.device.setOff()
        await harness.advance(by: .seconds(50))
        #expect(walkEvents(harness).filter { $0.hasPrefix("activity") } == ["activity walking", "activity stationary", "activity walking"])
        // 20 s of walking at 1.4 m/s, 1.35 steps a metre; the 30 s standing still add none.
        #expect(walkEvents(harness).last { $0.hasPrefix("steps") } == "steps 37")
        _ = (activities, steps)
    }

    @Test(arguments: [MotionAuthorizationStatus.notDetermined, .denied])
    func rule33_givenMotionNotAllowed_whenTheWalkGoesOn_thenNothingIsDelivered(status: MotionAuthorizationStatus) async throws {
        let harness = Self.walker(motion: status)
        _ = try await harness.launched()
        let activities = harness.device.walkMotion.activityUpdates()
        let steps = harness.device.walkMotion.stepUpdates(from: harness.device.now)
        try harness.device.setOff()
        await harness.advance(by: .seconds(20))
        #expect(walkEvents(harness) == ["setOff"])
        _ = (activities, steps)
    }

    // MARK: Rule 34: Health saves a workout only with permission to save it

    static let workout = WalkWorkout(
        start: Date(timeIntervalSince1970: 1_767_225_600), end: Date(timeIntervalSince1970: 1_767_225_700),
        distanceMetres: 140, steps: 189, route: [], syncIdentifier: "walk-1", syncVersion: 1
    )

    @Test func rule34_givenWorkoutsMayBeSaved_whenAWalkIsSaved_thenHealthKeepsIt() async throws {
        let harness = DeviceHarness { $0.health.shareStatus = [.workout: .sharingAuthorized, .workoutRoute: .sharingAuthorized] }
        try await harness.device.workouts.saveWalk(Self.workout)
        #expect(harness.device.workouts.saved == [Self.workout])
    }

    @Test func rule34_givenAWalkSavedOnce_whenItIsSavedAgain_thenHealthHoldsOneWorkoutTheGreaterVersion() async throws {
        let harness = DeviceHarness { $0.health.shareStatus = [.workout: .sharingAuthorized, .workoutRoute: .sharingAuthorized] }
        var again = Self.workout
        again.syncVersion = 2
        var older = Self.workout
        older.syncVersion = 0
        older.distanceMetres = 1
        var other = Self.workout
        other.syncIdentifier = "walk-2"

        for workout in [Self.workout, again, older, other] {
            try await harness.device.workouts.saveWalk(workout)
        }

        #expect(harness.device.workouts.saved == [again, other])
    }

    @Test(arguments: [HealthShareStatus.notDetermined, .sharingDenied])
    func rule34_givenWorkoutsMayNotBeSaved_whenAWalkIsSaved_thenNotAuthorizedAndNothingKept(status: HealthShareStatus) async {
        let harness = DeviceHarness { $0.health.shareStatus = [.workout: status, .workoutRoute: status] }
        await #expect(throws: WorkoutSaveError.notAuthorized) { try await harness.device.workouts.saveWalk(Self.workout) }
        #expect(harness.device.workouts.saved.isEmpty)
    }

    @Test func rule34_givenNoHealthData_whenAWalkIsSaved_thenUnavailable() async {
        let harness = DeviceHarness { $0.health.isHealthDataAvailable = false }
        await #expect(throws: WorkoutSaveError.unavailable) { try await harness.device.workouts.saveWalk(Self.workout) }
    }
}
