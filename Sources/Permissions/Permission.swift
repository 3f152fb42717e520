import DeviceInterfaces
/// A permission PetSpot may ask for.
public enum Permission: String, Sendable, Hashable, CaseIterable, Codable, Identifiable {
    /// Where the person is, to list pets nearby (CoreLocation).
    case location
    /// Motion & Fitness activity (CoreMotion), to tell a walk from a drive.
    case motion
    /// Apple Health, to save walks with a pet as workouts.
    case healthKit

    public var id: String { rawValue }

    /// The SF Symbol shown on the permission's card.
    public var symbolName: String {
        switch self {
        case .location: "location.fill"
        case .motion: "figure.walk"
        case .healthKit: "heart.fill"
        }
    }

    /// The Info.plist keys and entitlements iOS needs before this permission can be asked for.
    public var requirements: [InfoPlistRequirement] {
        InfoPlistRequirement.all.filter { !$0.scopes.isDisjoint(with: scopes) }
    }

    /// The `check-plist` scopes that make up this permission (location includes the Always step).
    public var scopes: Set<PlistPermissionScope> {
        switch self {
        case .location: [.location, .always]
        case .motion: [.motion]
        case .healthKit: [.health]
        }
    }
}
