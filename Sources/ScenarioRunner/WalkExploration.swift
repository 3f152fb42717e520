import Foundation
import PetSpotDomain
import WalkFeature

/// Every sequence of a person's actions in Paint My Town, up to a depth — its onboarding, the
/// permission cards and iOS's alerts, the walk's buttons, leaving the app, iOS ending it, Settings —
/// played on the simulated iPhone, each run checked against the walk's invariants. As in
/// ``AppExploration``, a sequence with a step that cannot happen is dropped.
public enum WalkExploration {
    /// One thing a person (or iOS) can do.
    public static let actions: [Scenario.Action] = [
        .closePermissions,
        .openPermissions,
        .tapPermission(.location, .allow),
        .tapPermission(.location, .allowAlways),
        .tapPermission(.motion, .allow),
        .tapPermission(.health, .allow),
        .answerSystemAlert(.allowWhileUsing),
        .answerSystemAlert(.dontAllow),
        .answerSystemAlert(.changeToAlwaysAllow),
        .answerSystemAlert(.allow),
        .answerSystemAlert(.allowAll),
        .startWalk,
        .pauseWalk,
        .resumeWalk,
        .endWalk,
        .background,
        .foreground,
        .iosEndsApp,
        .launch,
        .settings(Scenario.SettingsChange(authorization: .denied)),
        .settings(Scenario.SettingsChange(authorization: .authorizedWhenInUse)),
        .settings(Scenario.SettingsChange(health: .sharingDenied)),
    ]

    /// How far apart the actions are: long enough for a walk to go some way between two.
    public static let spacingMs = 20_000

    /// The phone at each start: nothing asked yet, or location While Using with Motion and Health allowed.
    public static let starts: [Start] = [.nothingAsked, .everythingAllowed]

    public enum Start: String, Sendable, CaseIterable {
        case nothingAsked, everythingAllowed
    }

    /// The person's walk: 3 km due north at 1.4 m/s, longer than any sequence lasts.
    static let walk = Scenario.Walk(
        path: [Scenario.Coordinate(lat: 52.2297, lon: 21.0122), Scenario.Coordinate(lat: 52.2567, lon: 21.0122)]
    )

    public struct Finding: Sendable, Equatable, CustomStringConvertible {
        public var start: Start
        public var actions: [Scenario.Action]
        public var broken: String

        public var description: String {
            "\(broken), from \(start.rawValue) after launch → \(actions.map(\.label).joined(separator: " → "))"
        }
    }

    public struct Report: Sendable {
        public var played = 0
        public var impossible = 0
        /// Played sequences in which a walk ended: the walks the invariants were checked on.
        public var walksEnded = 0
        public var findings: [Finding] = []
    }

    /// The scenario for `actions` after launch, ``spacingMs`` apart, from `start`.
    public static func scenario(start: Start, actions: [Scenario.Action]) -> Scenario {
        var device = Scenario.Device()
        device.walk = walk
        if start == .everythingAllowed {
            device.authorization = .authorizedWhenInUse
            device.motion = .authorized
            device.health = .sharingAuthorized
        }
        let steps = [Scenario.Step(atMs: 0, action: .launch)]
            + actions.enumerated().map { Scenario.Step(atMs: spacingMs * ($0.offset + 1), action: $0.element) }
        return Scenario(name: "walk exploration", app: .paintmytown, device: device, steps: steps)
    }

    /// Plays every sequence of up to `depth` actions from every start, with `play` (which plays a
    /// batch of scenarios in order and returns their outcomes in order).
    public static func explore(
        depth: Int,
        play: ([Scenario]) async throws -> [ScenarioRun.Outcome]
    ) async rethrows -> Report {
        var report = Report()
        for start in starts {
            var level: [[Scenario.Action]] = [[]]
            for _ in 0..<depth {
                let candidates = level.flatMap { prefix in actions.map { prefix + [$0] } }
                let outcomes = try await play(candidates.map { scenario(start: start, actions: $0) })
                level = []
                for (sequence, outcome) in zip(candidates, outcomes) {
                    if outcome.failure != nil {
                        report.impossible += 1
                        continue
                    }
                    report.played += 1
                    level.append(sequence)
                    if outcome.lines.contains(where: { $0.event == "walkEnded" }) { report.walksEnded += 1 }
                    if let broken = brokenInvariant(in: outcome, start: start) {
                        report.findings.append(Finding(start: start, actions: sequence, broken: broken))
                    }
                }
            }
        }
        return report
    }

    /// The first invariant `outcome` breaks, if any:
    /// 1. no location recorded while not authorized: a walk starts or goes on only while the phone
    ///    allows location, and no point of a kept route was taken while it did not;
    /// 2. no workout saved without share permission, and none refused as not authorized with it;
    /// 3. a walk's distance is the sum of its recorded segments' lengths, and no more than the person
    ///    walked;
    /// 4. every walk that ended is kept in the app, and Health answered for each exactly once.
    public static func brokenInvariant(in outcome: ScenarioRun.Outcome, start: Start) -> String? {
        var location: LocationPermissionStatus = start == .everythingAllowed ? .authorizedWhenInUse : .notDetermined
        var sharing = start == .everythingAllowed
        var alertUp: String?
        /// Spans of log time, in milliseconds, when the phone allowed location: [from, to).
        var allowed: [(from: Int, to: Int?)] = location.isAuthorized ? [(0, nil)] : []
        var setOffMs: Int?
        var ended = 0
        var answers = 0
        func setLocation(_ status: LocationPermissionStatus, at ms: Int) {
            if status.isAuthorized, !location.isAuthorized { allowed.append((ms, nil)) }
            if !status.isAuthorized, location.isAuthorized, let last = allowed.indices.last { allowed[last].to = ms }
            location = status
        }
        for line in outcome.lines {
            switch (line.source, line.event) {
            case (.device, "systemAlertShown"):
                alertUp = line["alert"]
            case (.device, "systemAlertAnswered"):
                if let status = line["status"].flatMap(LocationPermissionStatus.init(rawValue:)) { setLocation(status, at: line.atMs) }
                if alertUp == "health" { sharing = line["choice"] == "allowAll" }
                alertUp = nil
            case (.device, "settingChanged") where line["setting"] == "Location":
                if let status = line["value"].flatMap(AppExploration.status(settingsValue:)) { setLocation(status, at: line.atMs) }
            case (.device, "settingChanged") where line["setting"]?.hasPrefix("Health: save") == true:
                sharing = line["value"] == "sharingAuthorized"
            case (.app, "walkStarted"), (.app, "walkRestored"):
                guard location.isAuthorized else { return "\(line.event) while the phone says \(location.rawValue)" }
                if line.event == "walkStarted" { setOffMs = setOffMs ?? line.atMs }
            case (.app, "walkEnded"):
                ended += 1
                guard let distance = line[int: "distanceM"], let setOffMs else { return "walkEnded without a walk" }
                let walked = min(Double(line.atMs - setOffMs) / 1000 * walk.speedMps, 3_000)
                if Double(distance) > walked + 1 { return "a walk of \(distance) m where the person walked \(Int(walked)) m" }
            case (.app, "workoutSaved"):
                answers += 1
                if !sharing { return "a workout saved without permission to save workouts" }
            case (.app, "workoutNotSaved"):
                answers += 1
                if sharing, line["reason"] == "notAuthorized" { return "a workout refused as not allowed while saving was allowed" }
            default:
                break
            }
        }
        if answers != ended { return "\(ended) walk(s) ended, Health answered \(answers) time(s)" }
        if outcome.walks.count != ended { return "\(ended) walk(s) ended, the app kept \(outcome.walks.count)" }
        for walk in outcome.walks {
            let segments = walk.route.map { segment in
                let points = segment.compactMap { try? GeoCoordinate(latitude: $0.latitude, longitude: $0.longitude) }
                return zip(points, points.dropFirst()).reduce(0.0) { $0 + $1.0.distance(to: $1.1) }
            }
            if abs(segments.reduce(0, +) - walk.distanceMetres) > 0.01 {
                return "a walk of \(walk.distanceMetres) m whose segments add up to \(segments.reduce(0, +)) m"
            }
            for point in walk.route.joined() {
                let ms = Int((point.timestamp.timeIntervalSince(outcome.epoch) * 1000).rounded())
                if !allowed.contains(where: { ms >= $0.from && ms < ($0.to ?? .max) }) {
                    return "a route point taken at \(ms) ms, while the phone did not allow location"
                }
            }
        }
        return nil
    }

}

extension LogLine {
    /// The value of an integer field, if the line has it.
    subscript(int field: String) -> Int? {
        for (name, value) in fields where name == field {
            if case .int(let number) = value { return number }
        }
        return nil
    }
}
