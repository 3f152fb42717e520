/// The permission groups `petspot check-plist --permissions` understands.
public enum PlistPermissionScope: String, Sendable, Hashable, CaseIterable, Codable, Comparable {
    /// When-In-Use location, and temporary full accuracy.
    case location
    /// The upgrade to Always.
    case always
    /// Motion & Fitness.
    case motion
    /// HealthKit.
    case health

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
