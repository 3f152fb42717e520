/// Where the app stands with location permission: a domain mirror of `CLAuthorizationStatus`.
public enum LocationPermissionStatus: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    /// The person has not been asked yet (or an "Allow Once" grant has lapsed).
    case notDetermined
    /// "Allow While Using App" or "Allow Once"; iOS does not tell the two apart.
    case authorizedWhenInUse
    /// "Always", including the provisional Always of iOS 13+.
    case authorizedAlways
    /// The person said no, or Location Services are off for the whole device.
    case denied
    /// Parental controls or device management forbid it; the person cannot change it.
    case restricted

    /// Whether a location may be requested.
    public var isAuthorized: Bool {
        self == .authorizedWhenInUse || self == .authorizedAlways
    }

    /// Maps a raw `CLAuthorizationStatus` value (notDetermined 0, restricted 1, denied 2,
    /// authorizedAlways 3, authorizedWhenInUse 4). Unknown values mean "not determined", the safe
    /// reading: the app asks instead of assuming a grant.
    public init(rawAuthorizationStatus raw: Int32) {
        switch raw {
        case 1: self = .restricted
        case 2: self = .denied
        case 3: self = .authorizedAlways
        case 4: self = .authorizedWhenInUse
        default: self = .notDetermined
        }
    }

    /// The raw `CLAuthorizationStatus` value of this status.
    public var rawAuthorizationStatus: Int32 {
        switch self {
        case .notDetermined: 0
        case .restricted: 1
        case .denied: 2
        case .authorizedAlways: 3
        case .authorizedWhenInUse: 4
        }
    }
}

/// Whether the person lets the app have precise fixes (`CLAccuracyAuthorization`).
public enum LocationAccuracyAuthorization: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    /// "Precise Location" on.
    case fullAccuracy
    /// "Precise Location" off: fixes are approximate, 1–20 km off.
    case reducedAccuracy

    /// Maps a raw `CLAccuracyAuthorization` value (fullAccuracy 0, reducedAccuracy 1); unknown values
    /// read as reduced, the cautious choice.
    public init(rawAccuracyAuthorization raw: Int) {
        self = raw == 0 ? .fullAccuracy : .reducedAccuracy
    }
}
