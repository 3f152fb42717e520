import AsyncSupport
import DeviceInterfaces
import DeviceSimulator
import Foundation
import PetSpotDomain
import Testing
import TestSupport

@testable import LocationBridge

/// The service on iOS 18 and later: it asks through service sessions and live updates (rule 30,
/// rule 31), on a simulated iPhone and a test clock; its callers see the same answers as on iOS 17.
@Suite(.timeLimit(.minutes(1))) @MainActor struct LocationServiceSessionTests {
    @Test func givenSessions_whenAFixComes_thenItIsReturnedAndTheSessionAndUpdatesEnd() async throws {
        let app = try SessionHarness { $0.location.authorization = .authorizedWhenInUse }

        async let location = app.service.requestLocation()
        await app.logged { if case .liveUpdatesStarted = $0 { true } else { false } }
        app.clock.advance(by: .milliseconds(300))
        app.device.runDueWork()

        #expect(await location?.latitude == SessionHarness.home.latitude)
        await app.logged { if case .liveUpdatesStopped = $0 { true } else { false } }
        #expect(app.sessionEvents == ["started #1 whenInUse", "invalidated #1"])
        #expect(app.device.log.contains { if case .locationRequestStarted = $0.event { true } else { false } } == false)
    }

    @Test func givenSessionsAndAFixWait_whenTheAppLeaves_thenNilAtOnceInsteadOfAtTheTimeout() async throws {
        let app = try SessionHarness {
            $0.location.authorization = .authorizedWhenInUse
            $0.location.coarseFixDelay = .seconds(4)
        }

        async let location = app.service.requestLocation()
        await app.logged { if case .liveUpdatesStarted = $0 { true } else { false } }
        app.clock.advance(by: .seconds(1))
        try app.device.background()

        #expect(await location == nil)
        #expect(app.clock.now.offset == .seconds(1))
        #expect(app.device.log.contains { if case .liveUpdate(_, let update) = $0.event { update.noFixReason == .insufficientlyInUse } else { false } })
    }

    @Test func givenSessionsAndNoSignal_whenWaitingForAFix_thenTheFiveSecondBoundStillEndsIt() async throws {
        let app = try SessionHarness {
            $0.location.authorization = .authorizedWhenInUse
            $0.location.position = nil
        }

        async let location = app.service.requestLocation()
        await app.logged { if case .liveUpdatesStarted = $0 { true } else { false } }
        await waitUntil { await app.service.locationWaiterCount == 1 }
        app.clock.advance(by: .seconds(5))

        #expect(await location == nil)
        await app.logged { if case .serviceSessionInvalidated = $0 { true } else { false } }
        #expect(app.device.log.allSatisfy { if case .liveUpdate = $0.event { false } else { true } })
    }

    @Test func givenSessionsAndNotDetermined_whenAuthorizationIsRequested_thenTheSessionAsksAndEndsWithTheAnswer() async throws {
        let app = try SessionHarness()

        async let status = app.service.requestWhenInUseAuthorization()
        await app.logged { if case .systemAlertShown = $0 { true } else { false } }
        try app.device.answerSystemAlert(.allowWhileUsing)

        #expect(await status == .authorizedWhenInUse)
        await app.logged { if case .serviceSessionInvalidated = $0 { true } else { false } }
        #expect(app.sessionEvents == ["started #1 whenInUse", "invalidated #1"])
        #expect(app.device.log.allSatisfy { if case .requestIgnored = $0.event { false } else { true } })
    }

    @Test func givenSessionsAndWhileUsing_whenAlwaysIsKeptOnlyWhileUsing_thenTheAlwaysSessionEnds() async throws {
        let app = try SessionHarness {
            $0.location.authorization = .authorizedWhenInUse
            $0.infoPlistKeys.insert(InfoPlistRequirement.locationAlways.key)
        }

        async let answer = app.service.requestAlwaysAuthorization()
        await app.logged { if case .systemAlertShown = $0 { true } else { false } }
        await app.service.applicationWillResignActive()
        try app.device.answerAlwaysUpgrade(.keepOnlyWhileUsing)
        await app.service.applicationDidBecomeActive()
        await waitUntil { await app.service.authorizationWaiterCount == 1 }
        app.clock.advance(by: .seconds(1))

        #expect(await answer == AuthorizationAnswer(status: .authorizedWhenInUse, promptAppeared: true))
        await app.logged { if case .serviceSessionInvalidated = $0 { true } else { false } }
        #expect(app.sessionEvents == ["started #1 always", "invalidated #1"])
    }

    @Test func givenSessionsAndAnAlertNobodyAnswers_whenTheWaitTimesOut_thenTheSessionEndsAndDoesNotAskAgainLater() async throws {
        let app = try SessionHarness()

        async let status = app.service.requestWhenInUseAuthorization()
        await app.logged { if case .systemAlertShown = $0 { true } else { false } }
        await waitUntil { await app.service.authorizationWaiterCount == 1 }
        app.clock.advance(by: .seconds(30))

        #expect(await status == .notDetermined)
        await app.logged { if case .serviceSessionInvalidated = $0 { true } else { false } }
        try app.device.background()
        try app.device.foreground()
        #expect(app.alertsShown == 1)
    }

    @Test func givenSessionsAndAFixWait_whenLocationIsRestricted_thenNilAndTheSessionAndUpdatesEnd() async throws {
        let app = try SessionHarness {
            $0.location.authorization = .authorizedWhenInUse
            $0.location.coarseFixDelay = .seconds(4)
        }
        _ = await app.service.authorizationStatus

        async let location = app.service.requestLocation()
        await app.logged { if case .liveUpdatesStarted = $0 { true } else { false } }
        app.device.setLocationRestricted(true)

        #expect(await location == nil)
        await app.logged { if case .liveUpdatesStopped = $0 { true } else { false } }
        #expect(app.sessionEvents == ["started #1 whenInUse", "invalidated #1"])
    }
}

/// The service over a simulated iPhone's manager and service sessions, on a test clock.
@MainActor
private struct SessionHarness {
    static let home: GeoCoordinate = {
        guard let home = try? GeoCoordinate(latitude: 52.2297, longitude: 21.0122) else {
            preconditionFailure("a valid test coordinate")
        }
        return home
    }()

    let clock = VirtualClock()
    let device: SimulatedDevice
    let service: LocationService

    init(_ configure: (inout DeviceConfiguration) -> Void = { _ in }) throws {
        var configuration = DeviceConfiguration(
            infoPlistKeys: [InfoPlistRequirement.locationWhenInUse.key, "NSLocationRequireExplicitServiceSession"],
            iosVersion: 18,
            location: DeviceConfiguration.Location(position: Self.home)
        )
        configure(&configuration)
        device = SimulatedDevice(configuration: configuration, clock: clock)
        let manager = try device.launch()
        let epoch = configuration.epoch
        let clock = clock
        service = LocationService(
            manager: manager,
            sessions: try device.serviceSessions(),
            clock: clock,
            now: { epoch.addingTimeInterval(clock.now.offset.timeInterval) }
        )
    }

    /// Returns once the device has logged an event that `matches`; no time involved.
    func logged(_ matches: (DeviceEvent) -> Bool) async {
        if device.log.contains(where: { matches($0.event) }) { return }
        for await entry in device.logEntries() where matches(entry.event) { return }
    }

    /// How many times iOS showed an alert.
    var alertsShown: Int {
        device.log.count { if case .systemAlertShown = $0.event { true } else { false } }
    }

    /// The sessions' starts and ends, in order.
    var sessionEvents: [String] {
        device.log.compactMap {
            switch $0.event {
            case .serviceSessionStarted(let id, let goal): "started #\(id) \(goal.rawValue)"
            case .serviceSessionInvalidated(let id): "invalidated #\(id)"
            default: nil
            }
        }
    }
}

/// Service sessions that say nothing: live updates never come, sessions report nothing. What the
/// service does is then all its own.
@MainActor
private final class SilentSessions: LocationServiceSessions {
    final class Session: LocationServiceSession {
        nonisolated let diagnostics: AsyncStream<Set<LocationDiagnostic>>
        private let sink: AsyncStream<Set<LocationDiagnostic>>.Continuation
        let authorization: ServiceSessionAuthorization
        private(set) var isValid = true

        init(_ authorization: ServiceSessionAuthorization) {
            self.authorization = authorization
            (diagnostics, sink) = AsyncStream<Set<LocationDiagnostic>>.makeStream()
        }

        func invalidate() {
            isValid = false
            sink.finish()
        }
    }

    private(set) var sessions: [Session] = []
    private(set) var liveStreams: [AsyncStream<LocationUpdate>.Continuation] = []
    /// How many live-update streams their reader has dropped.
    private(set) var streamsDropped = 0

    func startSession(_ authorization: ServiceSessionAuthorization) -> any LocationServiceSession {
        let session = Session(authorization)
        sessions.append(session)
        return session
    }

    func liveUpdates() -> AsyncStream<LocationUpdate> {
        let (stream, continuation) = AsyncStream<LocationUpdate>.makeStream()
        continuation.onTermination = { [weak self] _ in Task { @MainActor in self?.streamsDropped += 1 } }
        liveStreams.append(continuation)
        return stream
    }

    /// Whether every session made so far has ended.
    var allEnded: Bool { sessions.allSatisfy { !$0.isValid } }
}

/// The service over a scripted manager and silent sessions.
@Suite(.timeLimit(.minutes(1))) @MainActor struct LocationServiceSilentSessionTests {
    @Test func givenAFixWaitThroughSessions_whenTheManagerReportsDenied_thenTheSessionAndItsUpdatesEnd() async {
        let manager = FakeLocationManager(status: .authorizedWhenInUse)
        let sessions = SilentSessions()
        let service = LocationService(manager: manager, sessions: sessions, clock: VirtualClock())

        async let location = service.requestLocation()
        await waitUntil { sessions.liveStreams.count == 1 }
        manager.authorizationStatus = .denied
        manager.send(.authorizationChanged(.denied, .fullAccuracy))

        #expect(await location == nil)
        await waitUntil { sessions.allEnded && sessions.streamsDropped == 1 }
        #expect(sessions.sessions.map(\.authorization) == [.whenInUse])
    }

    @Test func givenAFixWaitThroughSessions_whenAnOutcomeOfAnEarlierRequestArrives_thenTheWaitGoesOnUntilItsOwn() async throws {
        let manager = FakeLocationManager(status: .authorizedWhenInUse)
        let sessions = SilentSessions()
        let service = LocationService(manager: manager, sessions: sessions, clock: VirtualClock())

        async let location = service.requestLocation()
        await waitUntil { await service.locationWaiterCount == 1 }
        let request = try #require(await service.locationRequest)
        await service.handle(.init(request: request - 1, event: .fixUnavailable(.insufficientlyInUse)))
        #expect(await service.locationWaiterCount == 1)
        await service.handle(.init(request: request, event: .fixUnavailable(.insufficientlyInUse)))

        #expect(await location == nil)
        #expect(await service.locationRequest == nil)
    }

    @Test func givenAnAlertUpThroughASession_whenTheAppLeaves_thenTheSessionEndsWithTheWait() async {
        let manager = FakeLocationManager(status: .notDetermined)
        let sessions = SilentSessions()
        let service = LocationService(manager: manager, sessions: sessions, clock: VirtualClock())

        async let status = service.requestWhenInUseAuthorization()
        await waitUntil { sessions.sessions.count == 1 }
        await service.applicationWillResignActive()
        await service.applicationDidEnterBackground()

        #expect(await status == .notDetermined)
        await waitUntil { sessions.allEnded }
    }

    @Test func givenAnAuthorizationWaitThroughASession_whenItsOnlyCallerIsCancelled_thenTheSessionEnds() async {
        let manager = FakeLocationManager(status: .notDetermined)
        let sessions = SilentSessions()
        let service = LocationService(manager: manager, sessions: sessions, clock: VirtualClock())

        await withTaskGroup(of: LocationPermissionStatus.self) { group in
            group.addTask { await service.requestWhenInUseAuthorization() }
            await waitUntil { sessions.sessions.count == 1 }
            group.cancelAll()
            #expect(await group.next() == .notDetermined)
        }
        await waitUntil { sessions.allEnded }
    }
}
