/// The HealthKit data types an app of the package may save or read, named by their HealthKit identifiers.
public enum HealthDataType: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    /// `HKWorkoutType`: a walk, saved as a walking workout.
    case workout
    /// `HKSeriesType.workoutRoute()`: the route of such a walk.
    case workoutRoute
    /// `HKQuantityTypeIdentifierStepCount`.
    case stepCount
    /// `HKQuantityTypeIdentifierDistanceWalkingRunning`.
    case distanceWalkingRunning
    /// `HKQuantityTypeIdentifierActiveEnergyBurned`.
    case activeEnergyBurned

    /// The HealthKit identifier string of the type.
    public var identifier: String {
        switch self {
        case .workout: "HKWorkoutTypeIdentifier"
        case .workoutRoute: "HKWorkoutRouteTypeIdentifier"
        case .stepCount: "HKQuantityTypeIdentifierStepCount"
        case .distanceWalkingRunning: "HKQuantityTypeIdentifierDistanceWalkingRunning"
        case .activeEnergyBurned: "HKQuantityTypeIdentifierActiveEnergyBurned"
        }
    }

    /// A short name for screens.
    public var displayName: String {
        switch self {
        case .workout: "Workouts"
        case .workoutRoute: "Workout routes"
        case .stepCount: "Steps"
        case .distanceWalkingRunning: "Walking + running distance"
        case .activeEnergyBurned: "Active energy"
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}

/// The types one HealthKit authorization request covers.
public struct HealthAuthorizationRequest: Sendable, Hashable {
    /// Types the app saves (write).
    public var share: Set<HealthDataType>
    /// Types the app reads. iOS never tells whether reading was allowed.
    public var read: Set<HealthDataType>

    public init(share: Set<HealthDataType>, read: Set<HealthDataType>) {
        self.share = share
        self.read = read
    }

    /// Nothing: what an app with no feature that uses Health asks for.
    public static let nothing = HealthAuthorizationRequest(share: [], read: [])
}
