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

    public var scopes: Set<PlistPermissionScope>
    public var results: [Result]

    /// Requirements that are missing, empty or wrong.
    public var problems: [Result] { results.filter(\.outcome.isProblem) }

    public var hasProblems: Bool { !problems.isEmpty }

    /// A readable report, one line per requirement, each problem with what iOS then does.
    public func rendered() -> String {
        var lines = ["Checked permissions: " + scopes.sorted().map(\.rawValue).joined(separator: ", ")]
        for result in results {
            let requirement = result.requirement
            let file = requirement.source.rawValue
            switch result.outcome {
            case .satisfied:
                lines.append("ok       \(requirement.key)")
            case .notChecked:
                lines.append("skipped  \(requirement.key): no \(file) file given (--entitlements), not checked")
            case let outcome:
                lines.append("\(Self.label(outcome)) \(requirement.key) in \(file)\(Self.detail(outcome))")
                lines.append("         on iOS: \(requirement.consequence)")
            }
        }
        let count = problems.count
        lines.append(count == 0 ? "All required keys are present." : "\(count) problem\(count == 1 ? "" : "s") found.")
        return lines.joined(separator: "\n")
    }

    private static func label(_ outcome: Outcome) -> String {
        switch outcome {
        case .missing: "MISSING "
        case .empty, .emptyEntries: "EMPTY   "
        case .disabled: "DISABLED"
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
