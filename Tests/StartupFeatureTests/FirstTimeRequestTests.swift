import DeviceInterfaces
import PetSpotDomain
import StartupFeature
import Testing
import TestSupport

/// US2: the first-time permission request.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct FirstTimeRequestTests {
    // US2-1, FR-003, FR-007, SC-001: iOS's alert is requested and the query without coordinates
    // starts with it, not after the answer.
    @Test func givenNotDetermined_whenScreenAppears_thenSystemAlertRequestedAndQueryWithoutCoordinatesStartsWithIt() async throws {
        let screen = StartupScreen(status: .notDetermined)

        await screen.appear()

        #expect(screen.location.authorizationRequestCount > 0)
        #expect(screen.location.authorizationRequestCount == 1)
        #expect(screen.viewModel.showPermissionDeniedAlert == false)
        let requested = try #require(screen.recorder.events.firstIndex(of: .permissionRequested))
        #expect(screen.recorder.events[requested + 1] == .queryStarted(near: nil))
    }

    // US2-2, FR-002, FR-008
    @Test func givenSystemAlertShown_whenUserAllowsWhileUsingApp_thenLocationFetchedAndQuerySentWithCoordinates() async {
        let screen = StartupScreen(status: .notDetermined)
        screen.location.answer = .authorizedWhenInUse

        await screen.appear()

        #expect(screen.viewModel.locationPermissionStatus == .authorizedWhenInUse)
        #expect(screen.location.locationRequestCount == 1)
        // The query behind the alert, then the nearby one; never at the same time.
        #expect(await screen.queriedLocations == [nil, StartupScreen.sentWarsaw])
        #expect(await screen.repository.maximumConcurrentQueries == 1)
        #expect(screen.recorder.events.last == .listingShown(count: 4, withLocation: true))
    }

    // US2-3, FR-009, FR-007
    @Test func givenSystemAlertShown_whenUserDoesNotAllow_thenQueryWithoutCoordinatesAndNoCustomPopup() async {
        let screen = StartupScreen(status: .notDetermined)
        screen.location.answer = .denied

        await screen.appear()

        #expect(screen.viewModel.locationPermissionStatus == .denied)
        #expect(screen.location.locationRequestCount == 0)
        #expect(await screen.queriedLocations == [nil])
        #expect(screen.viewModel.animals.count == 4)
        // The person just answered iOS's own alert; the custom popup does not follow it.
        #expect(screen.viewModel.showPermissionDeniedAlert == false)
        #expect(screen.recorder.popupsShown.isEmpty)
    }

    // US2-4, FR-007, SC-001
    @Test func givenDeniedThroughSystemAlert_whenListingDisplayed_thenEveryAnimalBrowsableNewestFirst() async {
        let screen = StartupScreen(status: .notDetermined)
        screen.location.answer = .denied

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
        #expect(screen.location.locationRequestCount == 0)
        #expect(screen.recorder.popupsShown.isEmpty)
    }

    // FR-015, FR-011: the request returned without an answer and the person allows later, while the
    // query behind the alert still runs: it completes, then the location is fetched and the listing
    // refreshed nearby.
    @Test func givenQueryBehindAlertHeld_whenPersonAllowsAfterTheWaitEnded_thenLocatedOnlyAfterQueryCompletes() async throws {
        let screen = StartupScreen(status: .notDetermined)
        await screen.repository.holdFetches()
        screen.viewModel.onAppear()
        await screen.repository.waitForHeldFetch()

        screen.location.send(.authorizationChanged(.authorizedWhenInUse, .fullAccuracy))
        await screen.recorder.waitFor(.permissionChangeDeferred(.authorizedWhenInUse))
        #expect(screen.location.locationRequestCount == 0)

        await screen.repository.releaseHeldFetches()
        await screen.viewModel.waitUntilIdle()

        #expect(await screen.queriedLocations == [nil, StartupScreen.sentWarsaw])
        #expect(await screen.repository.maximumConcurrentQueries == 1)
        #expect(screen.location.locationRequestCount == 1)
        #expect(screen.recorder.count(of: .permissionAnswered(.authorizedWhenInUse)) == 1)
        let finished = try #require(screen.recorder.events.firstIndex(of: .queryFinished(count: 4)))
        let located = try #require(screen.recorder.events.firstIndex(of: .locationRequested))
        #expect(finished < located)
    }

    // FR-003: iOS's alert can outlive the bounded wait; "Don't Allow" tapped after it is still the
    // answer to the alert, so the custom popup does not follow.
    @Test func givenRequestReturnedWithoutAnswer_whenPersonDoesNotAllowLater_thenNoCustomPopupAndNoNewQuery() async {
        let screen = StartupScreen(status: .notDetermined)
        await screen.appear()

        screen.location.send(.authorizationChanged(.denied, .fullAccuracy))
        await screen.recorder.waitFor(.permissionAnswered(.denied))
        await screen.viewModel.waitUntilIdle()

        #expect(screen.viewModel.locationPermissionStatus == .denied)
        #expect(screen.viewModel.showPermissionDeniedAlert == false)
        #expect(await screen.queriedLocations == [nil])
    }
}
