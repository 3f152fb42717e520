import DeviceInterfaces
import PetSpotDomain
import StartupFeature
import Testing
import TestSupport

/// US4: permission changes while the app is open.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct PermissionChangeTests {
    // US4-1, FR-010, FR-011
    @Test func givenObservingPermission_whenUserGrantsPermission_thenLocationFetchedAndListingRefreshed() async {
        let screen = StartupScreen(status: .denied)
        await screen.appear()
        screen.viewModel.continueWithoutLocation()

        await screen.statusChanges(to: .authorizedWhenInUse)

        #expect(screen.viewModel.locationPermissionStatus == .authorizedWhenInUse)
        #expect(screen.location.locationRequestCount == 1)
        #expect(await screen.queriedLocations == [nil, StartupScreen.sentWarsaw])
        #expect(screen.recorder.events.last == .listingShown(count: 4, withLocation: true))
        #expect(screen.viewModel.animals.first?.id == "a1")
    }

    // US4-2, FR-011: iOS reports the new status only once the app is active again (its order
    // relative to `active` is undocumented), so the return itself re-checks.
    @Test func givenDeniedOnScreen_whenUserEnablesInSettingsAndReturns_thenQuerySentWithCoordinates() async {
        let screen = StartupScreen(status: .denied)
        await screen.appear()
        screen.viewModel.openSettings()
        screen.viewModel.scenePhaseChanged(to: .inactive)
        screen.viewModel.scenePhaseChanged(to: .background)
        screen.location.authorizationStatus = .authorizedWhenInUse

        screen.viewModel.scenePhaseChanged(to: .inactive)
        screen.viewModel.scenePhaseChanged(to: .active)
        await screen.viewModel.waitUntilIdle()

        #expect(screen.recorder.events.contains(.permissionChecked(.authorizedWhenInUse)))
        #expect(await screen.queriedLocations == [nil, StartupScreen.sentWarsaw])
        #expect(screen.viewModel.currentLocation == Fixtures.warsaw)
    }

    // US4-2, FR-011: the other order: the callback comes first, then the return re-checks and finds
    // nothing new, so the listing is refreshed exactly once.
    @Test func givenDeniedOnScreen_whenStatusCallbackArrivesBeforeActive_thenListingRefreshedOnce() async {
        let screen = StartupScreen(status: .denied)
        await screen.appear()
        screen.viewModel.openSettings()
        screen.viewModel.scenePhaseChanged(to: .background)

        await screen.statusChanges(to: .authorizedWhenInUse)
        await screen.returnFromBackground()

        #expect(await screen.queriedLocations == [nil, StartupScreen.sentWarsaw])
    }

    // US4-2, FR-011 through checkPermissionStatusChange().
    @Test func givenDenied_whenCheckPermissionStatusChangeFindsGrant_thenListingRefreshedWithCoordinates() async {
        let screen = StartupScreen(status: .denied)
        await screen.appear()
        screen.location.authorizationStatus = .authorizedAlways

        await screen.viewModel.checkPermissionStatusChange()

        #expect(screen.viewModel.locationPermissionStatus == .authorizedAlways)
        #expect(await screen.queriedLocations == [nil, StartupScreen.sentWarsaw])
    }

    // US4-3, FR-010
    @Test func givenObservingPermission_whenStatusChangesToDenied_thenFallbackModeContinuesWithoutLocation() async {
        let screen = StartupScreen(status: .authorizedWhenInUse)
        await screen.appear()

        await screen.statusChanges(to: .denied)

        #expect(screen.viewModel.locationPermissionStatus == .denied)
        #expect(screen.viewModel.currentLocation == nil)
        #expect(screen.viewModel.animals.count == 4)
        #expect(screen.viewModel.errorMessage == nil)
        #expect(await screen.repository.queryCount == 1)
    }

    // US4-4, FR-009: the next query goes without coordinates, and no second popup this session.
    @Test func givenGrantedThenRevoked_whenNextQueryRuns_thenItCarriesNoCoordinates() async {
        let screen = StartupScreen(status: .denied)
        await screen.appear()
        screen.viewModel.continueWithoutLocation()
        await screen.statusChanges(to: .authorizedWhenInUse)
        await screen.statusChanges(to: .denied)

        await screen.viewModel.loadAnimals()

        #expect(await screen.queriedLocations == [nil, StartupScreen.sentWarsaw, nil])
        #expect(screen.viewModel.showPermissionDeniedAlert == false)
        #expect(screen.recorder.popupsShown == [.denied])
        #expect(screen.viewModel.listingWasQueriedWithoutLocation)
    }

    // FR-004, FR-013: the popup belongs to the session's first check; a change made later (in Settings,
    // by device management) does not bring it, and starts no query.
    @Test func givenGrantedAndNoPopupYet_whenPermissionRevoked_thenNoPopupAndNoNewQuery() async {
        let screen = StartupScreen(status: .authorizedWhenInUse)
        await screen.appear()

        await screen.statusChanges(to: .restricted)

        #expect(screen.viewModel.permissionPopup == nil)
        #expect(screen.recorder.popupsShown.isEmpty)
        #expect(screen.viewModel.currentLocation == nil)
        #expect(await screen.repository.queryCount == 1)
    }

    // The popup asks for exactly what was just granted, so it closes itself.
    @Test func givenPopupShown_whenPermissionGrantedWhileItIsUp_thenPopupClosesAndListingRefreshed() async {
        let screen = StartupScreen(status: .denied)
        await screen.appear()

        await screen.statusChanges(to: .authorizedWhenInUse)

        #expect(screen.viewModel.showPermissionDeniedAlert == false)
        #expect(screen.recorder.events.contains(.customPopupDismissed(.permissionGranted)))
        #expect(await screen.queriedLocations == [nil, StartupScreen.sentWarsaw])
    }
}

extension AnimalListViewModel {
    /// Whether the listing on screen came from a query without coordinates.
    fileprivate var listingWasQueriedWithoutLocation: Bool {
        state.listing?.queriedNearLocation == false
    }
}
