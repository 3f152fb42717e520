import PetSpotDomain
import StartupFeature
import Testing
import TestSupport

/// US1: location-aware content for users who already granted permission.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct AuthorizedUserTests {
    // US1-1, FR-001, FR-002, FR-008
    @Test func givenWhenInUseGranted_whenScreenAppears_thenLocationFetchedAndQuerySentWithCoordinates() async {
        let screen = StartupScreen(status: .authorizedWhenInUse)

        await screen.appear()

        #expect(screen.recorder.events.contains(.permissionChecked(.authorizedWhenInUse)))
        #expect(screen.location.locationRequestCount == 1)
        #expect(screen.location.authorizationRequestCount == 0)
        #expect(await screen.queriedLocations == [StartupScreen.sentWarsaw])
    }

    // US1-2, FR-002, FR-008
    @Test func givenAlwaysGranted_whenScreenAppears_thenLocationFetchedAndQuerySentWithCoordinates() async {
        let screen = StartupScreen(status: .authorizedAlways)

        await screen.appear()

        #expect(screen.location.locationRequestCount == 1)
        #expect(await screen.queriedLocations == [StartupScreen.sentWarsaw])
    }

    // US1-3, FR-012
    @Test func givenLocationFetchSucceeds_whenCoordinatesObtained_thenListingDisplayedNearestFirst() async {
        let screen = StartupScreen(status: .authorizedWhenInUse)

        await screen.appear()

        #expect(screen.viewModel.currentLocation == Fixtures.warsaw)
        #expect(screen.viewModel.animals.map(\.id) == ["a1", "a2", "a3", "a4"])
        #expect(screen.viewModel.animals.allSatisfy { $0.distanceKm != nil })
        #expect(screen.viewModel.isLoading == false)
        #expect(screen.viewModel.errorMessage == nil)
        #expect(screen.recorder.events.contains(.listingShown(count: 4, withLocation: true)))
    }

    // US1-4, FR-014, FR-009
    @Test func givenPermissionGranted_whenLocationFetchFails_thenQueryWithoutCoordinatesAndListingDisplayed() async {
        let screen = StartupScreen(status: .authorizedWhenInUse, location: nil)

        await screen.appear()

        #expect(screen.recorder.events.contains(.locationUnavailable))
        #expect(await screen.queriedLocations == [nil])
        #expect(screen.viewModel.currentLocation == nil)
        #expect(screen.viewModel.animals.count == 4)
        #expect(screen.recorder.events.contains(.listingShown(count: 4, withLocation: false)))
        #expect(screen.viewModel.showPermissionDeniedAlert == false)
    }
}
