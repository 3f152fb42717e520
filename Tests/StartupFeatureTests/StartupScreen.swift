import PetSpotDomain
import StartupFeature
import TestSupport

/// One launch of the startup screen against fakes: the view model, its services, its event log and
/// how often Settings was opened.
@MainActor
final class StartupScreen {
    let viewModel: AnimalListViewModel
    let locationService: FakeLocationService
    let repository: InMemoryAnimalRepository
    let recorder: EventRecorder
    private(set) var settingsOpenCount = 0

    init(
        status: LocationPermissionStatus,
        location: UserLocation? = Fixtures.warsaw,
        repository: InMemoryAnimalRepository = InMemoryAnimalRepository()
    ) {
        locationService = FakeLocationService(status: status, location: location)
        self.repository = repository
        viewModel = AnimalListViewModel(locationService: locationService, animalRepository: repository)
        recorder = EventRecorder(viewModel)
        viewModel.onOpenAppSettings = { [weak self] in self?.settingsOpenCount += 1 }
    }

    /// A new launch (a new session) on the same device and server.
    func relaunched() -> StartupScreen {
        StartupScreen(
            status: locationService.stubbedAuthorizationStatus,
            location: locationService.stubbedLocation,
            repository: repository
        )
    }

    /// The screen appears and everything it starts finishes.
    func appear() async {
        viewModel.onAppear()
        await viewModel.waitUntilIdle()
    }

    /// The app goes to the background and comes back, as iOS reports it, and settles.
    func returnFromBackground() async {
        viewModel.scenePhaseChanged(to: .inactive)
        viewModel.scenePhaseChanged(to: .background)
        viewModel.scenePhaseChanged(to: .inactive)
        viewModel.scenePhaseChanged(to: .active)
        await viewModel.waitUntilIdle()
    }

    /// Settings (or the system) changes the status and tells observers; waits until the view model
    /// saw it and everything it started finished.
    func statusChanges(to status: LocationPermissionStatus) async {
        let seen = recorder.count(of: .permissionChanged(status))
        locationService.simulateStatusChange(to: status)
        await recorder.waitFor(.permissionChanged(status), count: seen + 1)
        await viewModel.waitUntilIdle()
    }

    var queriedLocations: [UserLocation?] {
        get async { await repository.queriedLocations }
    }

    /// The first location sent to the server, as it leaves the device (rounded, departure 6).
    static let sentWarsaw = Fixtures.warsaw.rounded(toDecimals: 2)
}
