import Permissions
import Testing

@Suite struct XcodeGenTargetTests {
    static let project = """
        name: Apps   # two apps
        targets:
          First:
            type: application
            dependencies:
              - package: Core
                product: PlatformLive
              # a comment between entries
              - sdk: CoreLocation.framework
              - target: Widget
          Second:
            dependencies:
              - sdk: "HealthKit.framework"
        """

    @Test func givenAProject_whenATargetIsRead_thenItsOwnDependenciesInOrder() throws {
        let first = try XcodeGenTarget(named: "First", in: Self.project)
        #expect(first.dependencies == [.product(package: "Core", name: "PlatformLive"), .sdk("CoreLocation.framework"), .other(kind: "target", value: "Widget")])
        #expect(first.sdkFrameworks == ["CoreLocation"])
        #expect(first.products == ["PlatformLive"])
        #expect(try XcodeGenTarget(named: "Second", in: Self.project).sdkFrameworks == ["HealthKit"])
    }

    @Test func givenAnUnknownTarget_whenRead_thenTheErrorNamesTheKnownOnes() {
        #expect(throws: XcodeGenError.noSuchTarget("Third", known: ["First", "Second"])) {
            try XcodeGenTarget(named: "Third", in: Self.project)
        }
    }

    @Test func givenADependencyLineItCannotRead_whenRead_thenTheErrorNamesTheLine() {
        let project = "targets:\n  App:\n    dependencies:\n      - [sdk, CoreMotion]\n"
        #expect(throws: XcodeGenError.unreadable(line: 4, "- [sdk, CoreMotion]")) {
            try XcodeGenTarget(named: "App", in: project)
        }
    }

    @Test func givenNoTargets_whenRead_thenSaidSo() {
        #expect(throws: XcodeGenError.noTargets) { try XcodeGenTarget(named: "App", in: "name: Apps\n") }
    }
}

@Suite struct XcodeGenFlowCollectionTests {
    @Test func givenAFlowCollectionInADependency_whenRead_thenRefusedNotHalfRead() {
        let project = "targets:\n  App:\n    dependencies:\n      - package: Core\n        products: [A, B]\n"
        #expect(throws: XcodeGenError.unreadable(line: 5, "products: [A, B]")) {
            try XcodeGenTarget(named: "App", in: project)
        }
    }
}
