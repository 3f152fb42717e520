import DeviceInterfaces
/// The result of checking property lists against permission requirements.
public struct PlistCheckReport: Sendable, Equatable {
    /// How one requirement fared.
    public enum Outcome: Sendable, Equatable {
        case satisfied
        case missing
        /// Present but empty or only whitespace.
        case empty
        /// A dictionary whose listed entries are empty or not text.
        case emptyEntries([String])
        /// A flag that is present but false.
        case disabled
        case wrongType(expected: String, found: String)
        /// Its file was not given (entitlements), so it could not be checked.
        case notChecked
        /// An app was checked whose features need this key, and its file (entitlements) was not given:
        /// the check cannot vouch for what it was not shown.
        case fileNotGiven
        /// Present although no feature of the app uses its permission.
        case unused

        /// Whether this outcome makes the check fail.
        public var isProblem: Bool {
            switch self {
            case .satisfied, .notChecked: false
            default: true
            }
        }
    }

    public struct Result: Sendable, Equatable {
        public var requirement: InfoPlistRequirement
        public var outcome: Outcome
    }

    /// How one linked framework that needs a purpose string fared.
    public enum FrameworkOutcome: Sendable, Equatable {
        /// A feature uses it and its purpose strings are there.
        case used
        /// No feature of the app uses its permissions (listed).
        case usedByNoFeature([PlistPermissionScope])
        /// A feature uses it but these purpose strings are missing or empty: App Store Connect
        /// refuses the upload (ITMS-90683).
        case withoutPurposeString([String])

        public var isProblem: Bool { self != .used }
    }

    public struct FrameworkResult: Sendable, Equatable {
        public var framework: String
        /// What links it: `sdk`, or the package products that import it.
        public var via: [String]
        public var outcome: FrameworkOutcome
        public init(framework: String, via: [String], outcome: FrameworkOutcome) {
            self.framework = framework
            self.via = via
            self.outcome = outcome
        }
    }

    /// How one background mode fared.
    public enum BackgroundModeOutcome: Sendable, Equatable {
        case used
        /// A feature needs it and `UIBackgroundModes` lacks it.
        case missing
        /// In `UIBackgroundModes` although no feature needs it.
        case unused
    }

    public struct BackgroundModeResult: Sendable, Equatable {
        public var mode: String
        public var outcome: BackgroundModeOutcome
        public init(mode: String, outcome: BackgroundModeOutcome) {
            self.mode = mode
            self.outcome = outcome
        }
    }

    public var scopes: Set<PlistPermissionScope>
    public var results: [Result]
    /// `UIBackgroundModes` against what the app's features need; empty unless an app was checked.
    public var backgroundModes: [BackgroundModeResult] = []
    /// The app checked both ways, or nil when only permissions were named.
    public var app: AppManifest?
    /// The permission frameworks the app's target links, or nil when its project was not checked.
    public var frameworks: [FrameworkResult]?

    /// Requirements that are missing, empty, wrong or unused.
    public var problems: [Result] { results.filter(\.outcome.isProblem) }

    /// Linked frameworks that no feature uses or whose purpose strings are missing.
    public var frameworkProblems: [FrameworkResult] { (frameworks ?? []).filter(\.outcome.isProblem) }

    /// Background modes that a feature needs but are missing, or that no feature needs.
    public var backgroundModeProblems: [BackgroundModeResult] { backgroundModes.filter { $0.outcome != .used } }

    public var hasProblems: Bool { !problems.isEmpty || !frameworkProblems.isEmpty || !backgroundModeProblems.isEmpty }

    /// A readable report, one line per requirement, each problem with what iOS then does.
    public func rendered() -> String {
        var lines: [String] = []
        if let app {
            lines.append("App: \(app.displayName) (\(app.id)); its features and the permissions they use:")
            for feature in app.features {
                let uses = feature.uses.sorted().map(\.rawValue).joined(separator: ", ")
                lines.append("  \(feature.name): \(uses.isEmpty ? "none" : uses)")
            }
        }
        lines.append("Checked permissions: " + scopes.sorted().map(\.rawValue).joined(separator: ", "))
        for result in results {
            let requirement = result.requirement
            let file = requirement.source.rawValue
            switch result.outcome {
            case .satisfied:
                lines.append("ok       \(requirement.key)")
            case .notChecked:
                lines.append("skipped  \(requirement.key): no \(file) file given (--entitlements), not checked")
            case .fileNotGiven:
                lines.append("MISSING  \(requirement.key): \(app?.displayName ?? "the app") needs it, and no \(file) file was given (--entitlements)")
                lines.append("         on iOS: \(requirement.consequence)")
            case .unused:
                let unusedScopes = requirement.scopes.sorted().map(\.rawValue).joined(separator: " or ")
                lines.append("UNUSED   \(requirement.key) in \(file)")
                lines.append("         no feature of \(app?.displayName ?? "the app") uses \(unusedScopes): \(Self.review(requirement.scopes))")
            case let outcome:
                lines.append("\(Self.label(outcome)) \(requirement.key) in \(file)\(Self.detail(outcome))")
                lines.append("         on iOS: \(requirement.consequence)")
            }
        }
        for result in backgroundModes {
            switch result.outcome {
            case .used:
                lines.append("ok       UIBackgroundModes: \(result.mode)")
            case .missing:
                lines.append("MISSING  UIBackgroundModes: \(result.mode) in Info.plist")
                lines.append("         on iOS: the app's \(result.mode) work stops when the person leaves it")
            case .unused:
                lines.append("UNUSED   UIBackgroundModes: \(result.mode) in Info.plist")
                lines.append("         no feature of \(app?.displayName ?? "the app") runs in the background: App Review rejects background modes no feature needs (guideline 2.5.4)")
            }
        }
        if let frameworks {
            lines.append("Linked frameworks that need a purpose string:")
            if frameworks.isEmpty { lines.append("         none") }
            for result in frameworks {
                let name = "\(result.framework) (via \(result.via.joined(separator: ", ")))"
                switch result.outcome {
                case .used:
                    lines.append("ok       \(name)")
                case .usedByNoFeature(let scopes):
                    lines.append("UNUSED   \(name)")
                    let uses = scopes.map(\.rawValue).joined(separator: " or ")
                    lines.append("         no feature of \(app?.displayName ?? "the app") uses \(uses): \(Self.review(Set(scopes)))")
                case .withoutPurposeString(let keys):
                    lines.append("MISSING  \(name) needs \(keys.joined(separator: " and ")) in Info.plist")
                    lines.append("         App Store Connect refuses the upload (ITMS-90683), even if the app never calls it")
                }
            }
        }
        let count = problems.count + frameworkProblems.count + backgroundModeProblems.count
        let done = app == nil ? "All required keys are present." : "Every permission has its feature, and every feature its keys."
        lines.append(count == 0 ? done : "\(count) problem\(count == 1 ? "" : "s") found.")
        return lines.joined(separator: "\n")
    }

    /// What App Review says of access no feature uses.
    private static func review(_ scopes: Set<PlistPermissionScope>) -> String {
        scopes.contains(.health)
            ? "App Review rejects HealthKit in an app without a health or fitness feature (guideline 2.5.1)"
            : "App Review rejects asking for data no feature needs (guideline 5.1.1(iii))"
    }

    private static func label(_ outcome: Outcome) -> String {
        switch outcome {
        case .missing: "MISSING "
        case .empty, .emptyEntries: "EMPTY   "
        case .disabled: "DISABLED"
        case .unused: "UNUSED  "
        default: "INVALID "
        }
    }

    private static func detail(_ outcome: Outcome) -> String {
        switch outcome {
        case .emptyEntries(let keys): " (empty or non-text entries: \(keys.joined(separator: ", ")))"
        case .disabled: " (set to false)"
        case .wrongType(let expected, let found): " (expected \(expected), found \(found))"
        default: ""
        }
    }
}
