import AppFeature
import AsyncSupport
import DeviceInterfaces
import DeviceSimulator
import Foundation
import LocationBridge
import Permissions
import PetSpotDomain
import StartupFeature
import TestSupport

/// The app on the simulated iPhone, watched through its startup screen: built from the simulated
/// device's location manager, Motion and HealthKit, on a test clock. The test plays the person;
/// waits are for device log entries, never for time.
@MainActor
final class SimulatedStartupScreen {
    let clock = VirtualClock()
    let device: SimulatedDevice
    let app: AppModel
    let repository = InMemoryAnimalRepository()
    var viewModel: AnimalListViewModel { app.startup }
    let recorder: EventRecorder
    private var entries: [DeviceEvent] = []
    private let waiters = ConditionWaiters()

    static let home = Fixtures.warsaw.coordinate

    /// Launches the app on a device whose location settings are `location`.
    /// - Parameter infoPlistKeys: The app's Info.plist keys; without the When-In-Use one iOS shows no alert.
    init(
        _ location: DeviceConfiguration.Location,
        infoPlistKeys: Set<String> = [InfoPlistRequirement.locationWhenInUse.key]
    ) async throws {
        device = SimulatedDevice(
            configuration: DeviceConfiguration(
                infoPlistKeys: infoPlistKeys,
                location: location
            ),
            clock: clock
        )
        let epoch = device.configuration.epoch
        var dependencies = AppDependencies.test
        dependencies.locationManager = try device.launch()
        dependencies.pets = repository
        dependencies.clock = clock
        dependencies.now = { epoch }
        dependencies.settingsOpener = .init { [device] in try? device.openSettings() }
        app = AppModel.build(dependencies)
        recorder = EventRecorder(app.startup)
        device.onEvent = { [weak self] entry in self?.record(entry.event) }
        // The manager's creation-time callback.
        clock.advance(by: .zero)
        device.runDueWork()
    }

    /// The screen appears; returns once it waits on the person or the GPS, or has settled.
    func appear() {
        app.launch()
    }

    /// Waits until the device logged `count` events matching `matches` (or the test is cancelled).
    func waitForDevice(_ count: Int = 1, _ matches: @escaping (DeviceEvent) -> Bool) async {
        await waiters.wait { [unowned self] in entries.filter(matches).count >= count }
    }

    /// Waits for the `count`-th location request, lets the GPS answer, and lets the screen settle.
    func gpsAnswers(request count: Int = 1, after delay: Duration = .seconds(2)) async {
        await waitForDevice(count) { if case .locationRequestStarted = $0 { true } else { false } }
        clock.advance(by: delay)
        device.runDueWork()
        await viewModel.waitUntilIdle()
    }

    /// Waits for the When-In-Use alert and taps `button`.
    func answerAlert(_ button: SystemAlertButton) async throws {
        await waitForDevice { if case .systemAlertShown = $0 { true } else { false } }
        try device.answerSystemAlert(button)
    }

    private func record(_ event: DeviceEvent) {
        entries.append(event)
        if case .sceneChanged(_, let to) = event, let phase = AppScenePhase(to) {
            app.scenePhaseChanged(to: phase)
        }
        waiters.changed()
    }
}

extension AppScenePhase {
    /// The simulated app's phase as SwiftUI would report it; nil when the process is gone.
    init?(_ phase: DeviceSimulator.ScenePhase) {
        switch phase {
        case .active: self = .active
        case .inactive: self = .inactive
        case .background: self = .background
        case .notRunning: return nil
        }
    }
}
