import DeviceInterfaces
/// Checks an Info.plist (and optionally an entitlements file) against the requirements of the
/// permissions an app asks for. The logic behind `petspot check-plist`.
public struct PlistRequirementsChecker: Sendable {
    public var requirements: [InfoPlistRequirement]

    public init(requirements: [InfoPlistRequirement] = InfoPlistRequirement.all) {
        self.requirements = requirements
    }

    /// Checks every requirement of `scopes`.
    /// - Parameters:
    ///   - infoPlist: the app's Info.plist.
    ///   - entitlements: the app's entitlements, or nil when none was given (entitlement requirements
    ///     are then reported as not checked, which is not a failure).
    ///   - scopes: the permissions the app asks for.
    public func check(
        infoPlist: PropertyList,
        entitlements: PropertyList?,
        scopes: Set<PlistPermissionScope>
    ) -> PlistCheckReport {
        let relevant = requirements.filter { !$0.scopes.isDisjoint(with: scopes) }
        let results = relevant.map { requirement -> PlistCheckReport.Result in
            let file: PropertyList?
            switch requirement.source {
            case .infoPlist: file = infoPlist
            case .entitlements: file = entitlements
            }
            guard let file else { return .init(requirement: requirement, outcome: .notChecked) }
            return .init(requirement: requirement, outcome: Self.outcome(of: file[requirement.key], for: requirement))
        }
        return PlistCheckReport(scopes: scopes, results: results)
    }

    /// Checks the keys of one permission in an app's Info.plist (no entitlements).
    public func missingKeys(for permission: Permission, in infoPlist: PropertyList) -> [String] {
        check(infoPlist: infoPlist, entitlements: nil, scopes: permission.scopes)
            .problems.map(\.requirement.key)
    }

    /// Whether `infoPlist` has `requirement` as iOS needs it (present, right type, not empty).
    public static func isSatisfied(_ requirement: InfoPlistRequirement, in infoPlist: PropertyList) -> Bool {
        !outcome(of: infoPlist[requirement.key], for: requirement).isProblem
    }

    static func outcome(
        of value: PropertyList.Value?,
        for requirement: InfoPlistRequirement
    ) -> PlistCheckReport.Outcome {
        guard let value else { return .missing }
        switch (requirement.expectation, value) {
        case (.text, .string(let text)):
            return text.isBlank ? .empty : .satisfied
        case (.textDictionary, .dictionary(let entries)):
            if entries.isEmpty { return .empty }
            let blank = entries.filter { key, value in
                if case .string(let text) = value { return text.isBlank }
                return true
            }.keys.sorted()
            return blank.isEmpty ? .satisfied : .emptyEntries(blank)
        case (.enabledFlag, .bool(let flag)):
            return flag ? .satisfied : .disabled
        default:
            return .wrongType(expected: requirement.expectation.typeName, found: value.typeName)
        }
    }
}

extension InfoPlistRequirement.Expectation {
    var typeName: String {
        switch self {
        case .text: "string"
        case .textDictionary: "dictionary of strings"
        case .enabledFlag: "boolean"
        }
    }
}

extension String {
    var isBlank: Bool { allSatisfy(\.isWhitespace) }
}
