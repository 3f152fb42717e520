import AsyncSupport
import DeviceSimulator
import PetSpotDomain
import StartupFeature
import Testing
import TestSupport

/// The location scenarios again, through the real `LocationService` over the simulated iPhone.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct SimulatedDeviceStartupTests {
    /// The location the screen obtained, as it left the device.
    func sent(_ screen: SimulatedStartupScreen) -> UserLocation? {
        screen.viewModel.currentLocation?.rounded(toDecimals: 2)
    }

    // US1-1, US1-3, FR-002, FR-008, FR-012
    @Test func givenWhenInUseOnDevice_whenScreenAppearsAndGPSAnswers_thenListingQueriedWithCoordinates() async throws {
        let screen = try await SimulatedStartupScreen(.init(authorization: .authorizedWhenInUse, position: SimulatedStartupScreen.home))

        screen.appear()
        await screen.gpsAnswers()

        let location = try #require(screen.viewModel.currentLocation)
        #expect(abs(location.latitude - 52.2297) < 0.01 && abs(location.longitude - 21.0122) < 0.01)
        #expect(await screen.repository.queriedLocations == [sent(screen)])
        #expect(screen.viewModel.animals.first?.id == "a1")
    }

    // US1-2, FR-002
    @Test func givenAlwaysOnDevice_whenScreenAppearsAndGPSAnswers_thenListingQueriedWithCoordinates() async throws {
        let screen = try await SimulatedStartupScreen(.init(authorization: .authorizedAlways, position: SimulatedStartupScreen.home))

        screen.appear()
        await screen.gpsAnswers()

        #expect(screen.viewModel.currentLocation != nil)
        #expect(await screen.repository.queriedLocations == [sent(screen)])
    }

    // US1-4, FR-014; edge cases: weak or no GPS signal, fetch timeout.
    @Test func givenNoGPSFixCanBeHad_whenScreenAppears_thenQueryWithoutCoordinatesAfterTimeout() async throws {
        let screen = try await SimulatedStartupScreen(.init(authorization: .authorizedWhenInUse, position: nil))

        screen.appear()
        await screen.gpsAnswers(after: .seconds(10))

        #expect(screen.recorder.events.contains(.locationUnavailable))
        #expect(await screen.repository.queriedLocations == [nil])
        #expect(screen.viewModel.animals.count == 4)
    }

    // US2-1, US2-2, FR-003, FR-007: the listing without location behind the alert, then the nearby one.
    @Test func givenFreshInstall_whenUserAllowsWhileUsingInSystemAlert_thenLocationFetchedAndQueried() async throws {
        let screen = try await SimulatedStartupScreen(.init(authorization: .notDetermined, position: SimulatedStartupScreen.home))

        screen.appear()
        try await screen.answerAlert(.allowWhileUsing)
        await screen.gpsAnswers()

        #expect(screen.viewModel.locationPermissionStatus == .authorizedWhenInUse)
        #expect(screen.viewModel.currentLocation != nil)
        #expect(await screen.repository.queriedLocations == [nil, sent(screen)])
        #expect(screen.viewModel.showPermissionDeniedAlert == false)
    }

    // US2-1, FR-003, SC-001: the listing without location shows while iOS's alert is still up.
    @Test func givenFreshInstall_whenScreenAppears_thenListingWithoutLocationShownBeforeAnyAnswer() async throws {
        let screen = try await SimulatedStartupScreen(.init(authorization: .notDetermined, position: SimulatedStartupScreen.home))

        screen.appear()
        await screen.recorder.waitFor(.listingShown(count: 4, withLocation: false))
        await screen.waitForDevice { if case .systemAlertShown = $0 { true } else { false } }

        #expect(!screen.recorder.events.contains { if case .permissionAnswered = $0 { true } else { false } })
        #expect(await screen.repository.queriedLocations == [nil])
    }

    // US2-2, FR-011: "Allow" after the listing behind the alert is shown (the stream's change first, as
    // iOS delivers it): one location request, one nearby query, the answer logged once.
    @Test func givenListingBehindAlertShown_whenUserAllows_thenOneLocationRequestAndListingRefreshedNearby() async throws {
        let screen = try await SimulatedStartupScreen(.init(authorization: .notDetermined, position: SimulatedStartupScreen.home))
        screen.appear()
        await screen.recorder.waitFor(.listingShown(count: 4, withLocation: false))

        try await screen.answerAlert(.allowWhileUsing)
        await screen.gpsAnswers()

        #expect(await screen.repository.queriedLocations == [nil, sent(screen)])
        #expect(screen.recorder.count(of: .locationRequested) == 1)
        #expect(screen.recorder.count(of: .permissionAnswered(.authorizedWhenInUse)) == 1)
        #expect(screen.recorder.events.last == .listingShown(count: 4, withLocation: true))
        #expect(screen.recorder.popupsShown.isEmpty)
    }

    // US2-2, FR-015: "Allow" while the query behind the alert still runs: it completes first, then the
    // location is requested and the nearby query sent; never two queries at once.
    @Test func givenQueryBehindAlertRunning_whenUserAllows_thenLocatedOnlyAfterQueryCompletes() async throws {
        let screen = try await SimulatedStartupScreen(.init(authorization: .notDetermined, position: SimulatedStartupScreen.home))
        await screen.repository.holdFetches()
        screen.appear()
        await screen.repository.waitForHeldFetch()

        try await screen.answerAlert(.allowWhileUsing)
        await screen.recorder.waitFor(.permissionChangeDeferred(.authorizedWhenInUse))
        #expect(!screen.recorder.events.contains(.locationRequested))

        await screen.repository.releaseHeldFetches()
        await screen.gpsAnswers()

        #expect(await screen.repository.queriedLocations == [nil, sent(screen)])
        #expect(await screen.repository.maximumConcurrentQueries == 1)
        #expect(screen.recorder.count(of: .locationRequested) == 1)
        let finished = try #require(screen.recorder.events.firstIndex(of: .queryFinished(count: 4)))
        let located = try #require(screen.recorder.events.firstIndex(of: .locationRequested))
        #expect(finished < located)
    }

    // US2-3, FR-009: "Don't Allow" while the query behind the alert still runs: nothing more, no popup.
    @Test func givenQueryBehindAlertRunning_whenUserDoesNotAllow_thenSameQueryCompletesAndNoCustomPopup() async throws {
        let screen = try await SimulatedStartupScreen(.init(authorization: .notDetermined, position: SimulatedStartupScreen.home))
        await screen.repository.holdFetches()
        screen.appear()
        await screen.repository.waitForHeldFetch()

        try await screen.answerAlert(.dontAllow)
        await screen.recorder.waitFor(.permissionAnswered(.denied))
        await screen.repository.releaseHeldFetches()
        await screen.viewModel.waitUntilIdle()

        #expect(await screen.repository.queriedLocations == [nil])
        #expect(screen.recorder.popupsShown.isEmpty)
        #expect(!screen.recorder.events.contains(.locationRequested))
        #expect(screen.viewModel.animals.count == 4)
    }

    // Edge case: Info.plist lacks the key, iOS shows nothing; FR-003, SC-001: the listing comes at once,
    // and the end of the bounded wait adds nothing.
    @Test func givenMissingInfoPlistKey_whenScreenAppears_thenListingAtOnceAndNothingAfterTheWaitEnds() async throws {
        let screen = try await SimulatedStartupScreen(
            .init(authorization: .notDetermined, position: SimulatedStartupScreen.home), infoPlistKeys: [])

        screen.appear()
        await screen.recorder.waitFor(.listingShown(count: 4, withLocation: false))
        await screen.waitForDevice { if case .requestIgnored = $0 { true } else { false } }
        screen.clock.advance(by: .seconds(30))
        screen.device.runDueWork()
        await screen.viewModel.waitUntilIdle()

        #expect(screen.recorder.count(of: .permissionAnswered(.notDetermined)) == 1)
        #expect(await screen.repository.queriedLocations == [nil])
        #expect(!screen.recorder.events.contains(.locationRequested))
        #expect(screen.recorder.popupsShown.isEmpty)
        #expect(!screen.device.log.contains { if case .systemAlertShown = $0.event { true } else { false } })
    }

    // US2-3, US2-4, FR-009
    @Test func givenFreshInstall_whenUserDoesNotAllowInSystemAlert_thenQueryWithoutCoordinatesAndNoCustomPopup() async throws {
        let screen = try await SimulatedStartupScreen(.init(authorization: .notDetermined, position: SimulatedStartupScreen.home))

        screen.appear()
        try await screen.answerAlert(.dontAllow)
        await screen.viewModel.waitUntilIdle()

        #expect(screen.viewModel.locationPermissionStatus == .denied)
        #expect(await screen.repository.queriedLocations == [nil])
        #expect(screen.viewModel.animals.count == 4)
        #expect(screen.viewModel.showPermissionDeniedAlert == false)
    }

    // Edge case: Location Services off for the whole device; FR-004, FR-009.
    @Test func givenLocationServicesOff_whenScreenAppears_thenPopupAndQueryWithoutCoordinates() async throws {
        let screen = try await SimulatedStartupScreen(
            .init(authorization: .authorizedWhenInUse, servicesEnabled: false, position: SimulatedStartupScreen.home))

        screen.appear()
        await screen.viewModel.waitUntilIdle()

        #expect(screen.viewModel.locationPermissionStatus == .denied)
        #expect(screen.viewModel.showPermissionDeniedAlert)
        #expect(await screen.repository.queriedLocations == [nil])
    }

    // US3-3, US4-2, FR-005, FR-011: Go to Settings, enable, return; the listing is refetched near the person.
    @Test func givenDeniedOnDevice_whenUserEnablesLocationInSettingsAndReturns_thenQueryWithCoordinates() async throws {
        let screen = try await SimulatedStartupScreen(.init(authorization: .denied, position: SimulatedStartupScreen.home))
        screen.appear()
        await screen.viewModel.waitUntilIdle()

        screen.viewModel.openSettings()
        try screen.device.setLocationAuthorization(.whileUsing)
        try screen.device.foreground()
        await screen.gpsAnswers()

        #expect(screen.device.log.contains { $0.event == .settingsOpened })
        #expect(screen.viewModel.locationPermissionStatus == .authorizedWhenInUse)
        #expect(await screen.repository.queriedLocations == [nil, sent(screen)])
        #expect(screen.recorder.popupsShown == [.denied])
    }

    // US4-1, US4-3, US4-4, FR-010: revoked in Settings: fallback, and the next query has no coordinates.
    @Test func givenListingNearPerson_whenUserRevokesInSettingsAndRetries_thenNextQueryWithoutCoordinates() async throws {
        let screen = try await SimulatedStartupScreen(.init(authorization: .authorizedWhenInUse, position: SimulatedStartupScreen.home))
        screen.appear()
        await screen.gpsAnswers()
        let first = sent(screen)

        try screen.device.background()
        try screen.device.setLocationAuthorization(.never)
        try screen.device.foreground()  // the return re-checks the status
        await screen.viewModel.waitUntilIdle()
        await screen.viewModel.loadAnimals()

        #expect(first != nil)
        #expect(screen.viewModel.locationPermissionStatus == .denied)
        #expect(screen.viewModel.currentLocation == nil)
        #expect(await screen.repository.queriedLocations == [first, nil])
    }
}
