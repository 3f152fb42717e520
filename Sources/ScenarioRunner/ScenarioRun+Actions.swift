import DeviceSimulator
import Foundation
import LocationService
import PetAPI
import PetSpotDomain
import StartupFeature

/// Why a step cannot happen now, in words for the person who wrote the scenario.
struct StepRefused: Error, CustomStringConvertible {
    var description: String
}

extension ScenarioRun {
    /// Does what the step says, or explains why it cannot happen at this moment.
    func perform(_ action: Scenario.Action) throws(StepRefused) {
        do {
            switch action {
            case .launch: try launch()
            case .terminate:
                try device.terminate()
                viewModel?.onEvent = nil
                viewModel?.onOpenAppSettings = nil
                viewModel = nil
            case .background: try device.background()
            case .foreground: try device.foreground()
            case .tapRetry:
                let app = try foregroundApp()
                guard app.errorMessage != nil else { throw StepRefused(description: "no error with Retry is showing") }
                app.retry()
            case .answerSystemAlert(let choice): try answerSystemAlert(choice)
            case .tapPopup(let button):
                let app = try foregroundApp()
                guard app.showPermissionDeniedAlert else {
                    throw StepRefused(description: "the location popup is not showing")
                }
                switch button {
                case .goToSettings: app.openSettings()
                case .cancel: app.continueWithoutLocation()
                }
            case .settings(let change): try changeSettings(change)
            case .moveTo(let coordinate):
                try device.moveTo(lat: coordinate.lat, lon: coordinate.lon)
            case .network(let change):
                if let reachable = change.reachable { network.reachable = reachable }
                if let latency = change.latencyMs { network.latency = .milliseconds(latency) }
                log(.device, "networkChanged", [
                    ("reachable", .bool(network.reachable)), ("latencyMs", .int(Int(Self.seconds(network.latency) * 1000))),
                ])
            }
        } catch let refused as StepRefused {
            throw refused
        } catch {
            throw StepRefused(description: String(describing: error))
        }
    }

    /// Launches the app: iOS starts it, the app builds its services and its first screen appears.
    private func launch() throws {
        let manager = try device.launch()
        pendingPhases.removeAll()
        let clock = self.clock
        let epoch = device.configuration.epoch
        let service = LocationService(
            manager: manager,
            clock: clock,
            now: { epoch.addingTimeInterval(Self.seconds(clock.now.offset)) }
        )
        let repository = SimulatedNetworkRepository(
            client: AnimalRepository(baseURL: serverURL),
            network: network,
            clock: clock,
            onQueryStarted: { [weak self] path in self?.log(.app, "queryStarted", [("path", .string(path))]) }
        )
        let viewModel = AnimalListViewModel(locationService: service, animalRepository: repository)
        viewModel.onEvent = { [weak self] event in self?.record(event) }
        viewModel.onOpenAppSettings = { [weak self] in self?.openSettingsForApp() }
        self.viewModel = viewModel
        viewModel.onAppear()
    }

    private func foregroundApp() throws -> AnimalListViewModel {
        guard let viewModel else { throw StepRefused(description: "the app is not running") }
        let phase = device.scenePhase
        guard phase == .active else {
            throw StepRefused(
                description: device.systemAlert.map { "a system alert covers the app: \($0)" }
                    ?? "the app is not in use (scene is \(phase.rawValue))"
            )
        }
        return viewModel
    }

    private func answerSystemAlert(_ choice: Scenario.AlertChoice) throws {
        guard let alert = device.systemAlert else {
            throw StepRefused(description: "no system alert is showing")
        }
        guard alert.kind == .locationWhenInUse else {
            throw StepRefused(description: "the alert showing is \(alert), not the location alert")
        }
        let button: SystemAlertButton =
            switch choice {
            case .allowWhileUsing: .allowWhileUsing
            case .allowOnce: .allowOnce
            case .dontAllow: .dontAllow
            }
        try device.answerSystemAlert(button)
        log(.device, "systemAlertAnswered", [
            ("choice", .string(choice.rawValue)), ("status", .string(device.locationAuthorization.rawValue)),
        ])
    }

    private func changeSettings(_ change: Scenario.SettingsChange) throws {
        if let enabled = change.locationServicesEnabled { try device.setLocationServicesEnabled(enabled) }
        if let precise = change.preciseLocation { try device.setPreciseLocation(precise) }
        switch change.authorization {
        case nil: break
        case .restricted?: device.setLocationRestricted(true)
        case .notDetermined?: try device.setLocationAuthorization(.askNextTime)
        case .denied?: try device.setLocationAuthorization(.never)
        case .authorizedWhenInUse?: try device.setLocationAuthorization(.whileUsing)
        case .authorizedAlways?: try device.setLocationAuthorization(.always)
        }
    }

    /// The coordinator's "open Settings": iOS switches to the app's page in Settings.
    private func openSettingsForApp() {
        do {
            try device.openSettings()
        } catch {
            log(.device, "settingsNotOpened", [("reason", .string(error.description))])
        }
    }

    nonisolated static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
