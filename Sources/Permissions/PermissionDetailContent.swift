import DeviceInterfaces
/// What the "Learn more" detail of one permission shows.
public struct PermissionDetailContent: Sendable, Equatable {
    public var card: PermissionCard
    public var details: PermissionDetails
    /// For HealthKit: one line per type the app saves, with its write status. Reading is never listed
    /// as allowed or denied, because iOS does not reveal it.
    public var healthLines: [String]

    init(card: PermissionCard, health: HealthAuthorization) {
        self.card = card
        self.details = card.permission.details
        guard card.permission == .healthKit, health.isAvailable else {
            healthLines = []
            return
        }
        var lines = health.writeStatus.keys.sorted().map { type -> String in
            switch health.writeStatus[type] ?? .notDetermined {
            case .sharingAuthorized: "\(type.displayName): saving allowed"
            case .sharingDenied: "\(type.displayName): saving not allowed"
            case .notDetermined: "\(type.displayName): not asked yet"
            }
        }
        lines.append("Reading: iOS does not tell apps whether you allowed it; change it in the Health app.")
        healthLines = lines
    }
}
