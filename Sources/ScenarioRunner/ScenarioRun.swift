import AsyncSupport
import AppFeature
import ConcurrencyExtras
import DeviceInterfaces
import DeviceSimulator
import Foundation
import Localization
import LocationBridge
import Logging
import PaintMyTownFeature
import Permissions
import PetAPI
import PetSpotDomain
import StartupFeature
import WalkFeature

/// Plays one ``Scenario`` against the whole app and records what happened.
///
/// Time is virtual: the driver moves a ``VirtualClock`` from one due moment to the next, and at each
/// moment lets every piece of work that is ready run to quiet before moving on. Real HTTP to the
/// server is awaited while virtual time stands still, and its answers are handed back only at quiet
/// moments, in the order they were asked. The log is therefore the same on every run — provided no
/// other work shares the process's executor; `petspot run` arranges that.
@MainActor
public final class ScenarioRun {
    /// What a run produced.
    public struct Outcome: Sendable {
        public var lines: [LogLine]
        /// The step that could not happen, if the run stopped early.
        public var failure: ScenarioRunError?
        /// Paint My Town: every walk the app kept, its route included, when the run ended.
        public var walks: [StoredWalk] = []
        /// The phone's date at the run's start: a route point's time is this plus its log time.
        public var epoch = Date(timeIntervalSince1970: 0)

        public init(lines: [LogLine], failure: ScenarioRunError? = nil, walks: [StoredWalk] = [], epoch: Date = Date(timeIntervalSince1970: 0)) {
            self.lines = lines
            self.failure = failure
            self.walks = walks
            self.epoch = epoch
        }
    }

    /// How long the run goes on after the last step while anything is pending.
    public static let tail: Duration = .seconds(60)

    private let scenario: Scenario
    /// The app the phone has installed (`scenario.app`).
    var installedApp: Scenario.App { scenario.app }
    private let clock = VirtualClock()
    let device: SimulatedDevice
    private let network: SimulatedNetwork
    /// The app's HTTP client for the listing, behind ``network``.
    private let client: AnimalRepository
    /// PetSpot while it runs (scenarios of `app` `petspot`).
    private(set) var app: AppModel?
    /// Paint My Town while it runs (scenarios of `app` `paintmytown`).
    private(set) var walkApp: PaintMyTownModel?
    /// What Paint My Town keeps across launches, as `UserDefaults` would.
    private let walkStorage = InMemoryWalkStorage()
    private var viewModel: AnimalListViewModel? { app?.startup }
    /// Remembers the once-per-install Always request across launches, as `UserDefaults` would.
    private let ledger = InMemoryPermissionLedger()
    /// The phone's storage of the chosen place: it outlives the app's process, as UserDefaults does.
    private let placeMemory = InMemoryPlaceMemory()
    private(set) var lines: [LogLine] = []
    private var deviceEventCount = 0
    /// Waits for conditions over the log and the phone; told of every line and every device event.
    let stateWaiters = ConditionWaiters()
    /// What the phone has taken up of the app's requests since its last launch (``launchPending``).
    /// Kept as the entries arrive: reading `device.log` would run the phone's due work, which a
    /// condition checked inside a device callback must never do.
    private(set) var phoneTookPermissionRequest = false
    private(set) var phoneTookFixRequest = false
    /// Scene changes not yet told to the app (never told from inside a device callback).
    private var pendingPhases: [AppScenePhase] = []
    /// A launch into the background by iOS whose app code has not started yet.
    private var pendingBackgroundLaunch: SimulatedLocationManager?
    /// The failure a location request ended with, since the app last asked for one.
    private var lastLocationFailure: String?
    /// The language of the app's texts (the log never depends on it).
    private let localizer: Localizer
    /// Whether Settings is the app in front: opened by the app, until the app comes back.
    var settingsInFront = false {
        didSet { if settingsInFront { settingsLaunched = true } }
    }
    /// Whether Settings has been opened since the phone started (it then stays running).
    private(set) var settingsLaunched = false

    init(scenario: Scenario, serverURL: URL, localizer: Localizer = .system) {
        self.scenario = scenario
        self.localizer = localizer
        self.device = SimulatedDevice(configuration: scenario.device.configuration(for: scenario.app), clock: clock)
        self.client = AnimalRepository(baseURL: serverURL)
        self.network = SimulatedNetwork(
            latency: .milliseconds(scenario.network.latencyMs),
            reachable: scenario.network.reachable
        )
        device.onEvent = { [weak self] entry in self?.deviceRecorded(entry) }
        device.onBackgroundLaunch = { [weak self] manager in self?.launchedInBackground(manager) }
    }

    /// Runs `scenario` against the listing server at `serverURL`.
    public static func run(_ scenario: Scenario, serverURL: URL) async -> Outcome {
        let run = ScenarioRun(scenario: scenario, serverURL: serverURL)
        let failure = await run.play()
        return Outcome(lines: run.lines, failure: failure, walks: run.walkStorage.walks, epoch: run.device.configuration.epoch)
    }

    private func play() async -> ScenarioRunError? {
        for (index, step) in scenario.steps.enumerated() {
            await advance(to: .milliseconds(step.atMs))
            do {
                try perform(step.action)
            } catch {
                return ScenarioRunError(stepIndex: index, step: step, message: error.description)
            }
            await settle()
        }
        let end = Duration.milliseconds(scenario.steps.last?.atMs ?? 0) + Self.tail
        while let next = clock.nextDeadline, next.offset <= end {
            await advance(to: next.offset)
        }
        return nil
    }

    /// Moves virtual time to `target`, stopping at every moment something is due on the way.
    func advance(to target: Duration) async {
        while let next = clock.nextDeadline, next.offset <= target {
            clock.move(to: next)
            device.runDueWork()
            await settle()
        }
        clock.move(to: VirtualClock.Instant(offset: target))
        device.runDueWork()
        await settle()
    }

    /// Lets everything that can run at this moment run, until the system is quiet.
    func settle() async {
        var quietRounds = 0
        while quietRounds < 3 {
            let before = activity
            deliverScenePhases()
            await Task.megaYield(count: 40)
            deliverScenePhases()
            if network.requestsOnTheWire > 0 {
                quietRounds = 0
            } else if activity != before {
                quietRounds = 0
            } else if network.hasHeldResponses {
                network.releaseOldest()
                quietRounds = 0
            } else {
                quietRounds += 1
            }
        }
    }

    private var activity: [Int] {
        [lines.count, deviceEventCount, clock.sleepCount, network.changes, pendingPhases.count, pendingBackgroundLaunch == nil ? 0 : 1]
    }

    private func deliverScenePhases() {
        if let manager = pendingBackgroundLaunch {
            pendingBackgroundLaunch = nil
            // Only Paint My Town asks to be relaunched. Its scene is already in the background: the
            // phase queued with the launch tells the app so once it exists.
            if scenario.app == .paintmytown { launchPaintMyTown(manager) }
        }
        while !pendingPhases.isEmpty {
            let phase = pendingPhases.removeFirst()
            app?.scenePhaseChanged(to: phase)
            walkApp?.scenePhaseChanged(to: phase)
        }
    }

    private var atMs: Int {
        Int(clock.now.offset.wholeMilliseconds)
    }

    private func log(_ source: LogLine.Source, _ event: String, _ fields: [(String, LogLine.Value)] = []) {
        lines.append(LogLine(atMs: atMs, source: source, event: event, fields: fields))
        stateWaiters.changed()
    }
}

/// A step that could not happen at its moment (answering an alert that is not shown, say).
public struct ScenarioRunError: Error, Sendable, Equatable, CustomStringConvertible {
    public var stepIndex: Int
    public var step: Scenario.Step
    public var message: String

    public var description: String {
        "\(JSONPath.root.appending("steps").appending(index: stepIndex)) (\(step.action.name) at \(step.atMs) ms): \(message)"
    }
}

extension Scenario.Device {
    /// The usage descriptions the installed app's Info.plist declares.
    var infoPlistKeys: Set<String> {
        var keys: Set<String> = []
        if infoPlistHasWhenInUseKey { keys.insert(InfoPlistRequirement.locationWhenInUse.key) }
        if infoPlistHasAlwaysKey { keys.insert(InfoPlistRequirement.locationAlways.key) }
        if infoPlistRequiresExplicitServiceSession { keys.insert(ServiceSessionAuthorization.requireExplicitSessionKey) }
        if infoPlistHasMotionKey { keys.insert(InfoPlistRequirement.motion.key) }
        if infoPlistHasHealthKeys {
            keys.insert(InfoPlistRequirement.healthShare.key)
            keys.insert(InfoPlistRequirement.healthUpdate.key)
        }
        return keys
    }

    /// The installed app's Info.plist, as the app reads it: a text for each usage description, and
    /// `true` for the one flag.
    var infoPlist: PropertyList {
        PropertyList(Dictionary(uniqueKeysWithValues: infoPlistKeys.map { key in
            (key, key == ServiceSessionAuthorization.requireExplicitSessionKey ? PropertyList.Value.bool(true) : .string("Why PetSpot asks."))
        }))
    }

    /// The simulated phone this describes, with PetSpot installed.
    var configuration: DeviceConfiguration { configuration(for: .petspot) }

    /// The simulated phone this describes, with `app` installed (whose Health types it decides on).
    func configuration(for app: Scenario.App) -> DeviceConfiguration {
        let request = app.healthRequest
        let motionStatus: MotionAuthorizationStatus =
            switch motion {
            case .authorized: .authorized
            case .denied: .denied
            case .notDetermined, .restricted, .unavailable: .notDetermined
            }
        let decided: HealthShareStatus? =
            switch health {
            case .sharingAuthorized: .sharingAuthorized
            case .sharingDenied: .sharingDenied
            case .notDetermined, .unavailable: nil
            }
        return DeviceConfiguration(
            infoPlistKeys: infoPlistKeys,
            iosVersion: iosVersion,
            location: DeviceConfiguration.Location(
                authorization: authorization,
                servicesEnabled: locationServicesEnabled,
                preciseLocation: preciseLocation,
                position: position.flatMap { try? GeoCoordinate(latitude: $0.lat, longitude: $0.lon) },
                fixDelay: .milliseconds(fixDelayMs),
                coarseFixDelay: .milliseconds(coarseFixDelayMs),
                cachedFix: cachedFix.flatMap { fix in
                    (try? GeoCoordinate(latitude: fix.position.lat, longitude: fix.position.lon)).map {
                        DeviceConfiguration.CachedFix(coordinate: $0, age: .milliseconds(fix.ageMs))
                    }
                },
                deliversCachedFixOnRequest: cachedFix?.deliveredOnRequest ?? false
            ),
            motion: DeviceConfiguration.Motion(
                hasMotionCoprocessor: motion != .unavailable,
                fitnessTrackingEnabled: motion != .restricted,
                status: motionStatus
            ),
            health: DeviceConfiguration.Health(
                isHealthDataAvailable: health != .unavailable,
                shareStatus: decided.map { status in Dictionary(uniqueKeysWithValues: request.share.map { ($0, status) }) } ?? [:],
                readAllowed: decided == nil ? [:] : Dictionary(uniqueKeysWithValues: request.read.map { ($0, true) })
            ),
            walk: walk.map { walk in
                DeviceConfiguration.Walk(
                    path: walk.path.compactMap { try? GeoCoordinate(latitude: $0.lat, longitude: $0.lon) },
                    speedMetresPerSecond: walk.speedMps,
                    activity: walk.activity.map { (after: .milliseconds($0.atMs), kind: $0.kind) }
                )
            }
        )
    }
}

// MARK: - Events

extension ScenarioRun {
    /// Turns what the simulated iPhone did into log lines (and tells the app about scene changes).
    private func deviceRecorded(_ entry: DeviceLogEntry) {
        deviceEventCount += 1
        // Also for the entries that make no line (a location request reaching the phone).
        defer { stateWaiters.changed() }
        switch entry.event {
        case .appLaunched: (phoneTookPermissionRequest, phoneTookFixRequest) = (false, false)
        case .systemAlertShown, .requestIgnored: phoneTookPermissionRequest = true
        case .locationRequestStarted, .liveUpdatesStarted: phoneTookFixRequest = true
        default: break
        }
        switch entry.event {
        case .appLaunched: log(.device, "appLaunched")
        case .appTerminated: log(.device, "appTerminated")
        case .appReclaimed: log(.device, "appTerminated", [("by", .string("ios"))])
        case .appLaunchedInBackground(let reason): log(.device, "appLaunchedInBackground", [("reason", .string(reason))])
        case .sceneChanged(let from, let to):
            if let phase = AppScenePhase(rawValue: to.rawValue) { pendingPhases.append(phase) }
            if to == .background, from != .notRunning { log(.device, "appBackgrounded") }
            if from == .background, to == .inactive {
                settingsInFront = false
                log(.device, "appForegrounded")
            }
        case .systemAlertShown(let alert):
            log(.device, "systemAlertShown", [("alert", .string(Self.alertName(alert.kind)))])
        case .systemAlertDismissed(let alert):
            log(.device, "systemAlertDismissed", [("alert", .string(Self.alertName(alert.kind)))])
        case .settingsOpened:
            settingsInFront = true
            log(.device, "settingsOpened")
        case .settingChanged(let name, let value):
            log(.device, "settingChanged", [("setting", .string(name)), ("value", .string(value))])
        case .allowOnceExpired: log(.device, "allowOnceExpired")
        case .positionChanged(let hasFix): log(.device, "moved", [("fixPossible", .bool(hasFix))])
        case .requestIgnored(let request, let reason):
            log(.device, "requestIgnored", [("request", .string(request)), ("reason", .string(reason))])
        case .delegateCallback(_, .failed(let error)):
            lastLocationFailure = error.description
        case .delegateCallback(_, .locationsUpdated(let fixes)):
            // Rule 18: a fix older than the app's freshness bound is not the current location; if
            // the app then reports none, this is why.
            if let configuration = app?.location.configuration,
                let newest = fixes.last(where: { $0.horizontalAccuracy >= 0 }),
                !configuration.isFresh(fixTakenAt: newest.timestamp, now: entry.date)
            {
                lastLocationFailure = "staleFix"
            }
        case .liveUpdate(_, let update):
            // Rule 30: the diagnostic that ended the wait is the reason; an old fix is as above.
            if let reason = update.noFixReason {
                lastLocationFailure = reason.rawValue
            } else if let configuration = app?.location.configuration, let fix = update.location,
                !configuration.isFresh(fixTakenAt: fix.timestamp, now: entry.date)
            {
                lastLocationFailure = "staleFix"
            }
        case .systemAlertAnswered, .locationManagerCreated, .temporaryFullAccuracyExpired,
            .locationRequestStarted, .locationRequestCancelled, .delegateCallback, .subsystem,
            .serviceSessionStarted, .serviceSessionInvalidated, .serviceSessionDiagnostics, .liveUpdatesStarted,
            .liveUpdatesStopped:
            // Answers are logged by the step with the resulting status; the rest is plumbing.
            break
        }
    }

    /// Turns what the app did into log lines.
    private func record(_ event: StartupEvent) {
        switch event {
        case .screenAppeared: log(.app, "screenAppeared")
        case .permissionChecked(let status): log(.app, "permissionChecked", [("status", .string(status.rawValue))])
        case .permissionRequested: log(.app, "permissionRequested")
        case .permissionAnswered(let status):
            log(.app, "permissionAnswered", [("status", .string(status.rawValue))])
        case .permissionChanged(let status): log(.app, "permissionChanged", [("status", .string(status.rawValue))])
        case .permissionChangeDeferred(let status):
            log(.app, "permissionChangeDeferred", [("status", .string(status.rawValue))])
        case .locationRequested:
            lastLocationFailure = nil
            log(.app, "locationRequested")
        case .locationObtained(let sent):
            // What the server is sent: the coordinates of the query the machine starts with the fix.
            log(.app, "locationObtained", [("lat", .double(sent.location.latitude)), ("lon", .double(sent.location.longitude))])
        case .locationUnavailable:
            let reason = lastLocationFailure ?? (device.locationAuthorization.isAuthorized ? "timeout" : "notAuthorized")
            log(.app, "locationUnavailable", [("reason", .string(reason))])
        case .locationDroppedAfterRevocation:
            log(.app, "locationUnavailable", [("reason", .string("revoked"))])
        case .queryFinished(let count): log(.app, "queryFinished", [("count", .int(count))])
        case .queryFailed(let reason): log(.app, "queryFailed", [("message", .string(reason))])
        case .listingShown(let count, let withLocation):
            log(.app, "listingShown", [("count", .int(count)), ("withLocation", .bool(withLocation))])
            lines[lines.count - 1].preview = (viewModel?.animals ?? []).prefix(3).map(LogLine.AnimalPreview.init)
        case .customPopupShown(let reason): log(.app, "customPopupShown", [("reason", .string(reason.rawValue))])
        case .customPopupChanged(let reason): log(.app, "customPopupChanged", [("reason", .string(reason.rawValue))])
        case .noPetsNearby: log(.app, "noPetsNearby")
        case .refreshRequested: log(.app, "refreshRequested")
        case .customPopupDismissed(let dismissal):
            log(.app, "customPopupDismissed", [("button", .string(dismissal.rawValue))])
        case .retryTapped: log(.app, "retryTapped")
        case .placeSuggestions(let count): log(.app, "placeSuggestions", [("count", .int(count))])
        case .placeSuggestionsFailed: log(.app, "placeSuggestionsFailed")
        case .placeChosen(let id): log(.app, "placeChosen", [("id", .string(id))])
        case .placeCleared: log(.app, "placeCleared")
        case .queryStarted(let sent):
            // Logged as the machine starts the query (never after a hop to another thread, which would
            // let the order of lines vary), with the path the app's HTTP client requests for it.
            log(.app, "queryStarted", [("path", .string(client.requestPath(near: sent?.location)))])
        case .settingsOpened, .scenePhaseChanged:
            // The device logs Settings and scene changes.
            break
        }
    }
}

extension ScenarioRun {
    /// Turns what the app model did (the permissions screen, the app-wide permission state) into log lines.
    private func record(_ event: AppEvent) {
        switch event {
        case .permissionsScreenShown: log(.app, "permissionsScreenShown")
        case .permissionsScreenClosed: log(.app, "permissionsScreenClosed")
        case .permissionStateChanged(let permission, let state):
            log(.app, "permissionStateChanged", [("permission", .string(permission.logName)), ("state", .string(state.rawValue))])
        case .permissionRequestStarted(let permission):
            log(.app, "permissionRequestStarted", [("permission", .string(permission.logName))])
        case .permissionRequestFinished(let permission, let state):
            log(.app, "permissionRequestFinished", [
                ("permission", .string(permission.logName)), ("state", .string(state.rawValue)),
            ])
        case .permissionRequestRefused(let permission, let reason):
            log(.app, "permissionRequestRefused", [
                ("permission", .string(permission.logName)), ("reason", .string(reason.rawValue)),
            ])
        }
    }
}

extension ScenarioRun {
    /// Turns what Paint My Town did into log lines: the permissions screen and the permission state as
    /// PetSpot's are logged, and the walk with its numbers (never a coordinate).
    private func record(_ event: PaintMyTownModel.Event) {
        switch event {
        case .app(.permissionsScreenShown): record(AppEvent.permissionsScreenShown)
        case .app(.permissionsScreenClosed): record(AppEvent.permissionsScreenClosed)
        case .app(.onboardingCompleted): log(.app, "onboardingCompleted")
        case .app(.permissionStateChanged(let permission, let state)): record(AppEvent.permissionStateChanged(permission, state))
        case .app(.permissionRequestStarted(let permission)): record(AppEvent.permissionRequestStarted(permission))
        case .app(.permissionRequestFinished(let permission, let state)):
            record(AppEvent.permissionRequestFinished(permission, state))
        case .app(.permissionRequestRefused(let permission, let reason)):
            record(AppEvent.permissionRequestRefused(permission, reason))
        case .app(.walkNotStarted(let reason)): log(.app, "walkNotStarted", [("reason", .string(reason.rawValue))])
        case .walk(.walk(.walkStarted(let autoPause))): log(.app, "walkStarted", [("autoPause", .bool(autoPause))])
        case .walk(.walk(.walkPaused(let reason))): log(.app, "walkPaused", [("reason", .string(reason.rawValue))])
        case .walk(.walk(.walkResumed(let reason))): log(.app, "walkResumed", [("reason", .string(reason.rawValue))])
        case .walk(.walk(.walkEnded(let summary))): logWalkEnded(summary)
        case .walk(.walk(.walkRestored(let paused))): log(.app, "walkRestored", [("paused", .bool(paused))])
        case .walk(.workoutSaved): log(.app, "workoutSaved")
        case .walk(.workoutNotSaved(let error)): log(.app, "workoutNotSaved", [("reason", .string(error.reason))])
        }
    }
}

extension ScenarioRun {
    /// `walkEnded` with its numbers; `steps` only when the pedometer counted them (Motion allowed).
    private func logWalkEnded(_ summary: WalkSummary) {
        var fields: [(String, LogLine.Value)] = [("distanceM", .int(Int(summary.distanceMetres.rounded())))]
        if let steps = summary.steps { fields.append(("steps", .int(steps))) }
        fields.append(("newCells", .int(summary.newCells)))
        fields.append(("totalCells", .int(summary.totalCells)))
        log(.app, "walkEnded", fields)
    }
}

extension Scenario.App {
    /// What the app asks HealthKit for: its manifest's request (PetSpot asks for nothing).
    var healthRequest: HealthAuthorizationRequest { manifest.healthRequest ?? .nothing }
}

extension LogLine.AnimalPreview {
    init(_ animal: Animal) {
        self.init(
            name: animal.name,
            species: animal.species.rawValue,
            breed: animal.breed,
            city: animal.shelter.city,
            distanceKm: animal.distanceKm
        )
    }
}

// MARK: - Actions

/// Why a step cannot happen now, in words for the person who wrote the scenario.
public struct StepRefused: Error, CustomStringConvertible {
    public var description: String
}

extension ScenarioRun {
    /// Does what the step says, or explains why it cannot happen at this moment.
    func perform(_ action: Scenario.Action) throws(StepRefused) {
        do {
            switch action {
            case .launch: try launch()
            case .terminate:
                try device.terminate()
                endApp()
            case .iosEndsApp:
                try device.reclaimApp()
                endApp()
            case .background: try device.background()
            case .foreground: try device.foreground()
            case .tapRetry:
                let app = try foregroundApp(for: action)
                guard app.errorMessage != nil else { throw StepRefused(description: "no error with Retry is showing") }
                app.retry()
            case .refresh:
                let app = try foregroundApp(for: action)
                // What the screen allows: the pull works on a list of pets, not under the popup.
                guard case .animals = app.content else { throw StepRefused(description: "no list of pets is showing to pull down") }
                guard app.permissionPopup == nil else { throw StepRefused(description: "the location popup is up") }
                guard !app.isLoading else { throw StepRefused(description: "a load is under way") }
                app.requestRefresh()
            case .answerSystemAlert(let choice): try answerSystemAlert(choice)
            case .tapPopup(let button):
                let app = try foregroundApp(for: action)
                guard app.showPermissionDeniedAlert else {
                    throw StepRefused(description: "the location popup is not showing")
                }
                switch button {
                case .goToSettings: app.openSettings()
                case .cancel: app.continueWithoutLocation()
                case .choosePlace: app.openPlacePicker()
                }
            case .searchPlace(let text):
                let app = try foregroundApp(for: action)
                guard let picker = app.placePicker else { throw StepRefused(description: "this app searches no places") }
                if !app.isChoosingPlace {
                    // Typing starts with a tap on "Choose a Place" in the header, which shows only above
                    // a listing without the person's location, never under the popup.
                    guard app.permissionPopup == nil else { throw StepRefused(description: "the location popup is up") }
                    guard app.offersPlaceChoice else { throw StepRefused(description: "no Choose a Place is showing") }
                    app.openPlacePicker()
                }
                picker.type(text)
            case .choosePlace(let choice):
                let app = try foregroundApp(for: action)
                guard app.isChoosingPlace, let suggestions = app.placePicker?.suggestions, !suggestions.isEmpty else {
                    throw StepRefused(description: "no place suggestions are showing")
                }
                let place: Place
                switch choice {
                case .index(let index):
                    guard suggestions.indices.contains(index) else {
                        throw StepRefused(description: "there are \(suggestions.count) suggestions; index \(index) is not one")
                    }
                    place = suggestions[index]
                case .id(let id):
                    guard let found = suggestions.first(where: { $0.id.utf8.elementsEqual(id.utf8) }) else {
                        throw StepRefused(description: "no suggestion has the id \"\(id)\"")
                    }
                    place = found
                }
                app.choosePlace(place)
            case .clearPlace:
                let app = try foregroundApp(for: action)
                guard app.offersPlaceClearing else {
                    throw StepRefused(description: app.chosenPlace == nil ? "no place is chosen" : "no clear control is showing")
                }
                app.clearPlace()
            case .settings(let change): try changeSettings(change)
            case .moveTo(let coordinate):
                try device.moveTo(lat: coordinate.lat, lon: coordinate.lon)
            case .openPermissions:
                guard try permissionsScreen() == nil else { throw StepRefused(description: "the permissions screen is already open") }
                if let walkApp { walkApp.openPermissions() } else { try activeApp().openPermissions() }
            case .closePermissions:
                guard let screen = try permissionsScreen() else {
                    throw StepRefused(description: "the permissions screen is not open")
                }
                guard screen.canContinue else { throw StepRefused(description: "Done is disabled while a request is under way") }
                screen.finish()
            case .tapPermission(let name, let button): try tapPermission(name, button)
            case .startWalk:
                let walkApp = try activeWalkApp(for: action)
                // The walk screen shows Start only while no walk is under way.
                guard !walkApp.walk.state.isUnderWay else { throw StepRefused(description: "a walk is already under way") }
                walkApp.startWalk()
                // The person sets off as they tap Start, when the walk did start.
                if walkApp.walk.state.isUnderWay, scenario.device.walk != nil { try device.setOff() }
            case .pauseWalk:
                let walkApp = try activeWalkApp(for: action)
                guard walkApp.walk.state.phase == .recording else { throw StepRefused(description: "no walk is recording") }
                walkApp.pauseWalk()
            case .resumeWalk:
                let walkApp = try activeWalkApp(for: action)
                guard case .paused = walkApp.walk.state.phase else { throw StepRefused(description: "no walk is paused") }
                walkApp.resumeWalk()
            case .endWalk:
                let walkApp = try activeWalkApp(for: action)
                guard walkApp.walk.state.isUnderWay else { throw StepRefused(description: "no walk is under way") }
                walkApp.endWalk()
            case .network(let change):
                if let reachable = change.reachable { network.reachable = reachable }
                if let latency = change.latencyMs { network.latency = .milliseconds(latency) }
                log(.device, "networkChanged", [
                    ("reachable", .bool(network.reachable)), ("latencyMs", .int(Int(network.latency.wholeMilliseconds))),
                ])
            }
        } catch let refused as StepRefused {
            throw refused
        } catch {
            throw StepRefused(description: String(describing: error))
        }
    }

    /// The app's process is gone: nothing of it runs or logs any more.
    private func endApp() {
        pendingBackgroundLaunch = nil
        viewModel?.onEvent = nil
        app?.onEvent = nil
        app = nil
        walkApp?.onEvent = nil
        walkApp = nil
    }

    /// iOS launched the app into the background by itself (rule 35): its code starts there, at the
    /// next quiet moment (never inside the phone's own callback).
    private func launchedInBackground(_ manager: SimulatedLocationManager) {
        pendingBackgroundLaunch = manager
    }

    /// Launches the app: iOS starts it, the app builds its services and its first screen appears.
    private func launch() throws {
        let manager = try device.launch()
        pendingPhases.removeAll()
        if scenario.app == .paintmytown {
            launchPaintMyTown(manager)
            return
        }
        let app = AppModel.build(
            try .simulated(
                device: device,
                locationManager: manager,
                pets: SimulatedNetworkRepository(client: client, network: network, clock: clock),
                settingsOpener: SettingsOpener { [weak self] in self?.openSettingsForApp() },
                ledger: ledger,
                placeMemory: placeMemory,
                clock: clock,
                infoPlist: scenario.device.infoPlist,
                localizer: localizer
            )
        )
        app.startup.onEvent = { [weak self] event in self?.record(event) }
        app.onEvent = { [weak self] event in self?.record(event) }
        self.app = app
        app.launch()
    }

    /// Paint My Town starts: its onboarding shows until the person completed it once.
    private func launchPaintMyTown(_ manager: SimulatedLocationManager) {
        let epoch = device.configuration.epoch
        let clock = self.clock
        let walkApp = PaintMyTownModel(PaintMyTownDependencies(
            locationManager: manager,
            locationSessions: device.configuration.supportsServiceSessions ? try? device.serviceSessions() : nil,
            motion: device.motion,
            health: device.health,
            walkLocation: device.walkLocation,
            walkMotion: device.walkMotion,
            workouts: device.workouts,
            storage: walkStorage,
            settingsOpener: SettingsOpener { [weak self] in self?.openSettingsForApp() },
            ledger: ledger,
            clock: clock,
            now: { epoch.addingTimeInterval(clock.now.offset.timeInterval) },
            infoPlist: scenario.device.infoPlist,
            localizer: localizer
        ))
        walkApp.onEvent = { [weak self] event in self?.record(event) }
        self.walkApp = walkApp
        walkApp.launch()
    }

    /// The permissions screen showing in the app in use, if any.
    private func permissionsScreen() throws -> PermissionsScreenModel? {
        if scenario.app == .paintmytown {
            guard let walkApp else { throw StepRefused(description: "the app is not running") }
            try ensureInUse()
            return walkApp.permissionsScreen
        }
        return try activeApp().permissionsScreen
    }

    /// The permissions screen's card button, if the card shows it now.
    private func tapPermission(_ name: Scenario.PermissionName, _ button: Scenario.CardButton) throws {
        guard let screen = try permissionsScreen() else { throw StepRefused(description: "the permissions screen is not open") }
        let permission: Permission =
            switch name {
            case .location: .location
            case .motion: .motion
            case .health: .healthKit
            }
        guard screen.permissions.contains(permission) else {
            throw StepRefused(
                description: "\(scenario.app.manifest.displayName)'s permissions screen has no \(name.rawValue) card: no feature of the app uses it"
            )
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

    private func foregroundApp(for action: Scenario.Action) throws -> AnimalListViewModel {
        guard scenario.app == .petspot else {
            throw StepRefused(description: "\(action.name) is a step of PetSpot's listing; Paint My Town has none")
        }
        return try activeApp().startup
    }

    private func activeWalkApp(for action: Scenario.Action) throws -> PaintMyTownModel {
        guard scenario.app == .paintmytown else {
            throw StepRefused(description: "\(action.name) is a step of Paint My Town's walk; PetSpot has none")
        }
        guard let walkApp else { throw StepRefused(description: "the app is not running") }
        try ensureInUse()
        return walkApp
    }

    private func activeApp() throws -> AppModel {
        guard let app else { throw StepRefused(description: "the app is not running") }
        try ensureInUse()
        return app
    }

    /// Throws unless the app is in front and no system alert covers it.
    private func ensureInUse() throws {
        let phase = device.scenePhase
        guard phase == .active else {
            throw StepRefused(
                description: device.systemAlert.map { "a system alert covers the app: \($0)" }
                    ?? "the app is not in use (scene is \(phase.rawValue))"
            )
        }
    }

    private func answerSystemAlert(_ choice: Scenario.AlertChoice) throws {
        guard let alert = device.systemAlert else {
            throw StepRefused(description: "no system alert is showing")
        }
        let buttons = Self.choices(on: alert.kind)
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

    /// The buttons of an alert a scenario can tap, by the name a step gives them.
    static func choices(on kind: SystemAlert.Kind) -> [Scenario.AlertChoice: SystemAlertButton] {
        switch kind {
        case .locationWhenInUse: [.allowWhileUsing: .allowWhileUsing, .allowOnce: .allowOnce, .dontAllow: .dontAllow]
        case .locationAlwaysUpgrade: [.changeToAlwaysAllow: .changeToAlwaysAllow, .keepOnlyWhileUsing: .keepOnlyWhileUsing]
        case .motionActivity: [.allow: .ok, .dontAllow: .dontAllow]
        case .healthAccess: [.allowAll: .healthTurnOnAll, .dontAllow: .dontAllow]
        default: [:]
        }
    }

    /// The name of a system alert in the log: `locationWhenInUse`, `locationAlways`, `motion`, `health`.
    private static func alertName(_ kind: SystemAlert.Kind) -> String {
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
            for type in scenario.app.healthRequest.share.sorted(by: { $0.rawValue < $1.rawValue }) {
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
}
