import PetSpotDomain
import StartupFeature
import Testing
import TestSupport

/// User story 2: the first-time permission request.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct FirstTimeRequestTests {
    // US2-1, FR-003
    @Test func givenNotDetermined_whenScreenAppears_thenSystemPermissionAlertRequested() async {
        let screen = StartupScreen(status: .notDetermined)

        await screen.appear()

        #expect(screen.locationService.requestAuthorizationCalled)
        #expect(screen.locationService.requestAuthorizationCallCount == 1)
        #expect(screen.recorder.events.contains(.permissionRequested))
        #expect(screen.viewModel.showPermissionDeniedAlert == false)
    }

    // US2-2, FR-002, FR-008
    @Test func givenSystemAlertShown_whenUserAllowsWhileUsingApp_thenLocationFetchedAndQuerySentWithCoordinates() async {
        let screen = StartupScreen(status: .notDetermined)
        screen.locationService.stubbedStatusAfterRequest = .authorizedWhenInUse

        await screen.appear()

        #expect(screen.viewModel.locationPermissionStatus == .authorizedWhenInUse)
        #expect(screen.locationService.requestLocationCallCount == 1)
        #expect(await screen.queriedLocations == [StartupScreen.sentWarsaw])
        #expect(screen.viewModel.animals.count == 4)
    }

    // US2-3, FR-009, FR-007
    @Test func givenSystemAlertShown_whenUserDoesNotAllow_thenQueryWithoutCoordinatesAndNoCustomPopup() async {
        let screen = StartupScreen(status: .notDetermined)
        screen.locationService.stubbedStatusAfterRequest = .denied

        await screen.appear()

        #expect(screen.viewModel.locationPermissionStatus == .denied)
        #expect(screen.locationService.requestLocationCallCount == 0)
        #expect(await screen.queriedLocations == [nil])
        #expect(screen.viewModel.animals.count == 4)
        // The person just answered iOS's own alert; the custom popup does not follow it.
        #expect(screen.viewModel.showPermissionDeniedAlert == false)
        #expect(!screen.recorder.events.contains(.customPopupShown))
    }

    // US2-4, FR-007, SC-001
    @Test func givenDeniedThroughSystemAlert_whenListingDisplayed_thenEveryAnimalBrowsableNewestFirst() async {
        let screen = StartupScreen(status: .notDetermined)
        screen.locationService.stubbedStatusAfterRequest = .denied

        await screen.appear()

        #expect(screen.viewModel.content == .animals(screen.viewModel.animals))
        #expect(screen.viewModel.animals.map(\.id) == ["a4", "a2", "a3", "a1"])
        #expect(screen.viewModel.animals.allSatisfy { $0.distanceKm == nil })
        #expect(screen.recorder.events.contains(.listingShown(count: 4, withLocation: false)))
    }

    // FR-003: the Info.plist key is missing or the answer timed out, so the status stays notDetermined.
    @Test func givenNoAnswerToRequest_whenRequestReturnsNotDetermined_thenQueryWithoutCoordinates() async {
        let screen = StartupScreen(status: .notDetermined)

        await screen.appear()

        #expect(screen.viewModel.locationPermissionStatus == .notDetermined)
        #expect(await screen.queriedLocations == [nil])
        #expect(screen.viewModel.animals.count == 4)
    }
}
