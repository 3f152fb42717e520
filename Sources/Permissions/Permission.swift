import DeviceInterfaces
/// A permission an app of the package may ask for; which it does is its manifest's (`AppManifest`).
public enum Permission: String, Sendable, Hashable, CaseIterable, Codable, Identifiable {
    /// Where the person is (CoreLocation): PetSpot's pets nearby, Paint My Town's route.
    case location
    /// Motion & Fitness activity and steps (CoreMotion): Paint My Town's auto-pause and step count.
    case motion
    /// Apple Health: Paint My Town saves its walks there as workouts.
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
