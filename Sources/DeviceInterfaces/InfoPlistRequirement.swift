/// One key iOS needs before a permission can be asked for, and what iOS does without it.
public struct InfoPlistRequirement: Sendable, Hashable {
    /// Which file holds the key.
    public enum Source: String, Sendable, Hashable {
        case infoPlist = "Info.plist"
        case entitlements
    }

    /// What the value must be.
    public enum Expectation: String, Sendable, Hashable {
        /// A non-empty text shown to the person.
        case text
        /// A non-empty dictionary of purpose keys to non-empty texts.
        case textDictionary
        /// The boolean `true`.
        case enabledFlag
        /// An array of strings.
        case textArray
    }

    public var key: String
    public var source: Source
    public var expectation: Expectation
    public var scopes: Set<PlistPermissionScope>
    /// What iOS does when the key is missing or empty.
    public var consequence: String
    /// Whether iOS terminates the app (rather than silently doing nothing).
    public var crashesWhenMissing: Bool

    public init(
        key: String,
        source: Source = .infoPlist,
        expectation: Expectation = .text,
        scopes: Set<PlistPermissionScope>,
        consequence: String,
        crashesWhenMissing: Bool
    ) {
        self.key = key
        self.source = source
        self.expectation = expectation
        self.scopes = scopes
        self.consequence = consequence
        self.crashesWhenMissing = crashesWhenMissing
    }

    public static let locationWhenInUse = InfoPlistRequirement(
        key: "NSLocationWhenInUseUsageDescription",
        scopes: [.location, .always],
        consequence: "location requests silently do nothing: no alert, no callback, the status stays notDetermined",
        crashesWhenMissing: false
    )
    public static let locationAlways = InfoPlistRequirement(
        key: "NSLocationAlwaysAndWhenInUseUsageDescription",
        scopes: [.always],
        consequence: "requestAlwaysAuthorization() silently does nothing: no prompt, no callback",
        crashesWhenMissing: false
    )
    public static let locationTemporaryFullAccuracy = InfoPlistRequirement(
        key: "NSLocationTemporaryUsageDescriptionDictionary",
        expectation: .textDictionary,
        scopes: [.location],
        consequence: "temporary precise-location requests fail at once with promptDeclined, no prompt",
        crashesWhenMissing: false
    )
    public static let motion = InfoPlistRequirement(
        key: "NSMotionUsageDescription",
        scopes: [.motion],
        consequence: "the app crashes on its first Motion & Fitness access",
        crashesWhenMissing: true
    )
    public static let healthShare = InfoPlistRequirement(
        key: "NSHealthShareUsageDescription",
        scopes: [.health],
        consequence: "the app crashes (NSInvalidArgumentException) when it asks to read Health data",
        crashesWhenMissing: true
    )
    public static let healthUpdate = InfoPlistRequirement(
        key: "NSHealthUpdateUsageDescription",
        scopes: [.health],
        consequence: "the app crashes (NSInvalidArgumentException) when it asks to save Health data",
        crashesWhenMissing: true
    )
    public static let healthEntitlement = InfoPlistRequirement(
        key: "com.apple.developer.healthkit",
        source: .entitlements,
        expectation: .enabledFlag,
        scopes: [.health],
        consequence: "HealthKit authorization fails with a missing-entitlement error; nothing can be asked",
        crashesWhenMissing: false
    )

    /// Every requirement, in the order reports list them.
    public static let all: [InfoPlistRequirement] = [
        .locationWhenInUse, .locationAlways, .locationTemporaryFullAccuracy,
        .motion, .healthShare, .healthUpdate, .healthEntitlement,
    ]

    /// Keys that no permission needs but that belong to one: an app none of whose features uses the
    /// permission must not carry them either (`petspot check-plist --app` refuses them).
    public static let related: [InfoPlistRequirement] = [
        InfoPlistRequirement(
            key: "NSLocationAlwaysUsageDescription",
            scopes: [.always],
            consequence: "nothing since iOS 11, which reads NSLocationAlwaysAndWhenInUseUsageDescription instead",
            crashesWhenMissing: false
        ),
        InfoPlistRequirement(
            key: "NSHealthClinicalHealthRecordsShareUsageDescription",
            scopes: [.health],
            consequence: "the app crashes when it asks to read clinical records",
            crashesWhenMissing: true
        ),
        InfoPlistRequirement(
            key: "com.apple.developer.healthkit.access",
            source: .entitlements,
            expectation: .textArray,
            scopes: [.health],
            consequence: "clinical health records cannot be asked for",
            crashesWhenMissing: false
        ),
    ]
}
