/// What one app of the package is for, feature by feature, and which permissions each feature uses.
///
/// This is the one map from feature to permission: `petspot check-plist --app` reads it to check an
/// app's Info.plist, entitlements and linked frameworks both ways — every permission a feature uses has
/// its purpose string, and no purpose string, entitlement or permission framework is there that no
/// feature uses. App Review rejects the second as surely as iOS punishes the first (guideline 2.5.1
/// for HealthKit without a health or fitness feature, 5.1.1(iii) for access to data the app does not
/// need, ITMS-90683 for a linked framework without its purpose string).
public struct AppManifest: Sendable, Hashable, Identifiable {
    /// One thing the person can do with the app, and the permissions it needs.
    public struct Feature: Sendable, Hashable {
        /// What the person does, in a few words.
        public var name: String
        /// The permissions it uses (none for a feature that needs no permission).
        public var uses: Set<PlistPermissionScope>

        public init(_ name: String, uses: Set<PlistPermissionScope>) {
            self.name = name
            self.uses = uses
        }
    }

    /// The name `--app` and scenario files give it: `petspot`, `paintmytown`.
    public var id: String
    /// The name under the icon.
    public var displayName: String
    /// Its target in `App/project.yml`.
    public var xcodeTarget: String
    public var bundleIdentifier: String
    public var features: [Feature]
    /// What it asks HealthKit for, when a feature uses Health.
    public var healthRequest: HealthAuthorizationRequest?
    /// The background modes (`UIBackgroundModes`) its features need: `location` for an app that
    /// goes on recording after the person leaves it.
    public var backgroundModes: Set<String>

    public init(
        id: String,
        displayName: String,
        xcodeTarget: String,
        bundleIdentifier: String,
        features: [Feature],
        healthRequest: HealthAuthorizationRequest? = nil,
        backgroundModes: Set<String> = []
    ) {
        self.id = id
        self.displayName = displayName
        self.xcodeTarget = xcodeTarget
        self.bundleIdentifier = bundleIdentifier
        self.features = features
        self.healthRequest = healthRequest
        self.backgroundModes = backgroundModes
    }

    /// Every permission some feature uses.
    public var scopes: Set<PlistPermissionScope> {
        features.reduce(into: []) { $0.formUnion($1.uses) }
    }

    /// The features that use `scope`, by name.
    public func features(using scope: PlistPermissionScope) -> [String] {
        features.filter { $0.uses.contains(scope) }.map(\.name)
    }

    /// The keys the app's features need, in the order reports list them.
    ///
    /// Health counts as one permission: App Store Connect asks for both Health purpose strings of an
    /// app that links HealthKit or holds its entitlement, whatever it reads or saves (ITMS-90683).
    public var requirements: [InfoPlistRequirement] {
        InfoPlistRequirement.all.filter { !$0.scopes.isDisjoint(with: scopes) }
    }

    /// The adoption app of the spec: the listing of pets near the person, with location While Using
    /// only and the one-time precise-location purpose for sorting by distance.
    public static let petSpot = AppManifest(
        id: "petspot",
        displayName: "PetSpot",
        xcodeTarget: "PetSpot",
        bundleIdentifier: "org.petspot.PetSpot",
        features: [
            Feature("list the pets nearest to the person first", uses: [.location]),
            Feature("list every pet without a position", uses: []),
        ]
    )

    /// The walking app of the permissions guide: a walk recorded with its route, paused when the
    /// person stops, saved to Health, and the town painted by the streets walked.
    public static let paintMyTown = AppManifest(
        id: "paintmytown",
        displayName: "Paint My Town",
        xcodeTarget: "PaintMyTown",
        bundleIdentifier: "org.petspot.PaintMyTown",
        features: [
            Feature("record a walk's route", uses: [.location]),
            Feature("go on recording a walk after iOS ends the app", uses: [.always]),
            Feature("pause a walk when the person stops, count its steps", uses: [.motion]),
            Feature("save a walk to Health as a walking workout with its route", uses: [.health]),
        ],
        healthRequest: .paintMyTown,
        backgroundModes: ["location"]
    )

    /// Every app of the package.
    public static let all: [AppManifest] = [.petSpot, .paintMyTown]

    /// The app `id` names, or nil.
    public static func named(_ id: String) -> AppManifest? {
        all.first { $0.id == id.lowercased() }
    }
}

extension PlistPermissionScope {
    /// The Apple framework whose use needs this permission's purpose string.
    public var framework: String {
        switch self {
        case .location, .always: "CoreLocation"
        case .motion: "CoreMotion"
        case .health: "HealthKit"
        }
    }

    /// The permissions a framework's use asks for, none when it needs no purpose string.
    public static func scopes(ofFramework framework: String) -> Set<PlistPermissionScope> {
        Set(allCases.filter { $0.framework == framework })
    }
}

extension HealthAuthorizationRequest {
    /// What Paint My Town asks for: to save a walk as a workout with its route, distance and steps.
    /// It reads nothing: the town is painted from the walks it recorded itself, so asking to read
    /// Health would be access no feature uses (guideline 5.1.1(iii)).
    public static let paintMyTown = HealthAuthorizationRequest(
        share: [.workout, .workoutRoute, .distanceWalkingRunning, .stepCount],
        read: []
    )
}
