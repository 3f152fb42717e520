import Foundation
import PetSpotDomain

/// What recording a walk uses of CoreLocation (iOS 17 and later): a background activity session and
/// live updates tuned for fitness. Main-actor isolated like the model that records the walk.
@MainActor
public protocol WalkLocationTracking: AnyObject, Sendable {
    /// `CLBackgroundActivitySession()`: while it lives, live updates go on after the person leaves the
    /// app, with iOS's location indicator showing. It must begin while the app is in use. From iOS 18 it
    /// also holds a `CLServiceSession(authorization: .whenInUse)` until invalidated: with
    /// `NSLocationRequireExplicitServiceSession` in Info.plist, live updates come only while the app
    /// holds a service session (rule 31).
    func beginBackgroundActivity() -> any BackgroundActivity
    /// `CLLocationUpdate.liveUpdates(.fitness)`: fixes as the person moves, until the consumer stops.
    func walkUpdates() -> AsyncStream<LocationUpdate>
    /// `startMonitoringSignificantLocationChanges()`: should iOS end the app while a walk is under way,
    /// it relaunches the app in the background once the person has moved on, if they allowed location
    /// Always (rule 35). With While Using it does nothing of the kind; the app asks all the same and
    /// lets iOS decide. Stays on across launches until ``stopRelaunchMonitoring()``.
    func startRelaunchMonitoring()
    /// `stopMonitoringSignificantLocationChanges()`.
    func stopRelaunchMonitoring()
}

/// A `CLBackgroundActivitySession` the app holds.
@MainActor
public protocol BackgroundActivity: AnyObject, Sendable {
    /// `invalidate()`: background location ends with it.
    func invalidate()
}

/// What a walk uses of CoreMotion: activity updates (to pause when the person stops) and the
/// pedometer. Both need the Motion & Fitness permission.
@MainActor
public protocol WalkMotionTracking: AnyObject, Sendable {
    /// `CMMotionActivityManager.startActivityUpdates(to:withHandler:)`, until the consumer stops.
    func activityUpdates() -> AsyncStream<MotionActivity>
    /// `CMPedometer.startUpdates(from:withHandler:)`: the steps since `start`, until the consumer stops.
    func stepUpdates(from start: Date) -> AsyncStream<Int>
}

/// A walk as saved to Health: a walking workout, outdoors, with its distance, steps and route.
public struct WalkWorkout: Sendable, Hashable {
    public var start: Date
    public var end: Date
    public var distanceMetres: Double
    /// Nil when the pedometer was not used (no Motion & Fitness).
    public var steps: Int?
    /// The route, one segment per stretch between pauses.
    public var route: [[UserLocation]]
    /// Names this walk in Health (`HKMetadataKeySyncIdentifier`): one walk is one workout there, however
    /// often it is saved.
    public var syncIdentifier: String
    /// Greater at each save of the same walk (`HKMetadataKeySyncVersion`): a save that the app made
    /// again after its process ended mid-save replaces whatever the first one left, never adds a second.
    public var syncVersion: Int

    public init(
        start: Date, end: Date, distanceMetres: Double, steps: Int?, route: [[UserLocation]],
        syncIdentifier: String, syncVersion: Int
    ) {
        self.start = start
        self.end = end
        self.distanceMetres = distanceMetres
        self.steps = steps
        self.route = route
        self.syncIdentifier = syncIdentifier
        self.syncVersion = syncVersion
    }
}

/// What saving a walk uses of HealthKit: `HKWorkoutBuilder` for the workout and its samples, and
/// `HKWorkoutRouteBuilder` for its route.
@MainActor
public protocol WorkoutSaving: AnyObject, Sendable {
    /// Saves `workout`; throws when Health will not take it (nothing is saved then).
    func saveWalk(_ workout: WalkWorkout) async throws(WorkoutSaveError)
}

/// Why a walk was not saved to Health.
public enum WorkoutSaveError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The person did not allow saving workouts (`HKError.errorAuthorizationDenied`), or was never asked
    /// (`errorAuthorizationNotDetermined`).
    case notAuthorized
    /// This device has no Health data (`HKHealthStore.isHealthDataAvailable()` is false).
    case unavailable
    /// Any other HealthKit error, by its description.
    case failed(String)

    /// The reason in logs: `notAuthorized`, `unavailable`, `failed`.
    public var reason: String {
        switch self {
        case .notAuthorized: "notAuthorized"
        case .unavailable: "unavailable"
        case .failed: "failed"
        }
    }

    public var description: String {
        switch self {
        case .notAuthorized: "saving workouts to Health is not allowed"
        case .unavailable: "this device has no Health data"
        case .failed(let message): "Health did not save the workout: \(message)"
        }
    }
}
