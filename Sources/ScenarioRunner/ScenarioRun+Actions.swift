import AppFeature
import DeviceSimulator
import Foundation
import LocationService
import Logging
import PetAPI
import Permissions
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
                app?.onEvent = nil
                app = nil
            case .background: try device.background()
            case .foreground: try device.foreground()
            case .tapRetry:
                let app = try foregroundApp()
                guard app.errorMessage != nil else { throw StepRefused(description: "no error with Retry is showing") }
                app.retry()
            case .refresh:
                let app = try foregroundApp()
                // What the screen allows: the pull works on a list of pets, not under the popup.
                guard case .animals = app.content else { throw StepRefused(description: "no list of pets is showing to pull down") }
                guard app.permissionPopup == nil else { throw StepRefused(description: "the location popup is up") }
                guard !app.isLoading else { throw StepRefused(description: "a load is under way") }
                app.requestRefresh()
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
            case .openPermissions:
                let app = try activeApp()
                guard app.permissionsScreen == nil else { throw StepRefused(description: "the permissions screen is already open") }
                app.openPermissions()
            case .closePermissions:
                let app = try activeApp()
                guard let screen = app.permissionsScreen else {
                    throw StepRefused(description: "the permissions screen is not open")
                }
                guard screen.canContinue else { throw StepRefused(description: "Done is disabled while a request is under way") }
                screen.finish()
            case .tapPermission(let name, let button): try tapPermission(name, button)
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
            clock: clock
        )
        let viewModel = AnimalListViewModel(locationService: service, animalRepository: repository)
        viewModel.onEvent = { [weak self] event in self?.record(event) }
        viewModel.onOpenAppSettings = { [weak self] in self?.openSettingsForApp() }
        let infoPlist = scenario.device.infoPlist
        let permissions = PermissionManager(
            locationService: service,
            motion: device.motion,
            health: device.health,
            infoPlist: infoPlist,
            ledger: ledger,
            settingsOpener: SettingsOpener { [weak self] in self?.openSettingsForApp() },
            clock: clock
        )
        // The event log has every permission change; the logger speaks only of problems here.
        var logger = Logger(label: "permissions")
        logger.logLevel = .warning
        let app = AppModel(permissions: permissions, startup: viewModel, infoPlist: infoPlist, logger: logger)
        app.onEvent = { [weak self] event in self?.record(event) }
        self.app = app
        app.launch()
    }

    /// The permissions screen's card button, if the card shows it now.
    private func tapPermission(_ name: Scenario.PermissionName, _ button: Scenario.CardButton) throws {
        let app = try activeApp()
        guard let screen = app.permissionsScreen else { throw StepRefused(description: "the permissions screen is not open") }
        let permission: Permission =
            switch name {
            case .location: .location
            case .motion: .motion
            case .health: .healthKit
            }
        let card = screen.card(for: permission)
        let offered: Scenario.CardButton? =
            switch card.action {
            case .allow: .allow
            case .allowAlways: .allowAlways
            case .openSettings: .openSettings
            case .none: nil
            }
        if button == .learnMore {
            screen.learnMore(permission)
            return
        }
        guard offered == button, !card.isBusy else {
            let shown = card.isBusy ? "a request under way" : offered.map { "\($0.rawValue) and learnMore" } ?? "only learnMore"
            throw StepRefused(description: "the \(name.rawValue) card has no \(button.rawValue) button now (it shows \(shown))")
        }
        switch button {
        case .allow: Task { await screen.allow(permission) }
        case .allowAlways: Task { await screen.allowAlways() }
        case .openSettings: screen.openSettings()
        case .learnMore: break
        }
    }

    private func foregroundApp() throws -> AnimalListViewModel {
        try activeApp().startup
    }

    private func activeApp() throws -> AppModel {
        guard let app else { throw StepRefused(description: "the app is not running") }
        let phase = device.scenePhase
        guard phase == .active else {
            throw StepRefused(
                description: device.systemAlert.map { "a system alert covers the app: \($0)" }
                    ?? "the app is not in use (scene is \(phase.rawValue))"
            )
        }
        return app
    }

    private func answerSystemAlert(_ choice: Scenario.AlertChoice) throws {
        guard let alert = device.systemAlert else {
            throw StepRefused(description: "no system alert is showing")
        }
        let buttons: [Scenario.AlertChoice: SystemAlertButton] =
            switch alert.kind {
            case .locationWhenInUse: [.allowWhileUsing: .allowWhileUsing, .allowOnce: .allowOnce, .dontAllow: .dontAllow]
            case .locationAlwaysUpgrade: [.changeToAlwaysAllow: .changeToAlwaysAllow, .keepOnlyWhileUsing: .keepOnlyWhileUsing]
            case .motionActivity: [.allow: .ok, .dontAllow: .dontAllow]
            case .healthAccess: [.allowAll: .healthTurnOnAll, .dontAllow: .dontAllow]
            default: [:]
            }
        let name = Self.alertName(alert.kind)
        guard let button = buttons[choice] else {
            let offered = Scenario.AlertChoice.allCases.filter { buttons[$0] != nil }.map(\.rawValue)
            throw StepRefused(
                description: "the \(name) alert has no \(choice.rawValue) button (it has \(offered.joined(separator: ", ")))"
            )
        }
        try device.answerSystemAlert(button)
        var fields: [(String, LogLine.Value)] = [("choice", .string(choice.rawValue))]
        if alert.kind == .locationWhenInUse || alert.kind == .locationAlwaysUpgrade {
            fields.append(("status", .string(device.locationAuthorization.rawValue)))
        } else {
            fields.insert(("alert", .string(name)), at: 0)
        }
        log(.device, "systemAlertAnswered", fields)
    }

    /// The name of a system alert in the log: `locationWhenInUse`, `locationAlways`, `motion`, `health`.
    static func alertName(_ kind: SystemAlert.Kind) -> String {
        switch kind {
        case .locationAlwaysUpgrade: "locationAlways"
        case .motionActivity: "motion"
        case .healthAccess: "health"
        default: kind.rawValue
        }
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
        if let motion = change.motion { try device.setMotionAllowed(motion == .authorized) }
        if let health = change.health {
            for type in HealthAuthorizationRequest.petSpot.share.sorted(by: { $0.rawValue < $1.rawValue }) {
                try device.setHealthSharing(health == .sharingAuthorized ? .sharingAuthorized : .sharingDenied, for: type)
            }
        }
    }

    /// The app's "open Settings": iOS switches to the app's page in Settings.
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
