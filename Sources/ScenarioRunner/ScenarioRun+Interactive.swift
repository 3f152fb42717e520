import AppFeature
import AsyncSupport
import DeviceInterfaces
import DeviceSimulator
import Foundation
import Localization
import PaintMyTownFeature
import Permissions
import PetSpotDomain
import StartupFeature

/// A run driven one action at a time, as a person (or an Appium client) uses the phone, instead of by
/// a scenario file's steps. `petspot appium` drives one on the wall clock.
extension ScenarioRun {
    /// A phone set up as `device` says, with `app` installed and not yet launched.
    public static func interactive(
        app: Scenario.App = .petspot,
        device: Scenario.Device,
        network: Scenario.Network,
        serverURL: URL,
        localizer: Localizer
    ) -> ScenarioRun {
        ScenarioRun(
            scenario: Scenario(name: "interactive", app: app, device: device, network: network, steps: []),
            serverURL: serverURL,
            localizer: localizer
        )
    }

    /// Virtual time since the phone started.
    public var elapsed: Duration { device.elapsed }

    /// Moves the phone's time on to `elapsed` (never back), running what falls due on the way.
    public func catchUp(to elapsed: Duration) async {
        guard elapsed > self.elapsed else { return }
        await advance(to: elapsed)
    }

    /// Does what a step of that action would do, then lets the app settle.
    public func act(_ action: Scenario.Action) async throws(StepRefused) {
        do {
            try perform(action)
        } catch {
            await settle()
            throw error
        }
        await settle()
    }

    /// Taps what `element` is: a control of the app's screen or a button of iOS's alert.
    public func tap(_ element: AccessibilityElement) async throws(StepRefused) {
        switch element.tap {
        case nil:
            // A tap on text or a row of the listing does nothing in PetSpot.
            return
        case .step(let action)?:
            try await act(action)
        case .alertButton(let label)?:
            try await answerSystemAlert(label: label)
        case .closeDetail?:
            (app?.permissionsScreen ?? walkApp?.permissionsScreen)?.closeDetail()
            await settle()
        case .openPlacePicker?:
            app?.startup.openPlacePicker()
            await settle()
        case .closePlacePicker?:
            app?.startup.closePlacePicker()
            await settle()
        }
    }

    /// Types `text` into `element`, a search field: its value grows by `text`, as XCUITest's
    /// `typeText` appends, and the whole field goes to the app as one `searchPlace` step.
    public func type(_ text: String, into element: AccessibilityElement) async throws(StepRefused) {
        guard element.acceptsText else { throw StepRefused(description: "\(element.name) does not take text") }
        try await act(.searchPlace((element.value ?? "") + text))
    }

    /// Answers iOS's alert by the label of one of its buttons.
    public func answerSystemAlert(label: String) async throws(StepRefused) {
        guard let alert = device.systemAlert else { throw StepRefused(description: "no system alert is showing") }
        guard let button = alert.buttons.first(where: { $0.label == label }) else {
            let labels = alert.buttons.map { "'\($0.label)'" }.joined(separator: ", ")
            throw StepRefused(description: "the alert has no button '\(label)' (it has \(labels))")
        }
        guard let choice = Self.choices(on: alert.kind).first(where: { $0.value == button })?.key else {
            throw StepRefused(description: "the simulated iPhone does not answer '\(label)' on this alert")
        }
        try await act(.answerSystemAlert(choice))
    }

    /// What the app's last launch still waits for before it has done all it can by itself, or nil once
    /// it has. A launch is settled when the app has read the location permission (`permissionChecked`:
    /// the popup shows, if it is to), iOS has taken up any permission request the app made (its alert
    /// is up, or it ignored the request), and the first listing is asked for: a query started, or the
    /// fix the query waits for asked of the phone. What follows needs the network, the GPS, time or the
    /// person. Read from the event log, and from what the phone logged, since the last `appLaunched`.
    public var launchPending: String? {
        guard let launched = lines.lastIndex(where: { $0.source == .device && $0.event == "appLaunched" }) else {
            return "the app to launch"
        }
        // Paint My Town asks for nothing and loads nothing at launch: its first screen is up at once.
        if installedApp == .paintmytown { return nil }
        let app = Set(lines[launched...].lazy.filter { $0.source == .app }.map(\.event))
        if !app.contains("permissionChecked") {
            return "the app to read its location permission"
        }
        if app.contains("permissionRequested"), !phoneTookPermissionRequest {
            return "iOS to take up the app's permission request"
        }
        if !app.contains("queryStarted"), !(app.contains("locationRequested") && phoneTookFixRequest) {
            return "the app to ask for its first listing"
        }
        return nil
    }

    /// Returns true once the last launch has settled (``launchPending``), then lets the app settle;
    /// false if `deadline` came first. The run's own steps are taken on one executor, but the app's
    /// work hops to others (the location bridge is an actor) that other work in the process may keep
    /// busy: this waits for what the app did, never for a number of turns.
    public func waitUntilLaunchSettled(orUntil deadline: Deadline) async -> Bool {
        let settled = await stateWaiters.wait(until: { [unowned self] in launchPending == nil }, orUntil: deadline)
        await settle()
        return settled
    }

    /// What the person sees of the app now: its screen and iOS's alert, or nothing of it when it is
    /// not in front.
    public var screen: AccessibilityElement {
        let inFront = device.scenePhase == .active || device.scenePhase == .inactive
        if installedApp == .paintmytown {
            return AccessibilityTree.build(
                walkApp: inFront ? walkApp : nil, alert: device.systemAlert,
                usageDescription: Self.usageDescription.replacingOccurrences(of: "PetSpot", with: PaintMyTownL10n.appName))
        }
        let view = inFront ? app.map { AppModelView(startup: $0.startup, permissionsScreen: $0.permissionsScreen) } : nil
        return AccessibilityTree.build(app: view, alert: device.systemAlert, usageDescription: Self.usageDescription)
    }

    /// The usage description every key of the simulated Info.plist holds.
    static let usageDescription = "Why PetSpot asks."

    /// The app in front: the installed app (PetSpot or Paint My Town), Settings, or the Home Screen.
    public var frontmost: FrontApp {
        if settingsInFront { return .settings }
        switch device.scenePhase {
        case .active, .inactive: return .installedApp
        case .background, .notRunning: return .home
        }
    }

    /// The person switches to Settings themselves (not through the app's button).
    public func switchToSettings() async throws(StepRefused) {
        if device.scenePhase == .active || device.scenePhase == .inactive {
            try await act(.background)
        }
        settingsInFront = true
    }

    /// Whether Settings has been opened since the phone started.
    public var settingsHasRun: Bool { settingsLaunched }

    /// The person goes to the Home Screen from Settings.
    public func leaveSettings() {
        settingsInFront = false
    }

    /// Whether the app's process is running, and where.
    public var appProcess: ScenePhase { device.scenePhase }

    /// The app's location permission as iOS reports it.
    public var locationAuthorization: LocationPermissionStatus { device.locationAuthorization }

    /// The phone's position, if it has one.
    public var position: GeoCoordinate? { device.position }

    /// The event log so far, as `petspot run` prints it.
    public var eventLog: [LogLine] { lines }
}

/// The app in front of the person.
public enum FrontApp: Sendable, Equatable {
    /// The app the phone has installed: PetSpot or Paint My Town.
    case installedApp
    case settings, home
}

extension Scenario.App {
    /// The app's bundle identifier, as its manifest (and `App/project.yml`) gives it.
    public var bundleIdentifier: String { manifest.bundleIdentifier }

    /// The app whose bundle identifier is `bundleIdentifier`, if it is one of the two.
    public init?(bundleIdentifier: String) {
        guard let app = Self.allCases.first(where: { $0.bundleIdentifier == bundleIdentifier }) else { return nil }
        self = app
    }
}
