/// What the permission manager uses of `HKHealthStore`, in domain types only.
///
/// Main-actor isolated like the permission manager; live adapters hop back to the main actor from
/// HealthKit's background completion queue.
@MainActor
public protocol HealthAuthorizing: AnyObject, Sendable {
    /// `HKHealthStore.isHealthDataAvailable()`: false on iPadOS 16 and earlier and on macOS (rule 23).
    var isHealthDataAvailable: Bool { get }
    /// `authorizationStatus(for:)`: the WRITE (share) permission only (rule 24).
    func authorizationStatus(for type: HealthDataType) -> HealthShareStatus
    /// `getRequestStatusForAuthorization(toShare:read:)`: whether a sheet would appear (rule 26).
    func requestStatus(toShare share: Set<HealthDataType>, read: Set<HealthDataType>) async throws
        -> HealthRequestStatus
    /// `requestAuthorization(toShare:read:)`: shows the sheet for undecided types. Returns HealthKit's
    /// `success`, which is true whether or not anything was granted (rule 25).
    func requestAuthorization(toShare share: Set<HealthDataType>, read: Set<HealthDataType>) async throws
        -> Bool
}

/// A domain mirror of `HKAuthorizationStatus`: the permission to SAVE one type.
public enum HealthShareStatus: String, Sendable, Hashable, CaseIterable, Codable {
    case notDetermined
    case sharingDenied
    case sharingAuthorized

    /// Maps a raw `HKAuthorizationStatus` (notDetermined 0, sharingDenied 1, sharingAuthorized 2);
    /// unknown values read as `.notDetermined`.
    public init(rawAuthorizationStatus raw: Int) {
        switch raw {
        case 1: self = .sharingDenied
        case 2: self = .sharingAuthorized
        default: self = .notDetermined
        }
    }

    /// The raw `HKAuthorizationStatus` value.
    public var rawAuthorizationStatus: Int {
        switch self {
        case .notDetermined: 0
        case .sharingDenied: 1
        case .sharingAuthorized: 2
        }
    }
}

/// A domain mirror of `HKAuthorizationRequestStatus`: would asking show a sheet?
public enum HealthRequestStatus: String, Sendable, Hashable, CaseIterable, Codable {
    /// HealthKit could not tell (an error occurred).
    case unknown
    /// Some type is undecided: a request shows the sheet.
    case shouldRequest
    /// Every type is decided: a request completes at once without UI.
    case unnecessary

    /// Maps a raw `HKAuthorizationRequestStatus` (unknown 0, shouldRequest 1, unnecessary 2).
    public init(rawRequestStatus raw: Int) {
        switch raw {
        case 1: self = .shouldRequest
        case 2: self = .unnecessary
        default: self = .unknown
        }
    }

    /// The raw `HKAuthorizationRequestStatus` value.
    public var rawRequestStatus: Int {
        switch self {
        case .unknown: 0
        case .shouldRequest: 1
        case .unnecessary: 2
        }
    }
}
