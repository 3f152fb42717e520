import AppFeature
import AsyncSupport
import DeviceInterfaces
import DeviceSimulator
import Foundation
import LocationBridge
import Permissions
import PetSpotDomain
import StartupFeature
import TestSupport

/// One launch of the app, watched through its startup screen: the app built from the test form of
/// its dependencies, over the scriptable location manager (answering at once, as a phone whose person
/// and GPS respond), the in-memory listing, its event log and how often Settings was opened.
@MainActor
final class StartupScreen {
    let app: AppModel
    let clock = VirtualClock()
    let location: FakeLocationManager
    let repository: InMemoryAnimalRepository
    let recorder: EventRecorder
    private(set) var settingsOpenCount = 0

    var viewModel: AnimalListViewModel { app.startup }

    /// - Parameters:
    ///   - status: the location permission at launch.
    ///   - location: where a location request finds the phone (nil: no fix can be had).
    ///   - answer: the person's answer to iOS's alert, when asked (nil: never answered).
    init(
        status: LocationPermissionStatus,
        location position: UserLocation? = Fixtures.warsaw,
        answer: LocationPermissionStatus? = nil,
        repository: InMemoryAnimalRepository = InMemoryAnimalRepository()
    ) {
        location = FakeLocationManager(status: status, answer: answer, position: position)
        self.repository = repository
        var dependencies = AppDependencies.test
        dependencies.clock = clock
        dependencies.locationManager = location
        dependencies.pets = repository
        // The fixtures' fixes are all taken at one moment: the app's present.
        dependencies.now = { Fixtures.warsaw.timestamp }
        var opened: (@MainActor () -> Void)?
        dependencies.settingsOpener = .init { opened?() }
        app = AppModel.build(dependencies)
        recorder = EventRecorder(app.startup)
        opened = { [weak self] in self?.settingsOpenCount += 1 }
        // An alert the person does not answer outlives the app's bounded wait: the wait's deadline was
        // fixed before iOS was asked, so moving the clock past it then ends the wait unanswered.
        let clock = self.clock
        let timeout = dependencies.locationConfiguration.authorizationTimeout
        location.onCall = { [location] call in
            if call == .requestWhenInUseAuthorization, location.authorizationStatus == .notDetermined {
                clock.advance(by: timeout)
            }
        }
    }

    /// A new launch (a new session) on the same device and server.
    func relaunched() -> StartupScreen {
        StartupScreen(status: location.authorizationStatus, location: location.position, answer: location.answer, repository: repository)
    }

    /// The screen appears and everything it starts finishes.
    func appear() async {
        app.launch()
        await viewModel.waitUntilIdle()
    }

    /// The app goes to the background and comes back, as iOS reports it, and settles.
    func returnFromBackground() async {
        for phase in [AppScenePhase.inactive, .background, .inactive, .active] { app.scenePhaseChanged(to: phase) }
        await viewModel.waitUntilIdle()
    }

    /// Settings (or the system) changes the status and iOS tells the app; waits until the screen saw
    /// it and everything it started finished.
    func statusChanges(to status: LocationPermissionStatus) async {
        let seen = recorder.count(of: .permissionChanged(status))
        location.send(.authorizationChanged(status, .fullAccuracy))
        await recorder.waitFor(.permissionChanged(status), count: seen + 1)
        await viewModel.waitUntilIdle()
    }

    var queriedLocations: [UserLocation?] {
        get async { await repository.queriedLocations }
    }

    /// The first location sent to the server, as it leaves the device (rounded, departure 6).
    static let sentWarsaw = Fixtures.warsaw.rounded(toDecimals: 2)
}
