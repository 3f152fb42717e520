import PetSpotDomain

/// The choices of the app's Location page in Settings.
public enum LocationSettingsChoice: String, Sendable, Equatable, CaseIterable {
    /// "Never".
    case never
    /// "Ask Next Time Or When I Share".
    case askNextTime
    /// "While Using the App".
    case whileUsing
    /// "Always" (offered only when Info.plist has the Always key).
    case always

    var status: LocationPermissionStatus {
        switch self {
        case .never: .denied
        case .askNextTime: .notDetermined
        case .whileUsing: .authorizedWhenInUse
        case .always: .authorizedAlways
        }
    }
}
