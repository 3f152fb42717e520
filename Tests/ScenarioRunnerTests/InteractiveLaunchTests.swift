import AsyncSupport
import Foundation
import Localization
import PetSpotDomain
import ScenarioRunner
import Testing

/// A run driven one action at a time says what its launch still waits for, and its wait for the
/// launch ends on what the app and the phone did, or at its deadline.
@Suite(.timeLimit(.minutes(1)))
@MainActor
struct InteractiveLaunchTests {
    /// No query reaches a server: the phone's network is down.
    private func run(_ authorization: LocationPermissionStatus) -> ScenarioRun {
        var device = Scenario.Device()
        device.authorization = authorization
        return ScenarioRun.interactive(
            device: device,
            network: Scenario.Network(reachable: false),
            serverURL: URL(string: "http://127.0.0.1:9")!,
            localizer: .english
        )
    }

    @Test func givenAPhoneNotLaunched_whenAskedWhatTheLaunchWaitsFor_thenTheLaunchItself() async {
        let run = run(.notDetermined)

        #expect(run.launchPending == "the app to launch")
        #expect(await run.waitUntilLaunchSettled(orUntil: Deadline(after: .zero, on: VirtualClock())) == false)
    }

    @Test(arguments: [LocationPermissionStatus.notDetermined, .denied, .authorizedWhenInUse])
    func givenAPermission_whenLaunched_thenTheLaunchSettlesWithItsScreenDecided(status: LocationPermissionStatus) async throws {
        let run = run(status)

        try await run.act(.launch)
        let settled = await run.waitUntilLaunchSettled(orUntil: Deadline(after: .seconds(30), on: ContinuousClock()))

        #expect(settled, "\(run.launchPending ?? "")")
        let events = run.eventLog.map(\.event)
        #expect(events.contains("permissionChecked"))
        #expect(events.contains("systemAlertShown") == (status == .notDetermined))
        #expect(events.contains("customPopupShown") == (status == .denied))
        #expect(events.contains(status == .authorizedWhenInUse ? "locationRequested" : "queryStarted"))
    }
}
