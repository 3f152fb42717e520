import AsyncSupport
import AppFeature
import ConcurrencyExtras
import DeviceInterfaces
import DeviceSimulator
import Foundation
import LocationBridge
import Logging
import Permissions
import PetSpotDomain
import StartupFeature
import Testing
import TestSupport

/// The app-wide permission state: one permission manager and the startup screen on one location
/// bridge, every change an event and a `permissions` log line.
@MainActor
@Suite(.timeLimit(.minutes(1))) struct AppModelTests {
    @Test func givenFirstLaunch_whenTheStartupScreensRequestIsAllowed_thenTheAppWideStateSeesItAndLogsIt() async {
        let harness = AppHarness(location: .notDetermined)
        harness.app.launch()
        await harness.location.waitForCalls(1)
        #expect(harness.location.calls == [.requestWhenInUseAuthorization])

        harness.location.send(.authorizationChanged(.authorizedWhenInUse, .fullAccuracy))
        await harness.events.wait(for: .permissionStateChanged(.location, .authorized))

        #expect(harness.app.state(for: .location) == .authorized)
        #expect(harness.logs.messages.contains("location permission is now authorized"))
        #expect(harness.logs.messages.contains("location status is now authorizedWhenInUse"))
        #expect(harness.logs.labels == ["permissions"])
    }

    @Test func givenThePermissionsScreen_whenOpenedAndDoneTapped_thenItClosesAndBothAreEvents() {
        let harness = AppHarness(location: .authorizedWhenInUse)

        harness.app.openPermissions()
        let screen = harness.app.permissionsScreen
        screen?.finish()

        #expect(screen != nil)
        #expect(harness.app.permissionsScreen == nil)
        #expect(harness.events.recorded == [.permissionsScreenShown, .permissionsScreenClosed])
    }

    @Test(arguments: [true, false])
    func givenWhileUsing_whenThePermissionsScreenOpens_thenAllowAlwaysIsOfferedOnlyWithTheAlwaysKey(hasKey: Bool) {
        let harness = AppHarness(location: .authorizedWhenInUse, alwaysKey: hasKey)

        harness.app.openPermissions()

        #expect(harness.app.permissionsScreen?.card(for: .location).action == (hasKey ? .allowAlways : PermissionCard.Action.none))
    }

    @Test func givenPetSpot_whenThePermissionsScreenOpens_thenItShowsTheLocationCardAlone() {
        let harness = AppHarness(location: .authorizedWhenInUse)

        harness.app.openPermissions()

        #expect(harness.app.permissionsScreen?.permissions == [.location])
        #expect(harness.app.state(for: .motion) == .unavailable)
        #expect(harness.app.state(for: .healthKit) == .unavailable)
    }
}

/// An app model over a scriptable location manager and an in-memory listing, with its events and
/// log lines recorded.
@MainActor
final class AppHarness {
    let location: FakeLocationManager
    let app: AppModel
    let events = AppEventRecorder()
    let logs = LogRecorder()

    init(location status: LocationPermissionStatus, alwaysKey: Bool = true) {
        var keys: Set<String> = [InfoPlistRequirement.locationWhenInUse.key]
        if alwaysKey { keys.insert(InfoPlistRequirement.locationAlways.key) }
        location = FakeLocationManager(status: status)
        location.send(.authorizationChanged(status, .fullAccuracy))
        var dependencies = AppDependencies.test
        dependencies.locationManager = location
        dependencies.pets = InMemoryAnimalRepository()
        dependencies.infoPlist = PropertyList(Dictionary(uniqueKeysWithValues: keys.map { ($0, PropertyList.Value.string("Why.")) }))
        dependencies.logger = logs.logger
        app = AppModel.build(dependencies)
        app.onEvent = { [events] in events.record($0) }
    }
}

/// The app model's events, with a wait for one of them (no time involved).
@MainActor
final class AppEventRecorder {
    private(set) var recorded: [AppEvent] = []
    private let waiters = ConditionWaiters()

    func record(_ event: AppEvent) {
        recorded.append(event)
        waiters.changed()
    }

    func wait(for event: AppEvent) async {
        await waiters.wait { [unowned self] in recorded.contains(event) }
    }
}

/// Captures what is logged through one logger (handlers may log from any thread).
final class LogRecorder: Sendable {
    private let lines = LockIsolated<[LogLine]>([])

    var logger: Logger {
        Logger(label: "permissions") { [lines] label in CapturingHandler(label: label, lines: lines) }
    }

    var messages: [String] { lines.value.map(\.message) }
    var labels: Set<String> { Set(lines.value.map(\.label)) }
}

struct LogLine: Sendable {
    var label: String
    var message: String
}

struct CapturingHandler: LogHandler {
    let label: String
    let lines: LockIsolated<[LogLine]>
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.withValue { $0.append(LogLine(label: label, message: event.message.description)) }
    }
}
