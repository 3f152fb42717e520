import PetSpotDomain
import StartupFeature
import Testing
import TestSupport

/// The startup screen's corners through its view model: what the person sees and what was sent.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct CornerCaseScreenTests {
    // Rule 7, FR-004: Location Services are off for the whole phone; the popup says where to turn them on.
    @Test func givenLocationServicesOff_whenTheScreenAppears_thenThePopupSaysToTurnOnLocationServices() async {
        let screen = StartupScreen(status: .denied)
        screen.location.servicesEnabled = false

        await screen.appear()

        #expect(screen.viewModel.permissionPopup == PermissionPopupContent(reason: .locationServicesOff))
        #expect(screen.viewModel.permissionPopup?.message == L10n.Location.Permission.Popup.servicesOffMessage)
        #expect(screen.recorder.popupsShown == [.locationServicesOff])
        #expect(await screen.queriedLocations == [nil])
    }

    // The four popup keys keep the denied text.
    @Test func givenDeniedForThisApp_whenTheScreenAppears_thenThePopupKeepsTheSeedsWords() async {
        let screen = StartupScreen(status: .denied)

        await screen.appear()

        #expect(screen.viewModel.permissionPopup?.title == L10n.Location.Permission.Popup.title)
        #expect(screen.viewModel.permissionPopup?.message == L10n.Location.Permission.Popup.message)
        #expect(screen.viewModel.showPermissionDeniedAlert)
    }

    // Pull to refresh: `refresh()` returns when the new listing near the person's new place is in.
    @Test func givenNearbyListing_whenPulledToRefreshAfterMoving_thenQueriedNearTheNewPlace() async {
        let screen = StartupScreen(status: .authorizedWhenInUse)
        await screen.appear()
        screen.location.position = Fixtures.krakow

        await screen.viewModel.refresh()

        #expect(await screen.queriedLocations == [StartupScreen.sentWarsaw, Fixtures.krakow.rounded(toDecimals: 2)])
        #expect(screen.recorder.count(of: .refreshRequested) == 1)
        #expect(screen.viewModel.isLoading == false)
    }

    // No dead Retry: the error goes as soon as a new load starts.
    @Test func givenFailedListing_whenPulledToRefresh_thenTheErrorIsGoneWhileItLoads() async {
        let screen = StartupScreen(status: .denied)
        await screen.repository.failNextFetches()
        await screen.appear()
        #expect(screen.viewModel.errorMessage != nil)
        await screen.repository.holdFetches()

        screen.viewModel.requestRefresh()
        await screen.repository.waitForHeldFetch()

        #expect(screen.viewModel.errorMessage == nil)
        #expect(screen.viewModel.isLoading)
        await screen.repository.releaseHeldFetches()
        await screen.viewModel.waitUntilIdle()
        #expect(screen.viewModel.animals.count == 4)
    }

    // Rule 5: the grant lapsed while the app was away; on its return iOS is asked again.
    @Test func givenAllowOnceLapsed_whenTheAppReturns_thenIOSIsAskedAgainAndTheListingFollowsTheAnswer() async {
        let screen = StartupScreen(status: .authorizedWhenInUse)
        await screen.appear()
        screen.location.authorizationStatus = .notDetermined
        screen.location.answer = .authorizedWhenInUse

        await screen.returnFromBackground()
        await screen.recorder.waitFor(.listingShown(count: 4, withLocation: true), count: 2)
        await screen.viewModel.waitUntilIdle()

        #expect(screen.location.authorizationRequestCount == 1)
        #expect(await screen.queriedLocations == [StartupScreen.sentWarsaw, nil, StartupScreen.sentWarsaw])
    }
}
