import Localization

/// Why a permission request could not even be made.
public enum PermissionRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Info.plist lacks a usage description iOS requires. For Motion and HealthKit iOS would crash the
    /// app; for location it would silently do nothing. The manager refuses to ask instead.
    case missingUsageDescription(Permission, keys: [String])
    /// The system reported an error the manager cannot translate into a state; the text is the
    /// error's `localizedDescription`, in the person's language where the system has one.
    case systemError(Permission, String)

    /// For logs and developers, in English apart from a system error's own text (which iOS gives in
    /// the device's language); ``message(_:_:)`` is what a person reads.
    public var description: String {
        switch self {
        case .missingUsageDescription(let permission, let keys):
            "cannot ask for \(permission.title(.english)): Info.plist lacks \(keys.joined(separator: ", "))"
        case .systemError(let permission, let message):
            "\(permission.title(.english)) request failed: \(message)"
        }
    }
}

/// What came of asking to upgrade location to Always.
public enum LocationAlwaysOutcome: Sendable, Hashable {
    /// The person chose "Change to Always Allow".
    case upgraded
    /// Still While Using: the person chose "Keep Only While Using" (iOS sends no callback), or the grant
    /// was "Allow Once" and iOS ignored the request; no API tells these apart.
    case stayedWhenInUse
    /// Already Always; nothing was asked.
    case alreadyAlways
    /// Location is not determined: ask for When-In-Use first, Always is a separate second step.
    case needsWhenInUseFirst
    /// The one Always request of this install was already made; iOS would ignore another. Settings is
    /// the only way now.
    case alreadyAskedOnce
    /// Denied or restricted: nothing can be asked.
    case notAllowed(PermissionState)
}
