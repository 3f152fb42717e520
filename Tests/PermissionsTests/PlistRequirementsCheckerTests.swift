import DeviceInterfaces
import Foundation
import Permissions
import Testing

@Suite struct PlistRequirementsCheckerTests {
    let checker = PlistRequirementsChecker()
    let allScopes = Set(PlistPermissionScope.allCases)
    let entitled = PropertyList(["com.apple.developer.healthkit": .bool(true)])

    private func list(_ dictionary: [String: Any], binary: Bool = false) throws -> PropertyList {
        try PropertyList(data: binary ? PlistFixtures.binary(dictionary) : PlistFixtures.xml(dictionary))
    }

    @Test(arguments: [false, true])
    func givenCompletePlist_whenCheckedForEverything_thenNoProblems(binary: Bool) throws {
        let report = checker.check(infoPlist: try list(PlistFixtures.completeInfo, binary: binary), entitlements: entitled, scopes: allScopes)
        #expect(!report.hasProblems)
        #expect(report.results.count == InfoPlistRequirement.all.count)
        #expect(report.rendered().hasSuffix("All required keys are present."))
    }

    @Test(arguments: [false, true])
    func givenNoMotionKey_whenCheckedForMotion_thenMissingWithTheCrashNamed(binary: Bool) throws {
        let report = checker.check(
            infoPlist: try list(PlistFixtures.info(without: "NSMotionUsageDescription"), binary: binary),
            entitlements: nil,
            scopes: [.motion]
        )
        #expect(report.problems.map(\.requirement.key) == ["NSMotionUsageDescription"])
        #expect(report.problems.first?.outcome == .missing)
        let text = report.rendered()
        #expect(text.contains("MISSING  NSMotionUsageDescription"))
        #expect(text.contains("crashes"))
    }

    @Test func givenNoWhenInUseKey_whenCheckedForLocation_thenReportSaysRequestsSilentlyDoNothing() throws {
        let report = checker.check(
            infoPlist: try list(PlistFixtures.info(without: "NSLocationWhenInUseUsageDescription")),
            entitlements: nil,
            scopes: [.location]
        )
        #expect(report.problems.map(\.requirement.key) == ["NSLocationWhenInUseUsageDescription"])
        #expect(report.rendered().contains("location requests silently do nothing"))
    }

    @Test func givenEmptyAndBlankTexts_whenChecked_thenBothReportedEmpty() throws {
        let info = PlistFixtures.info(replacing: [
            "NSHealthShareUsageDescription": "",
            "NSHealthUpdateUsageDescription": "  \n\t",
        ])
        let report = checker.check(infoPlist: try list(info), entitlements: entitled, scopes: [.health])
        #expect(report.problems.map(\.requirement.key) == ["NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription"])
        #expect(report.problems.allSatisfy { $0.outcome == .empty })
        #expect(report.rendered().contains("NSInvalidArgumentException"))
    }

    @Test func givenNumberInsteadOfText_whenChecked_thenWrongTypeIsReported() throws {
        let report = checker.check(
            infoPlist: try list(PlistFixtures.info(replacing: ["NSMotionUsageDescription": 42])),
            entitlements: nil,
            scopes: [.motion]
        )
        #expect(report.problems.first?.outcome == .wrongType(expected: "string", found: "number"))
        #expect(report.rendered().contains("expected string, found number"))
    }

    @Test func givenTemporaryDictionaryWithEmptyPurpose_whenChecked_thenTheEmptyPurposeIsNamed() throws {
        let info = PlistFixtures.info(replacing: [
            "NSLocationTemporaryUsageDescriptionDictionary": ["NearbyPets": "", "Other": "Fine."],
        ])
        let report = checker.check(infoPlist: try list(info), entitlements: nil, scopes: [.location])
        #expect(report.problems.first?.outcome == .emptyEntries(["NearbyPets"]))
        #expect(report.rendered().contains("promptDeclined"))
    }

    @Test func givenEmptyTemporaryDictionary_whenChecked_thenEmpty() throws {
        let info = PlistFixtures.info(replacing: ["NSLocationTemporaryUsageDescriptionDictionary": [String: Any]()])
        let report = checker.check(infoPlist: try list(info), entitlements: nil, scopes: [.location])
        #expect(report.problems.first?.outcome == .empty)
    }

    @Test func givenLocationScopeOnly_whenOtherKeysAreMissing_thenOnlyLocationKeysAreChecked() throws {
        let info = PlistFixtures.info(without: "NSMotionUsageDescription", "NSHealthShareUsageDescription", "NSLocationAlwaysAndWhenInUseUsageDescription")
        let report = checker.check(infoPlist: try list(info), entitlements: nil, scopes: [.location])
        #expect(!report.hasProblems)
        #expect(report.results.map(\.requirement.key) == ["NSLocationWhenInUseUsageDescription", "NSLocationTemporaryUsageDescriptionDictionary"])
    }

    @Test func givenAlwaysScope_whenAlwaysKeyMissing_thenReported() throws {
        let report = checker.check(
            infoPlist: try list(PlistFixtures.info(without: "NSLocationAlwaysAndWhenInUseUsageDescription")),
            entitlements: nil,
            scopes: [.always]
        )
        #expect(report.problems.map(\.requirement.key) == ["NSLocationAlwaysAndWhenInUseUsageDescription"])
    }

    @Test func givenHealthWithoutEntitlementsFile_whenChecked_thenEntitlementSkippedNotFailed() throws {
        let report = checker.check(infoPlist: try list(PlistFixtures.completeInfo), entitlements: nil, scopes: [.health])
        #expect(!report.hasProblems)
        #expect(report.results.last?.outcome == .notChecked)
        #expect(report.rendered().contains("skipped  com.apple.developer.healthkit"))
    }

    @Test(arguments: [
        (PropertyList([:]), PlistCheckReport.Outcome.missing),
        (PropertyList(["com.apple.developer.healthkit": .bool(false)]), .disabled),
        (PropertyList(["com.apple.developer.healthkit": .string("YES")]), .wrongType(expected: "boolean", found: "string")),
    ])
    func givenBadEntitlements_whenCheckedForHealth_thenEntitlementReported(
        entitlements: PropertyList,
        outcome: PlistCheckReport.Outcome
    ) throws {
        let report = checker.check(infoPlist: try list(PlistFixtures.completeInfo), entitlements: entitlements, scopes: [.health])
        #expect(report.problems.map(\.requirement.key) == ["com.apple.developer.healthkit"])
        #expect(report.problems.first?.outcome == outcome)
    }

    @Test func givenPermission_whenAskedForMissingKeys_thenItsScopesAreUsed() throws {
        let info = try list(PlistFixtures.info(without: "NSLocationAlwaysAndWhenInUseUsageDescription", "NSMotionUsageDescription"))
        #expect(checker.missingKeys(for: .location, in: info) == ["NSLocationAlwaysAndWhenInUseUsageDescription"])
        #expect(checker.missingKeys(for: .motion, in: info) == ["NSMotionUsageDescription"])
        #expect(checker.missingKeys(for: .healthKit, in: info).isEmpty)
    }
}
