import DeviceInterfaces
import PetSpotDomain

/// Where the app stands with one permission.
public enum PermissionState: String, Sendable, Hashable, CaseIterable, Codable {
    /// Not asked yet: a request may show the system prompt.
    case notDetermined
    /// The person said no; only Settings can change it.
    case denied
    /// Allowed (for location: While Using or Always; for Health: at least saving is allowed).
    case authorized
    /// Parental controls, device management or a system-wide switch forbid it.
    case restricted
    /// The hardware or the OS does not offer it (no motion coprocessor, no Health data on this device).
    case unavailable

    public var isAuthorized: Bool { self == .authorized }

    /// Whether asking could show a system prompt.
    public var canRequest: Bool { self == .notDetermined }

    /// Whether the person can change it on the app's page in Settings.
    public var isChangeableInSettings: Bool { self == .denied || self == .authorized }

    /// The permission state of a location authorization status.
    public init(_ status: LocationPermissionStatus) {
        switch status {
        case .notDetermined: self = .notDetermined
        case .authorizedWhenInUse, .authorizedAlways: self = .authorized
        case .denied: self = .denied
        case .restricted: self = .restricted
        }
    }
}

extension MotionAuthorizationStatus {
    /// The permission state this status means, given whether activity data exists at all.
    public func permissionState(isActivityAvailable: Bool) -> PermissionState {
        guard isActivityAvailable else { return .unavailable }
        switch self {
        case .notDetermined: return .notDetermined
        case .restricted: return .restricted
        case .denied: return .denied
        case .authorized: return .authorized
        }
    }
}
