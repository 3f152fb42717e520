import DeviceInterfaces
import Foundation
import Permissions
import Testing

/// `petspot check-plist --app`: each app against its own features, both ways — one test per mistake
/// App Review or iOS punishes, and the apps' own files passing.
@Suite struct AppCheckTests {
    let checker = PlistRequirementsChecker()
    static let appRoot = PlistFixtures.appFolder.deletingLastPathComponent()

    /// PetSpot's keys: location While Using and the one-time precise purpose, nothing else.
    let petSpotInfo: [String: Any] = [
        "NSLocationWhenInUseUsageDescription": "Shows pets near you.",
        "NSLocationTemporaryUsageDescriptionDictionary": ["NearbyPets": "Exact distances."],
    ]
    /// Paint My Town's keys: every permission, and background location for the walk.
    var paintMyTownInfo: [String: Any] {
        PlistFixtures.completeInfo.merging(["UIBackgroundModes": ["location"]]) { _, new in new }
    }
    let healthEntitled = PropertyList(["com.apple.developer.healthkit": .bool(true)])

    private func list(_ dictionary: [String: Any]) throws -> PropertyList {
        try PropertyList(data: PlistFixtures.xml(dictionary))
    }

    private func check(
        _ info: [String: Any],
        app: AppManifest,
        entitlements: PropertyList? = nil,
        linking target: String? = nil
    ) throws -> PlistCheckReport {
        let linked = try target.map { try LinkedFramework.linked(by: XcodeGenTarget(named: "App", in: $0)) }
        return checker.check(infoPlist: try list(info), entitlements: entitlements, app: app, linkedFrameworks: linked)
    }

    private static func project(_ dependencies: String) -> String {
        "name: Apps\ntargets:\n  App:\n    type: application\n    dependencies:\n" + dependencies
    }

    @Test func givenPetSpotWithLocationOnly_whenChecked_thenNoProblems() throws {
        let report = try check(petSpotInfo, app: .petSpot, linking: Self.project("      - package: PetSpot\n        product: PlatformLive\n"))
        #expect(!report.hasProblems, "\(report.rendered())")
        #expect(report.frameworks == [.init(framework: "CoreLocation", via: ["PlatformLive"], outcome: .used)])
    }

    @Test(arguments: [
        ("NSMotionUsageDescription", "guideline 5.1.1(iii)"),
        ("NSLocationAlwaysAndWhenInUseUsageDescription", "guideline 5.1.1(iii)"),
        ("NSLocationAlwaysUsageDescription", "guideline 5.1.1(iii)"),
        ("NSHealthShareUsageDescription", "guideline 2.5.1"),
        ("NSHealthUpdateUsageDescription", "guideline 2.5.1"),
    ])
    func givenPetSpotWithAPurposeStringNoFeatureUses_whenChecked_thenUnusedWithTheGuideline(key: String, guideline: String) throws {
        let report = try check(petSpotInfo.merging([key: "A reason."]) { _, new in new }, app: .petSpot)
        #expect(report.problems.map(\.requirement.key) == [key])
        #expect(report.problems.first?.outcome == .unused)
        #expect(report.rendered().contains("UNUSED   \(key) in Info.plist"))
        #expect(report.rendered().contains(guideline))
    }

    @Test func givenPetSpotWithTheHealthKitEntitlement_whenChecked_thenUnused() throws {
        let report = try check(petSpotInfo, app: .petSpot, entitlements: healthEntitled)
        #expect(report.problems.map(\.requirement.key) == ["com.apple.developer.healthkit"])
        #expect(report.problems.first?.outcome == .unused)
    }

    @Test func givenPetSpotWithBackgroundLocation_whenChecked_thenTheModeIsUnused() throws {
        let report = try check(petSpotInfo.merging(["UIBackgroundModes": ["location"]]) { _, new in new }, app: .petSpot)
        #expect(report.backgroundModeProblems == [.init(mode: "location", outcome: .unused)])
        #expect(report.rendered().contains("guideline 2.5.4"))
    }

    @Test(arguments: [
        ("      - sdk: CoreMotion.framework\n", "CoreMotion", "sdk"),
        ("      - sdk: HealthKit.framework\n", "HealthKit", "sdk"),
        ("      - package: PetSpot\n        product: PlatformLiveFitness\n", "CoreMotion", "PlatformLiveFitness"),
    ])
    func givenPetSpotLinkingAFrameworkNoFeatureUses_whenChecked_thenTheFrameworkIsUnused(
        dependencies: String, framework: String, via: String
    ) throws {
        let report = try check(petSpotInfo, app: .petSpot, linking: Self.project(dependencies))
        let result = try #require(report.frameworkProblems.first { $0.framework == framework })
        #expect(result.via == [via])
        #expect(result.outcome == .usedByNoFeature(PlistPermissionScope.scopes(ofFramework: framework).sorted()))
        #expect(report.hasProblems)
    }

    @Test func givenPaintMyTownWithEverything_whenChecked_thenNoProblems() throws {
        let dependencies = "      - package: PetSpot\n        product: PlatformLive\n      - package: PetSpot\n        product: PlatformLiveFitness\n"
        let report = try check(paintMyTownInfo, app: .paintMyTown, entitlements: healthEntitled, linking: Self.project(dependencies))
        #expect(!report.hasProblems, "\(report.rendered())")
        #expect(report.frameworks?.map(\.framework) == ["CoreLocation", "CoreMotion", "HealthKit"])
    }

    @Test func givenPaintMyTownLinkingCoreMotionWithoutItsPurposeString_whenChecked_thenMissingTwiceOver() throws {
        var info = paintMyTownInfo
        info["NSMotionUsageDescription"] = nil
        let report = try check(info, app: .paintMyTown, entitlements: healthEntitled, linking: Self.project("      - sdk: CoreMotion.framework\n"))
        #expect(report.problems.map(\.requirement.key) == ["NSMotionUsageDescription"])
        #expect(report.frameworkProblems == [.init(framework: "CoreMotion", via: ["sdk"], outcome: .withoutPurposeString(["NSMotionUsageDescription"]))])
        #expect(report.rendered().contains("ITMS-90683"))
    }

    @Test func givenPaintMyTownLinkingHealthKitWithoutItsPurposeStrings_whenChecked_thenBothNamed() throws {
        var info = paintMyTownInfo
        info["NSHealthShareUsageDescription"] = nil
        info["NSHealthUpdateUsageDescription"] = nil
        let report = try check(info, app: .paintMyTown, entitlements: healthEntitled, linking: Self.project("      - sdk: HealthKit.framework\n"))
        #expect(report.frameworkProblems == [.init(
            framework: "HealthKit", via: ["sdk"], outcome: .withoutPurposeString(["NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription"]))])
    }

    @Test func givenPaintMyTownWithoutAnEntitlementsFile_whenChecked_thenTheHealthKitEntitlementIsNotSkipped() throws {
        let report = try check(paintMyTownInfo, app: .paintMyTown, entitlements: nil)
        #expect(report.problems.map(\.requirement.key) == ["com.apple.developer.healthkit"])
        #expect(report.problems.first?.outcome == .fileNotGiven)
        #expect(report.rendered().contains("no entitlements file was given (--entitlements)"))
    }

    @Test func givenPaintMyTownWithoutTheHealthKitEntitlement_whenChecked_thenMissing() throws {
        let report = try check(paintMyTownInfo, app: .paintMyTown, entitlements: PropertyList([:]))
        #expect(report.problems.map(\.requirement.key) == ["com.apple.developer.healthkit"])
        #expect(report.problems.first?.outcome == .missing)
    }

    @Test func givenPaintMyTownWithoutBackgroundLocation_whenChecked_thenTheModeIsMissing() throws {
        var info = paintMyTownInfo
        info["UIBackgroundModes"] = nil
        let report = try check(info, app: .paintMyTown, entitlements: healthEntitled)
        #expect(report.backgroundModeProblems == [.init(mode: "location", outcome: .missing)])
    }

    @Test func givenTheAppsOwnFiles_whenEachIsChecked_thenEachPasses() throws {
        let project = try String(contentsOf: Self.appRoot.appendingPathComponent("project.yml"), encoding: .utf8)
        let petSpot = checker.check(
            infoPlist: try PropertyList(contentsOf: Self.appRoot.appendingPathComponent("PetSpot/Info.plist")),
            entitlements: nil,
            app: .petSpot,
            linkedFrameworks: LinkedFramework.linked(by: try XcodeGenTarget(named: AppManifest.petSpot.xcodeTarget, in: project))
        )
        #expect(!petSpot.hasProblems, "\(petSpot.rendered())")
        let paintMyTown = checker.check(
            infoPlist: try PropertyList(contentsOf: Self.appRoot.appendingPathComponent("PaintMyTown/Info.plist")),
            entitlements: try PropertyList(contentsOf: Self.appRoot.appendingPathComponent("PaintMyTown/PaintMyTown.entitlements")),
            app: .paintMyTown
        )
        #expect(!paintMyTown.hasProblems, "\(paintMyTown.rendered())")
    }

    @Test func givenEveryApp_whenItsFeaturesAreRead_thenEachPermissionItUsesHasAFeatureNamed() {
        #expect(AppManifest.petSpot.scopes == [.location])
        #expect(AppManifest.paintMyTown.scopes == Set(PlistPermissionScope.allCases))
        for app in AppManifest.all {
            for scope in app.scopes { #expect(!app.features(using: scope).isEmpty) }
            #expect(AppManifest.named(app.id) == app)
        }
    }
}
