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

    /// The app on a phone where location is `location` and Motion `motion`, with every key in Info.plist.
    func app(location: LocationPermissionStatus, motion: MotionAuthorizationStatus = .authorized) -> (PaintMyTownModel, Log) {
        let manager = FakeLocationManager(status: location, servicesEnabled: true)
        let keys: Set<String> = [
            "NSLocationWhenInUseUsageDescription", "NSLocationAlwaysAndWhenInUseUsageDescription", "NSMotionUsageDescription",
            "NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription",
        ]
        let model = PaintMyTownModel(PaintMyTownDependencies(
            locationManager: manager,
            motion: SimulatedMotion(hasMotionCoprocessor: true, fitnessTrackingEnabled: true, status: motion, hasInfoPlistKey: { keys.contains($0) }),
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
}
