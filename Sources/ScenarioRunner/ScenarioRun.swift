import AppFeature
import ConcurrencyExtras
import DeviceSimulator
import Foundation
import LocationService
import Permissions
import PetAPI
import PetSpotDomain
import StartupFeature

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
    }

    /// How long the run goes on after the last step while anything is pending.
    public static let tail: Duration = .seconds(60)

    let scenario: Scenario
    let serverURL: URL
    let clock = VirtualClock()
    let device: SimulatedDevice
    let network: SimulatedNetwork
    var app: AppModel?
    var viewModel: AnimalListViewModel? { app?.startup }
    /// Remembers the once-per-install Always request across launches, as `UserDefaults` would.
    let ledger = InMemoryPermissionLedger()
    var lines: [LogLine] = []
    var deviceEventCount = 0
    /// Scene changes not yet told to the app (never told from inside a device callback).
    var pendingPhases: [AppScenePhase] = []
    /// The failure a location request ended with, since the app last asked for one.
    var lastLocationFailure: String?

    init(scenario: Scenario, serverURL: URL) {
        self.scenario = scenario
        self.serverURL = serverURL
        self.device = SimulatedDevice(configuration: scenario.device.configuration, clock: clock)
        self.network = SimulatedNetwork(
            latency: .milliseconds(scenario.network.latencyMs),
            reachable: scenario.network.reachable
        )
        device.onEvent = { [weak self] entry in self?.deviceRecorded(entry) }
    }

    /// Runs `scenario` against the listing server at `serverURL`.
    public static func run(_ scenario: Scenario, serverURL: URL) async -> Outcome {
        let run = ScenarioRun(scenario: scenario, serverURL: serverURL)
        let failure = await run.play()
        return Outcome(lines: run.lines, failure: failure)
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
    private func advance(to target: Duration) async {
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
        [lines.count, deviceEventCount, clock.sleepCount, network.changes, pendingPhases.count]
    }

    private func deliverScenePhases() {
        guard let app else {
            pendingPhases.removeAll()
            return
        }
        while !pendingPhases.isEmpty {
            app.scenePhaseChanged(to: pendingPhases.removeFirst())
        }
    }

    var atMs: Int {
        let (seconds, attoseconds) = clock.now.offset.components
        return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
    }

    func log(_ source: LogLine.Source, _ event: String, _ fields: [(String, LogLine.Value)] = []) {
        lines.append(LogLine(atMs: atMs, source: source, event: event, fields: fields))
    }
}

/// A step that could not happen at its moment (answering an alert that is not shown, say).
public struct ScenarioRunError: Error, Sendable, Equatable, CustomStringConvertible {
    public var stepIndex: Int
    public var step: Scenario.Step
    public var message: String

    public var description: String {
        "$.steps[\(stepIndex)] (\(step.action.name) at \(step.atMs) ms): \(message)"
    }
}

extension Scenario.Device {
    /// The usage descriptions the installed app's Info.plist declares.
    var infoPlistKeys: Set<String> {
        var keys: Set<String> = []
        if infoPlistHasWhenInUseKey { keys.insert(InfoPlistRequirement.locationWhenInUse.key) }
        if infoPlistHasAlwaysKey { keys.insert(InfoPlistRequirement.locationAlways.key) }
        if infoPlistHasMotionKey { keys.insert(InfoPlistRequirement.motion.key) }
        if infoPlistHasHealthKeys {
            keys.insert(InfoPlistRequirement.healthShare.key)
            keys.insert(InfoPlistRequirement.healthUpdate.key)
        }
        return keys
    }

    /// The installed app's Info.plist, as the app reads it.
    var infoPlist: PropertyList {
        PropertyList(Dictionary(uniqueKeysWithValues: infoPlistKeys.map { ($0, PropertyList.Value.string("Why PetSpot asks.")) }))
    }

    /// The simulated phone this describes.
    var configuration: DeviceConfiguration {
        let request = HealthAuthorizationRequest.petSpot
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
            )
        )
    }
}
