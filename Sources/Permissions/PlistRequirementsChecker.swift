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

    /// Checks an app both ways against what its features use (``AppManifest``): every key a feature
    /// needs is there, and no key, entitlement or linked framework is there that no feature uses.
    /// - Parameters:
    ///   - entitlements: the app's entitlements, or nil when none was given. An app with no feature
    ///     that uses Health needs no entitlements file at all.
    ///   - linkedFrameworks: what the app's target links (``LinkedFramework/linked(by:)``), or nil
    ///     when its project was not given (then not checked).
    public func check(
        infoPlist: PropertyList,
        entitlements: PropertyList?,
        app: AppManifest,
        linkedFrameworks: [LinkedFramework]? = nil
    ) -> PlistCheckReport {
        var report = check(infoPlist: infoPlist, entitlements: entitlements, scopes: app.scopes)
        report.app = app
        // Checking an app both ways vouches for all it needs: an entitlement it needs cannot be skipped.
        for index in report.results.indices where report.results[index].outcome == .notChecked {
            report.results[index].outcome = .fileNotGiven
        }
        let needed = Set(report.results.map(\.requirement.key))
        // Only keys whose permission no feature uses: a related key of a used permission (clinical
        // records of an app that saves workouts) is not this check's business.
        for requirement in requirements + InfoPlistRequirement.related
        where !needed.contains(requirement.key) && requirement.scopes.isDisjoint(with: app.scopes) {
            let file = requirement.source == .infoPlist ? infoPlist : entitlements
            guard file?[requirement.key] != nil else { continue }
            report.results.append(.init(requirement: requirement, outcome: .unused))
        }
        var modes: [String] = []
        if case .array(let entries) = infoPlist["UIBackgroundModes"] {
            modes = entries.compactMap { if case .string(let mode) = $0 { mode } else { nil } }
        }
        report.backgroundModes = Set(modes).union(app.backgroundModes).sorted().map { mode in
            let outcome: PlistCheckReport.BackgroundModeOutcome =
                !modes.contains(mode) ? .missing : app.backgroundModes.contains(mode) ? .used : .unused
            return .init(mode: mode, outcome: outcome)
        }
        report.frameworks = linkedFrameworks.map { linked in
            Dictionary(grouping: linked, by: \.name).sorted { $0.key < $1.key }.compactMap { name, links in
                let scopes = PlistPermissionScope.scopes(ofFramework: name)
                guard !scopes.isEmpty else { return nil }
                let outcome: PlistCheckReport.FrameworkOutcome
                if scopes.isDisjoint(with: app.scopes) {
                    outcome = .usedByNoFeature(scopes.sorted())
                } else {
                    let missing = LinkedFramework.purposeStrings(of: name).filter { !Self.isSatisfied($0, in: infoPlist) }
                    outcome = missing.isEmpty ? .used : .withoutPurposeString(missing.map(\.key))
                }
                return .init(framework: name, via: links.map(\.via), outcome: outcome)
            }
        }
        return report
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
        case (.textArray, .array(let entries)):
            let texts = entries.allSatisfy { if case .string = $0 { true } else { false } }
            return texts ? .satisfied : .wrongType(expected: "array of strings", found: "array")
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
        case .textArray: "array of strings"
        }
    }
}

extension String {
    var isBlank: Bool { allSatisfy(\.isWhitespace) }
}
