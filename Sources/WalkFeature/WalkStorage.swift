import Foundation
import PetSpotDomain

/// What Paint My Town keeps across launches: whether the onboarding was completed, the cells painted,
/// and every walk recorded — each kept whether or not Health took it.
@MainActor
public protocol WalkStorage: AnyObject {
    var onboardingCompleted: Bool { get set }
    var paintedCells: Set<TownCell> { get set }
    var walks: [StoredWalk] { get set }
    /// The walk under way as last kept, until it ends: what a new process goes on with.
    var walkInProgress: WalkInProgress? { get set }
}

/// A walk under way, as kept on the phone so that it outlives the app's process (iOS ends a
/// process in the background without warning, rule 35).
public struct WalkInProgress: Sendable, Hashable, Codable {
    public enum Phase: String, Sendable, Hashable, Codable {
        case recording
        case pausedByPerson
        case pausedStationary
    }

    public var phase: Phase
    public var startedAt: Date
    public var route: [[RoutePoint]]
    public var distanceMetres: Double
    public var steps: Int?
    public var autoPause: Bool
    public var newCells: Set<TownCell>

    public init(_ state: WalkMachine.State) {
        phase =
            switch state.phase {
            case .paused(.person): .pausedByPerson
            case .paused(.stationary): .pausedStationary
            case .recording, .ready, .ended: .recording
            }
        startedAt = state.startedAt ?? Date(timeIntervalSince1970: 0)
        route = state.segments.map { $0.map(RoutePoint.init) }
        distanceMetres = state.distanceMetres
        steps = state.steps
        autoPause = state.autoPause
        newCells = state.newCells
    }

    /// Puts the kept walk into `state`, as under way. A kept fix that is not a valid one any more is
    /// left out rather than losing the walk.
    func apply(to state: inout WalkMachine.State) {
        state.phase =
            switch phase {
            case .recording: .recording
            case .pausedByPerson: .paused(.person)
            case .pausedStationary: .paused(.stationary)
            }
        state.startedAt = startedAt
        state.segments = route.map { segment in segment.compactMap(\.fix) }
        if state.segments.isEmpty { state.segments = [[]] }
        state.distanceMetres = distanceMetres
        state.steps = steps
        state.autoPause = autoPause
        state.newCells = newCells.subtracting(state.paintedBefore)
    }
}

/// A walk as the app keeps it, on the phone: its numbers, its route, and whether Health took it —
/// so that a walk Health refused loses nothing.
public struct StoredWalk: Sendable, Hashable, Codable {
    public var startedAt: Date
    public var endedAt: Date
    public var distanceMetres: Double
    public var steps: Int?
    public var newCells: Int
    /// The route, one segment per stretch between pauses. Kept here and in Health only; never logged,
    /// never sent.
    public var route: [[RoutePoint]]
    /// Nil until Health answered; then whether it saved the workout.
    public var savedToHealth: Bool?

    /// The walk's name in Health: the app's bundle domain and the walk's start, to the millisecond
    /// (one walk at a time starts at any one moment).
    public var syncIdentifier: String {
        "org.petspot.PaintMyTown.walk.\(Int((startedAt.timeIntervalSince1970 * 1000).rounded()))"
    }

    public init(_ summary: WalkSummary, savedToHealth: Bool? = nil) {
        startedAt = summary.startedAt
        endedAt = summary.endedAt
        distanceMetres = summary.distanceMetres
        steps = summary.steps
        newCells = summary.newCells
        route = summary.segments.map { $0.map(RoutePoint.init) }
        self.savedToHealth = savedToHealth
    }

    private enum CodingKeys: String, CodingKey {
        case startedAt, endedAt, distanceMetres, steps, newCells, route, savedToHealth
    }

    /// Reads a walk kept by any version of the app: one kept before routes were kept has none.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        startedAt = try container.decode(Date.self, forKey: .startedAt)
        endedAt = try container.decode(Date.self, forKey: .endedAt)
        distanceMetres = try container.decode(Double.self, forKey: .distanceMetres)
        steps = try container.decodeIfPresent(Int.self, forKey: .steps)
        newCells = try container.decode(Int.self, forKey: .newCells)
        route = try container.decodeIfPresent([[RoutePoint]].self, forKey: .route) ?? []
        savedToHealth = try container.decodeIfPresent(Bool.self, forKey: .savedToHealth)
    }
}

/// One fix of a kept route.
public struct RoutePoint: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double
    public var horizontalAccuracy: Double
    public var timestamp: Date

    public init(_ fix: UserLocation) {
        latitude = fix.latitude
        longitude = fix.longitude
        horizontalAccuracy = fix.horizontalAccuracy
        timestamp = fix.timestamp
    }

    /// The fix again; nil for a point out of range, which only a damaged store can hold.
    public var fix: UserLocation? {
        try? UserLocation(latitude: latitude, longitude: longitude, horizontalAccuracy: horizontalAccuracy, timestamp: timestamp)
    }
}

/// Keeps everything in memory: the simulated iPhone's storage, which outlives a launch of the app
/// as `UserDefaults` does, and the tests'.
@MainActor
public final class InMemoryWalkStorage: WalkStorage {
    public var onboardingCompleted = false
    public var paintedCells: Set<TownCell> = []
    public var walks: [StoredWalk] = []
    public var walkInProgress: WalkInProgress?

    public init() {}
}

/// Keeps everything in `UserDefaults`, as JSON under one key each.
@MainActor
public final class UserDefaultsWalkStorage: WalkStorage {
    private let defaults: UserDefaults
    private let prefix: String

    /// - Parameter defaults: `.standard` in the app.
    public init(defaults: UserDefaults = .standard, prefix: String = "paintMyTown.") {
        self.defaults = defaults
        self.prefix = prefix
    }

    public var onboardingCompleted: Bool {
        get { defaults.bool(forKey: prefix + "onboardingCompleted") }
        set { defaults.set(newValue, forKey: prefix + "onboardingCompleted") }
    }

    public var paintedCells: Set<TownCell> {
        get { decoded(Set<TownCell>.self, "paintedCells") ?? [] }
        set { encode(newValue, "paintedCells") }
    }

    public var walks: [StoredWalk] {
        get { decoded([StoredWalk].self, "walks") ?? [] }
        set { encode(newValue, "walks") }
    }

    public var walkInProgress: WalkInProgress? {
        get { decoded(WalkInProgress.self, "walkInProgress") }
        set {
            guard let newValue else { return defaults.removeObject(forKey: prefix + "walkInProgress") }
            encode(newValue, "walkInProgress")
        }
    }

    /// What is stored under `key`; nil when nothing is. What cannot be read (a newer app's format,
    /// say) starts afresh rather than stopping the app, and is first kept under `<key>.unreadable`, so
    /// that the next write does not lose it.
    private func decoded<Value: Decodable>(_ type: Value.Type, _ key: String) -> Value? {
        guard let data = defaults.data(forKey: prefix + key) else { return nil }
        guard let value = try? JSONDecoder().decode(type, from: data) else {
            if defaults.data(forKey: prefix + key + ".unreadable") == nil {
                defaults.set(data, forKey: prefix + key + ".unreadable")
            }
            return nil
        }
        return value
    }

    private func encode<Value: Encodable>(_ value: Value, _ key: String) {
        // Encoding sets, arrays and numbers of these plain types cannot fail.
        if let data = try? JSONEncoder().encode(value) { defaults.set(data, forKey: prefix + key) }
    }
}
