import PetSpotDomain
import StartupFeature
import Testing
import TestSupport

/// US3: the recovery path for denied or restricted permission.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct DeniedRecoveryTests {
    // US3-1, FR-004; departure 5: the query without coordinates starts at once, behind the popup.
    @Test func givenPreviouslyDenied_whenScreenAppears_thenCustomPopupShownAndQueryRunsBehindIt() async {
        let screen = StartupScreen(status: .denied)

        await screen.appear()

        #expect(screen.viewModel.showPermissionDeniedAlert)
        #expect(screen.location.authorizationRequestCount == 0)
        #expect(await screen.queriedLocations == [nil])
        #expect(screen.viewModel.animals.count == 4)
        #expect(screen.recorder.events == [
            .screenAppeared, .permissionChecked(.denied), .customPopupShown(reason: .denied), .queryStarted(near: nil),
            .queryFinished(count: 4), .listingShown(count: 4, withLocation: false),
        ])
    }

    // US3-2, FR-004
    @Test func givenRestricted_whenScreenAppears_thenCustomPopupShownAndQueryRunsBehindIt() async {
        let screen = StartupScreen(status: .restricted)

        await screen.appear()

        #expect(screen.viewModel.showPermissionDeniedAlert)
        #expect(await screen.queriedLocations == [nil])
        #expect(screen.viewModel.animals.count == 4)
    }

    // US3-3, FR-005
    @Test func givenCustomPopupShown_whenUserTapsGoToSettings_thenSettingsOpenedForThisApp() async {
        let screen = StartupScreen(status: .denied)
        await screen.appear()

        screen.viewModel.openSettings()

        #expect(screen.settingsOpenCount == 1)
        #expect(screen.viewModel.showPermissionDeniedAlert == false)
        #expect(screen.recorder.events.suffix(2) == [.customPopupDismissed(.goToSettings), .settingsOpened])
    }

    // US3-4, FR-006, FR-009
    @Test func givenCustomPopupShown_whenUserTapsCancel_thenPopupClosesAndListingIsFromQueryWithoutCoordinates() async {
        let screen = StartupScreen(status: .denied)
        await screen.repository.holdFetches()
        screen.viewModel.onAppear()
        await screen.repository.waitForHeldFetch()

        screen.viewModel.continueWithoutLocation()
        await screen.repository.releaseHeldFetches()
        await screen.viewModel.waitUntilIdle()

        #expect(screen.viewModel.showPermissionDeniedAlert == false)
        #expect(screen.settingsOpenCount == 0)
        #expect(await screen.queriedLocations == [nil])
        #expect(screen.viewModel.animals.count == 4)
    }

    // US3-5, FR-007
    @Test func givenPopupDismissedWithCancel_whenListingLoads_thenEveryAnimalBrowsableWithoutLocationFilter() async {
        let screen = StartupScreen(status: .denied)
        await screen.appear()

        screen.viewModel.continueWithoutLocation()

        #expect(screen.viewModel.content == .animals(screen.viewModel.animals))
        #expect(screen.viewModel.animals.map(\.id) == ["a4", "a2", "a3", "a1"])
        #expect(screen.recorder.events.last == .customPopupDismissed(.cancel))
    }

    // FR-013: not on every appearance, and not after a return from the background.
    @Test func givenPopupShownThisSession_whenScreenReappearsAndAppReturnsFromBackground_thenPopupNotShownAgain() async {
        let screen = StartupScreen(status: .denied)
        await screen.appear()
        screen.viewModel.continueWithoutLocation()

        await screen.appear()
        await screen.returnFromBackground()

        #expect(screen.viewModel.showPermissionDeniedAlert == false)
        #expect(screen.recorder.popupsShown == [.denied])
        #expect(await screen.repository.queryCount == 1)
    }

    // FR-013: a new launch is a new session.
    @Test func givenPopupShownInPreviousLaunch_whenAppLaunchesAgainStillDenied_thenPopupShownOnceMore() async {
        let first = StartupScreen(status: .denied)
        await first.appear()
        first.viewModel.continueWithoutLocation()

        let second = first.relaunched()
        await second.appear()

        #expect(second.viewModel.showPermissionDeniedAlert)
        #expect(second.recorder.popupsShown == [.denied])
    }
}
