import AsyncSupport
import DeviceInterfaces
import DeviceSimulator
import Foundation
import PetSpotDomain
import Testing

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
