import DeviceInterfaces
import DeviceSimulator
import Foundation
import PaintMyTownFeature
import Permissions
import PetSpotDomain
import TestSupport
import Testing
import WalkFeature

/// Paint My Town's app-wide state: the onboarding until it is done, and a walk only with location.
@MainActor
@Suite struct PaintMyTownModelTests {
    let storage = InMemoryWalkStorage()
    let walkLocation = FakeWalkLocation()
    let walkMotion = FakeWalkMotion()

    /// Every usage description Paint My Town's Info.plist holds.
    static let keys: Set<String> = [
        "NSLocationWhenInUseUsageDescription", "NSLocationAlwaysAndWhenInUseUsageDescription", "NSMotionUsageDescription",
        "NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription",
    ]

    /// The app on a phone where location is `location` and Motion `motion`, with `keys` in Info.plist.
    func app(
        location: LocationPermissionStatus,
        motion: MotionAuthorizationStatus = .authorized,
        keys: Set<String> = Self.keys,
        motionAdapter: SimulatedMotion? = nil
    ) -> (PaintMyTownModel, Log) {
        let manager = FakeLocationManager(status: location, servicesEnabled: true)
        let model = PaintMyTownModel(PaintMyTownDependencies(
            locationManager: manager,
            motion: motionAdapter ?? SimulatedMotion(
                hasMotionCoprocessor: true, fitnessTrackingEnabled: true, status: motion, hasInfoPlistKey: { keys.contains($0) }
            ),
            health: SimulatedHealth(
                isHealthDataAvailable: true, hasHealthKitEntitlement: true, shareStatus: [:], readAllowed: [:],
                hasInfoPlistKey: { keys.contains($0) }
            ),
            walkLocation: walkLocation,
            walkMotion: walkMotion,
            workouts: FakeWorkouts(),
            storage: storage,
            settingsOpener: SettingsOpener {},
            ledger: InMemoryPermissionLedger(),
            infoPlist: PropertyList(Dictionary(uniqueKeysWithValues: keys.map { ($0, PropertyList.Value.string("Why.")) }))
        ))
        manager.send(.authorizationChanged(location, .fullAccuracy))
        let log = Log()
        model.onEvent = { log.events.append($0) }
        return (model, log)
    }

    @MainActor
    final class Log {
        var events: [PaintMyTownModel.Event] = []
    }

    @Test func givenAFirstLaunch_whenTheAppStarts_thenTheOnboardingShowsEveryPermissionAndAlways() throws {
        let (app, log) = app(location: .notDetermined)
        app.launch()
        let screen = try #require(app.permissionsScreen)
        #expect(app.isOnboarding)
        #expect(screen.permissions == [.location, .motion, .healthKit])
        #expect(screen.offersAlwaysLocation)
        #expect(log.events == [.app(.permissionsScreenShown)])
    }

    @Test func givenTheOnboarding_whenThePersonTapsDone_thenItIsRememberedAndNotShownAgain() {
        let (first, log) = app(location: .notDetermined)
        first.launch()
        first.permissionsScreen?.finish()
        #expect(first.permissionsScreen == nil)
        #expect(log.events.suffix(2) == [.app(.permissionsScreenClosed), .app(.onboardingCompleted)])
        #expect(storage.onboardingCompleted)
        let (second, _) = app(location: .notDetermined)
        second.launch()
        #expect(second.permissionsScreen == nil)
    }

    @Test(arguments: [LocationPermissionStatus.notDetermined, .denied, .restricted])
    func givenLocationNotAllowed_whenStartIsTapped_thenNoWalkAndNothingRecorded(status: LocationPermissionStatus) {
        storage.onboardingCompleted = true
        let (app, log) = app(location: status)
        app.launch()
        app.startWalk()
        #expect(log.events == [.app(.walkNotStarted(.locationNotAuthorized))])
        #expect(app.walkRefusal == .locationNotAuthorized)
        #expect(walkLocation.activities.isEmpty)
        #expect(app.walk.state.phase == .ready)
    }

    @Test func givenMotionAllowedInSettings_whenTheAppIsActiveAgain_thenEveryPermissionIsReadAgain() async {
        storage.onboardingCompleted = true
        let motion = SimulatedMotion(status: .denied, hasInfoPlistKey: { Self.keys.contains($0) })
        let (app, _) = app(location: .authorizedWhenInUse, motionAdapter: motion)
        app.launch()
        #expect(await waitUntilObserved { app.permissions.state(for: .motion) == .denied })
        motion.setAllowedInSettings(true)

        app.scenePhaseChanged(to: .active)

        #expect(await waitUntilObserved { app.permissions.state(for: .motion) == .authorized })
    }

    @Test func givenNoMotionUsageDescription_whenTheCardIsTapped_thenTheRequestIsRefusedNamingTheKey() async throws {
        let (app, log) = app(
            location: .authorizedWhenInUse, motion: .notDetermined, keys: Self.keys.subtracting(["NSMotionUsageDescription"])
        )
        app.launch()
        let screen = try #require(app.permissionsScreen)
        #expect(screen.card(for: .motion).action == .allow)

        await screen.performAction(for: .motion)

        #expect(log.events.last == .app(.permissionRequestRefused(.motion, .missingUsageDescription)))
        #expect(screen.errorMessage?.contains("NSMotionUsageDescription") == true)
    }

    @Test func givenTheOnboardingIsUp_whenStartIsTapped_thenNoWalk() {
        let (app, log) = app(location: .authorizedWhenInUse)
        app.launch()
        app.startWalk()
        #expect(log.events.last == .app(.walkNotStarted(.onboardingNotCompleted)))
        #expect(walkLocation.activities.isEmpty)
    }

    @Test(arguments: [(MotionAuthorizationStatus.authorized, true), (.denied, false), (.notDetermined, false)])
    func givenLocationWhileUsing_whenStartIsTapped_thenAWalkStartsPausingItselfOnlyWithMotion(
        motion: MotionAuthorizationStatus, autoPause: Bool
    ) {
        storage.onboardingCompleted = true
        let (app, log) = app(location: .authorizedWhenInUse, motion: motion)
        app.launch()
        app.startWalk()
        #expect(log.events.last == .walk(.walk(.walkStarted(autoPause: autoPause))))
        #expect(walkLocation.activities.count == 1)
        #expect(app.walkRefusal == nil)
    }

    @Test func givenAWalkUnderWay_whenStartIsTappedAgain_thenTheWalkGoesOnAndNothingBeginsTwice() {
        storage.onboardingCompleted = true
        let (app, log) = app(location: .authorizedWhenInUse)
        app.launch()
        app.startWalk()
        app.startWalk()
        #expect(log.events.filter { if case .walk(.walk(.walkStarted)) = $0 { true } else { false } }.count == 1)
        #expect(walkLocation.activities.count == 1)
        #expect(app.walk.state.phase == .recording)
    }

    // MARK: iOS ends the app mid-walk (rule 35)

    @Test func givenAWalkUnderWay_whenTheAppLeavesTheForegroundAndANewProcessLaunches_thenTheWalkGoesOn() async {
        storage.onboardingCompleted = true
        let (first, _) = app(location: .authorizedWhenInUse)
        first.launch()
        first.startWalk()
        walkLocation.send(Self.fix(0, after: 1))
        #expect(await waitUntilObserved { first.walk.state.segments.joined().count == 1 })
        first.scenePhaseChanged(to: .background)
        #expect(storage.walkInProgress?.route.joined().count == 1)
        let (second, log) = app(location: .authorizedWhenInUse)
        second.launch()
        #expect(log.events.contains(.walk(.walk(.walkRestored(paused: false)))))
        #expect(second.walk.state.phase == .recording)
        #expect(second.permissionsScreen == nil)
    }

    // MARK: The walk screen (what the SwiftUI view and the simulated iPhone's tree show)

    /// A fix `north` metres north of (52.23, 21.01), `seconds` from now (the app's clock is the real one).
    static func fix(_ north: Double, after seconds: Double) -> UserLocation {
        // Coordinates in range: this cannot fail.
        (try? UserLocation(latitude: 52.23 + north / 111_195.0, longitude: 21.01, horizontalAccuracy: 5, timestamp: Date().addingTimeInterval(seconds)))!
    }

    @Test func givenLocationDenied_whenStartIsTapped_thenTheWalkScreenSaysWhyAndStillOffersStart() {
        storage.onboardingCompleted = true
        let (app, _) = app(location: .denied)
        app.launch()
        app.startWalk()
        let screen = WalkScreen(app)
        #expect(screen.notice?.hasPrefix("Location is not allowed") == true)
        #expect(screen.controls == [.start])
        #expect(screen.distance == nil && screen.steps == nil && screen.lastWalk == nil)
    }

    @Test func givenAWalkWithoutMotion_whenShown_thenItSaysPausingIsByHandAndShowsNoSteps() {
        storage.onboardingCompleted = true
        let (app, _) = app(location: .authorizedWhenInUse, motion: .denied)
        app.launch()
        app.startWalk()
        var screen = WalkScreen(app)
        #expect(screen.status == "Recording your walk")
        #expect(screen.controls == [.pause, .end])
        #expect(screen.distance == "Distance: 0.00 km")
        #expect(screen.steps == nil)
        #expect(screen.notice?.hasPrefix("Without Motion & Fitness") == true)
        app.pauseWalk()
        screen = WalkScreen(app)
        #expect(screen.status == "Paused")
        #expect(screen.controls == [.resume, .end])
    }

    @Test func givenAnEndedWalk_whenHealthHasAnswered_thenTheScreenShowsItsNumbersAndWhatHealthDid() async {
        storage.onboardingCompleted = true
        let (app, _) = app(location: .authorizedWhenInUse)
        app.launch()
        app.startWalk()
        #expect(WalkScreen(app).steps == "Steps: 0")
        walkLocation.send(Self.fix(0, after: 1))
        walkLocation.send(Self.fix(150, after: 100))
        #expect(await waitUntilObserved { app.walk.state.distanceMetres > 149 })
        app.endWalk()
        await app.walk.waitUntilIdle()
        let screen = WalkScreen(app)
        #expect(screen.controls == [.start])
        #expect(screen.lastWalk?.hasPrefix("Last walk: 0.15 km.") == true, "\(String(describing: screen.lastWalk))")
        #expect(screen.health == "Saved to Health.")
        #expect(screen.distance == nil)
    }
}
