import DeviceInterfaces
import PetSpotDomain
import StartupFeature
import Testing
import TestSupport

/// The spec's edge cases, plus a server failure.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct EdgeCaseTests {
    // Location Services off system-wide (or Airplane mode): iOS reports the app's status as denied.
    // FR-009, FR-007
    @Test func givenLocationServicesOffSystemWide_whenScreenAppears_thenQueryWithoutCoordinatesAndListingShown() async {
        let screen = StartupScreen(status: .denied, location: nil)

        await screen.appear()

        #expect(screen.location.locationRequestCount == 0)
        #expect(await screen.queriedLocations == [nil])
        #expect(screen.viewModel.animals.count == 4)
    }

    // Location fetch times out or fails after permission was granted: the query behind the alert,
    // then one more without coordinates after the failed fix. FR-014
    @Test func givenPermissionGrantedAfterRequest_whenLocationFetchTimesOut_thenQueryWithoutCoordinatesAndListingShown() async {
        let screen = StartupScreen(status: .notDetermined, location: nil)
        screen.location.answer = .authorizedWhenInUse

        await screen.appear()

        #expect(screen.location.locationRequestCount == 1)
        #expect(screen.recorder.events.contains(.locationUnavailable))
        #expect(await screen.queriedLocations == [nil, nil])
        #expect(screen.viewModel.content == .animals(screen.viewModel.animals))
    }

    // A permission change during an active query: the query completes, nothing overlaps it, and the
    // change is applied afterwards. FR-015
    @Test func givenQueryInFlight_whenPermissionGranted_thenQueryCompletesFirstAndOnlyThenRefetchWithLocation() async throws {
        let screen = StartupScreen(status: .denied)
        await screen.repository.holdFetches()
        screen.viewModel.onAppear()
        await screen.repository.waitForHeldFetch()

        screen.location.send(.authorizationChanged(.authorizedWhenInUse, .fullAccuracy))
        await screen.recorder.waitFor(.permissionChangeDeferred(.authorizedWhenInUse))
        #expect(await screen.repository.queryCount == 1)
        #expect(screen.location.locationRequestCount == 0)
        #expect(screen.viewModel.isLoading)

        await screen.repository.releaseHeldFetches()
        await screen.viewModel.waitUntilIdle()

        #expect(await screen.queriedLocations == [nil, StartupScreen.sentWarsaw])
        #expect(await screen.repository.maximumConcurrentQueries == 1)
        let finished = try #require(screen.recorder.events.firstIndex(of: .queryFinished(count: 4)))
        let located = try #require(screen.recorder.events.firstIndex(of: .locationRequested))
        #expect(finished < located)
    }

    // FR-015: a change that is undone before the query ends leaves nothing to apply.
    @Test func givenQueryInFlight_whenPermissionFlipsAndFlipsBack_thenNothingHappensAfterQuery() async {
        let screen = StartupScreen(status: .denied)
        await screen.repository.holdFetches()
        screen.viewModel.onAppear()
        await screen.repository.waitForHeldFetch()

        screen.location.send(.authorizationChanged(.authorizedWhenInUse, .fullAccuracy))
        screen.location.send(.authorizationChanged(.denied, .fullAccuracy))
        await screen.recorder.waitFor(.permissionChanged(.denied))
        await screen.repository.releaseHeldFetches()
        await screen.viewModel.waitUntilIdle()

        #expect(await screen.queriedLocations == [nil])
        #expect(screen.location.locationRequestCount == 0)
    }

    // The app goes to the background while the custom popup is up: iOS keeps it; nothing special.
    @Test func givenCustomPopupDisplayed_whenAppBackgroundedAndReturns_thenPopupStillUpAndNothingRepeated() async {
        let screen = StartupScreen(status: .denied)
        await screen.appear()

        await screen.returnFromBackground()

        #expect(screen.viewModel.showPermissionDeniedAlert)
        #expect(screen.recorder.popupsShown == [.denied])
        #expect(await screen.repository.queryCount == 1)
        screen.viewModel.openSettings()
        #expect(screen.settingsOpenCount == 1)
    }

    // Weak or no GPS signal: no fix comes. FR-009, FR-014
    @Test func givenWeakGPSSignal_whenNoFixCanBeHad_thenQueryWithoutCoordinatesAndListingShown() async {
        let screen = StartupScreen(status: .authorizedAlways, location: nil)

        await screen.appear()

        #expect(screen.recorder.events.contains(.locationUnavailable))
        #expect(await screen.queriedLocations == [nil])
        #expect(screen.viewModel.animals.count == 4)
    }

    // Server failure on the first load: an error with Retry, no crash; Retry loads. FR-007, SC-002
    @Test func givenServerFails_whenFirstQueryCompletes_thenErrorWithRetryAndRetryLoadsListing() async {
        let screen = StartupScreen(status: .authorizedWhenInUse)
        await screen.repository.failNextFetches(1)

        await screen.appear()

        #expect(screen.viewModel.content == .failed(message: L10n.AnimalList.errorMessage))
        #expect(screen.viewModel.isLoading == false)
        #expect(screen.recorder.events.contains(
            .queryFailed(reason: "the listing server answered 503 Service Unavailable")))

        screen.viewModel.retry()
        await screen.viewModel.waitUntilIdle()

        #expect(screen.viewModel.errorMessage == nil)
        #expect(screen.viewModel.animals.count == 4)
        #expect(await screen.queriedLocations == [StartupScreen.sentWarsaw, StartupScreen.sentWarsaw])
    }

    // Server failure after a listing was shown: the earlier results stay, under an error banner.
    @Test func givenListingShown_whenRefreshFails_thenEarlierResultsKeptWithErrorBanner() async {
        let screen = StartupScreen(status: .denied)
        await screen.appear()
        await screen.repository.failNextFetches(1)

        await screen.viewModel.loadAnimals()

        #expect(screen.viewModel.animals.count == 4)
        #expect(screen.viewModel.errorBanner == L10n.AnimalList.errorMessage)
        #expect(screen.viewModel.content == .animals(screen.viewModel.animals))
    }
}
