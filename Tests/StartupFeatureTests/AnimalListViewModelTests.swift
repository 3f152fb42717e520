import PetSpotDomain
import StartupFeature
import Testing
import TestSupport

/// How the view model presents the machine's state and runs its effects.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct AnimalListViewModelTests {
    @Test func givenNewViewModel_whenNothingHappened_thenSeedDefaultsAndNothingRuns() async {
        let screen = StartupScreen(status: .authorizedWhenInUse)

        await screen.viewModel.waitUntilIdle()

        #expect(screen.viewModel.animals.isEmpty)
        #expect(screen.viewModel.isLoading == false)
        #expect(screen.viewModel.errorMessage == nil)
        #expect(screen.viewModel.locationPermissionStatus == .notDetermined)
        #expect(screen.viewModel.showPermissionDeniedAlert == false)
        #expect(screen.viewModel.currentLocation == nil)
        #expect(screen.viewModel.content == .loading)
        #expect(await screen.repository.queryCount == 0)
    }

    // FR-001: appearing starts the check; the screen shows progress until the listing arrives.
    @Test func givenScreenAppears_whenQueryIsHeld_thenLoadingUntilItCompletes() async {
        let screen = StartupScreen(status: .denied)
        await screen.repository.holdFetches()

        screen.viewModel.onAppear()
        await screen.repository.waitForHeldFetch()
        #expect(screen.viewModel.isLoading)
        #expect(screen.viewModel.content == .loading)

        await screen.repository.releaseHeldFetches()
        await screen.viewModel.waitUntilIdle()
        #expect(screen.viewModel.isLoading == false)
        #expect(screen.viewModel.content == .animals(Fixtures.animals.sorted { $0.publishedAt > $1.publishedAt }))
    }

    // Only the popup's buttons close it (the property is read-only).
    @Test func givenPopupShown_whenGoToSettingsTapped_thenPopupClosesAndSettingsOpen() async {
        let screen = StartupScreen(status: .denied)
        await screen.appear()
        #expect(screen.viewModel.showPermissionDeniedAlert)

        screen.viewModel.openSettings()
        #expect(screen.viewModel.showPermissionDeniedAlert == false)
        #expect(screen.settingsOpenCount == 1)
    }

    // FR-005: Settings opens only from the popup.
    @Test func givenNoPopup_whenOpenSettingsCalled_thenNothingOpens() async {
        let screen = StartupScreen(status: .authorizedWhenInUse)
        await screen.appear()

        screen.viewModel.openSettings()

        #expect(screen.settingsOpenCount == 0)
    }

    @Test func givenFirstCall_whenLoadAnimals_thenRunsStartupFlowAndLaterCallsRefresh() async {
        let screen = StartupScreen(status: .authorizedWhenInUse)

        await screen.viewModel.loadAnimals()
        await screen.viewModel.loadAnimals()

        #expect(screen.recorder.count(of: .screenAppeared) == 1)
        #expect(screen.location.locationRequestCount == 2)
        #expect(await screen.queriedLocations == [StartupScreen.sentWarsaw, StartupScreen.sentWarsaw])
    }

    @Test func givenServerReturnsNothing_whenListingShown_thenEmptyContent() async {
        let screen = StartupScreen(status: .denied, repository: InMemoryAnimalRepository(animals: []))

        await screen.appear()

        #expect(screen.viewModel.content == .empty)
        #expect(screen.recorder.events.contains(.listingShown(count: 0, withLocation: false)))
    }

    // Departure 6: the coordinates that leave the device are rounded; the screen keeps the fix.
    @Test func givenPreciseFix_whenQuerySent_thenCoordinatesRoundedToTwoDecimals() async {
        let screen = StartupScreen(status: .authorizedWhenInUse)

        await screen.appear()

        let sent = await screen.queriedLocations.first??.coordinate
        #expect(sent?.latitude == 52.23)
        #expect(sent?.longitude == 21.01)
        #expect(screen.viewModel.currentLocation?.latitude == 52.229_676)
    }

    // The events carry the coordinates as sent, and no description of them shows any.
    @Test func givenLocatedLaunch_whenEventsLogged_thenTheyCarryWhatWasSentAndPrintNoCoordinates() async throws {
        let screen = StartupScreen(status: .authorizedWhenInUse)

        await screen.appear()

        let queried: UserLocation? = await screen.queriedLocations.first ?? nil
        let sent = SentCoordinates(try #require(queried))
        #expect(screen.recorder.events == [
            .screenAppeared, .permissionChecked(.authorizedWhenInUse), .locationRequested, .locationObtained(sent: sent),
            .queryStarted(near: sent), .queryFinished(count: 4), .listingShown(count: 4, withLocation: true),
        ])
        #expect(!screen.recorder.events.map { "\($0)" }.joined().contains("52.2"))
    }
}
