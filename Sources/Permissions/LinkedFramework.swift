import DeviceInterfaces

/// An Apple framework an app links, and what links it.
public struct LinkedFramework: Sendable, Hashable {
    /// `CoreMotion`
    public var name: String
    /// What brings it in: `sdk` for a framework the target names, or the package product that
    /// imports it.
    public var via: String

    public init(name: String, via: String) {
        self.name = name
        self.via = via
    }

    /// The Apple frameworks that need a purpose string, imported by each product of this package.
    /// A Swift `import` links its framework automatically, so an app target linking `PlatformLive`
    /// links CoreLocation without naming it. `LinkedFrameworkTests` keeps this map equal to the
    /// imports in `Sources/`.
    public static let importedByPackageProduct: [String: [String]] = [
        "PlatformLive": ["CoreLocation"],
        "PlatformLiveFitness": ["CoreLocation", "CoreMotion", "HealthKit"],
    ]

    /// Everything an XcodeGen target links that may need a purpose string: its SDK frameworks and
    /// what its package products import.
    public static func linked(by target: XcodeGenTarget) -> [LinkedFramework] {
        let named = target.sdkFrameworks.map { LinkedFramework(name: $0, via: "sdk") }
        let imported = target.products.flatMap { product in
            (importedByPackageProduct[product] ?? []).map { LinkedFramework(name: $0, via: product) }
        }
        return named + imported
    }

    /// The purpose strings App Store Connect asks for when an app links `framework` (ITMS-90683),
    /// whether or not the app ever calls it.
    public static func purposeStrings(of framework: String) -> [InfoPlistRequirement] {
        switch framework {
        case "CoreLocation": [.locationWhenInUse]
        case "CoreMotion": [.motion]
        case "HealthKit": [.healthShare, .healthUpdate]
        default: []
        }
    }
}
