import DeviceInterfaces
import DeviceSimulator
import Foundation
import PetSpotDomain
import Testing

/// Rule 30 and rule 31 (docs/requirements.md): iOS 18's live updates with their diagnostics, and
/// service sessions.
@Suite(.timeLimit(.minutes(1))) @MainActor struct SimulatedServiceSessionsTests {
    private static let authorized: (inout DeviceConfiguration) -> Void = {
        $0.iosVersion = 18
        $0.location.authorization = .authorizedWhenInUse
        $0.location.coarseFixDelay = .milliseconds(300)
    }

    // MARK: Rule 30: live updates

    @Test func rule30_givenAuthorizedInForeground_whenLiveUpdatesRead_thenAFixComesAfterTheQuickDelay() async throws {
        let harness = DeviceHarness(Self.authorized)
        _ = try await harness.launched()
        let sessions = try harness.device.serviceSessions()
        var updates = sessions.liveUpdates().makeAsyncIterator()

        await harness.advance(by: .milliseconds(299))
        #expect(harness.liveUpdates.isEmpty)
        await harness.advance(by: .milliseconds(1))

        let update = await updates.next()
        #expect(update?.location?.latitude == DeviceHarness.home.latitude)
        #expect(update?.diagnostics == [])
    }

    @Test(arguments: [
        ("denied", LocationDiagnostic.authorizationDenied),
        ("servicesOff", .authorizationDeniedGlobally),
        ("restricted", .authorizationRestricted),
    ])
    func rule30_givenLocationRefused_whenLiveUpdatesRead_thenItsDiagnosticAtOnceAndNoFix(
        state: String, diagnostic: LocationDiagnostic
    ) async throws {
        let harness = DeviceHarness {
            $0.iosVersion = 18
            switch state {
            case "denied": $0.location.authorization = .denied
            case "servicesOff": $0.location.servicesEnabled = false
            default: $0.location.authorization = .restricted
            }
        }
        _ = try await harness.launched()
        var updates = try harness.device.serviceSessions().liveUpdates().makeAsyncIterator()
        await harness.advance(by: .zero)

        let update = await updates.next()
        #expect(update == LocationUpdate(diagnostics: [diagnostic]))
        #expect(update?.noFixReason == diagnostic)
        await harness.advance(by: .seconds(30))
        #expect(harness.liveUpdates.count == 1)
    }

    @Test func rule30_givenAFixInTheForeground_whenTheAppLeavesAndReturns_thenUpdatesPauseAsInsufficientlyInUseAndResume() async throws {
        let harness = DeviceHarness(Self.authorized)
        _ = try await harness.launched()
        var updates = try harness.device.serviceSessions().liveUpdates().makeAsyncIterator()
        await harness.advance(by: .seconds(1))
        #expect(await updates.next()?.location != nil)

        try harness.device.background()
        await harness.advance(by: .zero)
        #expect(await updates.next() == LocationUpdate(diagnostics: [.insufficientlyInUse]))
        try harness.device.foreground()
        await harness.advance(by: .seconds(1))

        #expect(await updates.next()?.location != nil)
    }

    @Test func rule30_givenPreciseLocationOff_whenAFixComes_thenItIsAccuracyLimitedAndBlurred() async throws {
        let harness = DeviceHarness {
            Self.authorized(&$0)
            $0.location.preciseLocation = false
        }
        _ = try await harness.launched()
        var updates = try harness.device.serviceSessions().liveUpdates().makeAsyncIterator()
        await harness.advance(by: .seconds(1))

        let update = try #require(await updates.next())
        #expect(update.diagnostics == [.accuracyLimited])
        #expect(update.location?.latitude != DeviceHarness.home.latitude)
    }

    @Test func rule30_givenNoSignal_whenLiveUpdatesRead_thenLocationUnavailableAfterTheNoFixTimeoutWhichEndsNothing() async throws {
        let harness = DeviceHarness {
            Self.authorized(&$0)
            $0.location.position = nil
        }
        _ = try await harness.launched()
        var updates = try harness.device.serviceSessions().liveUpdates().makeAsyncIterator()
        await harness.advance(by: .seconds(10))

        let update = await updates.next()
        #expect(update == LocationUpdate(diagnostics: [.locationUnavailable]))
        #expect(update?.noFixReason == nil)
        harness.device.move(to: DeviceHarness.home)
        await harness.advance(by: .seconds(1))
        #expect(await updates.next()?.location != nil)
    }

    // MARK: Rule 31: service sessions

    @Test func rule31_givenNotDeterminedInForeground_whenASessionStarts_thenTheAlertShowsAndItIsAnAuthorizationRequestInProgress() async throws {
        let harness = DeviceHarness { $0.iosVersion = 18 }
        _ = try await harness.launched()
        let session = try harness.device.serviceSessions().startSession(.whenInUse)
        var diagnostics = session.diagnostics.makeAsyncIterator()

        #expect(harness.device.systemAlert?.kind == .locationWhenInUse)
        #expect(await diagnostics.next() == [.authorizationRequestInProgress])
        try harness.device.answerSystemAlert(.allowWhileUsing)
        #expect(await diagnostics.next() == [])
        #expect(harness.device.locationAuthorization == .authorizedWhenInUse)
    }

    @Test func rule31_givenNotDeterminedInBackground_whenASessionStarts_thenNoAlertAndInsufficientlyInUse() async throws {
        let harness = DeviceHarness { $0.iosVersion = 18 }
        _ = try await harness.launched()
        let sessions = try harness.device.serviceSessions()
        try harness.device.background()

        let session = sessions.startSession(.whenInUse)
        var diagnostics = session.diagnostics.makeAsyncIterator()

        #expect(harness.device.systemAlert == nil)
        #expect(await diagnostics.next() == [.insufficientlyInUse])
        #expect(harness.events.contains(.requestIgnored(request: "CLServiceSession(whenInUse)", reason: "the app is not in the foreground")))
    }

    @Test func rule31_givenAHeldSessionWhoseAlertTheBackgroundTookAway_whenTheAppIsActiveAgain_thenItAsksAgainByItself() async throws {
        let harness = DeviceHarness { $0.iosVersion = 18 }
        _ = try await harness.launched()
        let session = try harness.device.serviceSessions().startSession(.whenInUse)
        try harness.device.background()
        #expect(harness.device.systemAlert == nil)

        try harness.device.foreground()

        #expect(harness.device.systemAlert?.kind == .locationWhenInUse)
        session.invalidate()
        try harness.device.answerSystemAlert(.allowWhileUsing)
        try harness.device.background()
        try harness.device.foreground()
        #expect(harness.device.systemAlert == nil)
    }

    @Test func rule31_givenAMotionPromptUp_whenASessionStarts_thenItIsNoLocationRequestInProgress() async throws {
        let harness = DeviceHarness {
            $0.iosVersion = 18
            $0.infoPlistKeys.insert(InfoPlistRequirement.motion.key)
        }
        _ = try await harness.launched()
        let motion = harness.device.motion
        async let query = try await motion.queryActivity(from: Date(timeIntervalSince1970: 0), to: Date(timeIntervalSince1970: 60))
        await motion.prompt.waitUntilShown()

        let session = try harness.device.serviceSessions().startSession(.whenInUse)
        var diagnostics = session.diagnostics.makeAsyncIterator()

        #expect(await diagnostics.next() == [])
        #expect(harness.device.systemAlert?.kind != .locationWhenInUse)
        #expect(motion.prompt.answer(.allow))
        _ = try await query
    }

    @Test func rule31_givenWhileUsing_whenAnAlwaysSessionIsAnsweredKeepOnlyWhileUsing_thenAlwaysAuthorizationDenied() async throws {
        let harness = DeviceHarness {
            Self.authorized(&$0)
            $0.infoPlistKeys.insert(InfoPlistRequirement.locationAlways.key)
        }
        _ = try await harness.launched()
        let session = try harness.device.serviceSessions().startSession(.always)
        var diagnostics = session.diagnostics.makeAsyncIterator()
        #expect(harness.device.systemAlert?.kind == .locationAlwaysUpgrade)
        #expect(await diagnostics.next() == [])

        try harness.device.answerAlwaysUpgrade(.keepOnlyWhileUsing)

        #expect(await diagnostics.next() == [.alwaysAuthorizationDenied])
        #expect(harness.device.locationAuthorization == .authorizedWhenInUse)
    }

    @Test func rule31_givenTheExplicitSessionKey_whenUpdatesAreReadWithoutASession_thenServiceSessionRequiredUntilOneIsHeld() async throws {
        let harness = DeviceHarness {
            Self.authorized(&$0)
            $0.infoPlistKeys.insert("NSLocationRequireExplicitServiceSession")
        }
        _ = try await harness.launched()
        let sessions = try harness.device.serviceSessions()
        var updates = sessions.liveUpdates().makeAsyncIterator()
        await harness.advance(by: .seconds(1))
        #expect(await updates.next() == LocationUpdate(diagnostics: [.serviceSessionRequired]))

        let session = sessions.startSession(.whenInUse)
        await harness.advance(by: .seconds(1))
        #expect(await updates.next()?.location != nil)
        session.invalidate()
        await harness.advance(by: .zero)

        #expect(await updates.next() == LocationUpdate(diagnostics: [.serviceSessionRequired]))
    }

    @Test func rule31_givenNoExplicitSessionKey_whenUpdatesAreReadWithoutASession_thenTheyComeAnyway() async throws {
        let harness = DeviceHarness(Self.authorized)
        _ = try await harness.launched()
        var updates = try harness.device.serviceSessions().liveUpdates().makeAsyncIterator()
        await harness.advance(by: .seconds(1))

        #expect(await updates.next()?.location != nil)
    }

    @Test func rule31_givenIOS17_whenServiceSessionsAreAskedFor_thenTheyDoNotExist() async throws {
        let harness = DeviceHarness { $0.iosVersion = 17 }
        _ = try await harness.launched()

        #expect(throws: SimulatedDeviceError.requiresIOS18(running: 17)) { try harness.device.serviceSessions() }
    }

    @Test func rule31_givenASessionAndLiveUpdates_whenTheAppEnds_thenBothFinishWithoutAWord() async throws {
        let harness = DeviceHarness(Self.authorized)
        _ = try await harness.launched()
        let sessions = try harness.device.serviceSessions()
        let session = sessions.startSession(.whenInUse)
        let updates = sessions.liveUpdates()

        try harness.device.terminate()

        for await _ in session.diagnostics {}
        for await _ in updates {}
        #expect(!harness.events.contains { if case .serviceSessionInvalidated = $0 { true } else { false } })
        #expect(harness.liveUpdates.isEmpty)
    }
}

extension DeviceHarness {
    /// The live updates handed to the app so far.
    var liveUpdates: [LocationUpdate] {
        device.log.compactMap { if case .liveUpdate(_, let update) = $0.event { update } else { nil } }
    }
}
