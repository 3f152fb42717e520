import DeviceInterfaces
import Permissions
import Testing

@Suite struct PermissionTests {
    @Test(arguments: Permission.allCases)
    func givenPermission_whenDescribed_thenEveryTextIsPresent(permission: Permission) {
        #expect(!permission.title.isEmpty)
        #expect(!permission.symbolName.isEmpty)
        #expect(!permission.rationale.isEmpty)
        #expect(!permission.details.whatWeDo.isEmpty)
        #expect(!permission.details.whatWeDoNotDo.isEmpty)
        #expect(!permission.details.privacy.isEmpty)
    }

    @Test func givenEachPermission_whenAskedForRequirements_thenTheIssueKeysAreListed() {
        #expect(Permission.location.requirements.map(\.key) == [
            "NSLocationWhenInUseUsageDescription",
            "NSLocationAlwaysAndWhenInUseUsageDescription",
            "NSLocationTemporaryUsageDescriptionDictionary",
        ])
        #expect(Permission.motion.requirements.map(\.key) == ["NSMotionUsageDescription"])
        #expect(Permission.healthKit.requirements.map(\.key) == [
            "NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription", "com.apple.developer.healthkit",
        ])
    }

    @Test func givenRequirements_whenMissing_thenOnlyMotionAndHealthUsageDescriptionsCrash() {
        let crashing = InfoPlistRequirement.all.filter(\.crashesWhenMissing).map(\.key)
        #expect(crashing == ["NSMotionUsageDescription", "NSHealthShareUsageDescription", "NSHealthUpdateUsageDescription"])
    }

    @Test func givenHealthReadingDescription_whenShown_thenItNeverClaimsToKnowTheReadAnswer() {
        #expect(Permission.healthKit.details.privacy.contains("does not tell"))
    }

    @Test func givenScopeList_whenParsed_thenKnownNamesAreAcceptedAndUnknownNamed() throws {
        #expect(try PlistPermissionScope.parseList("location, Motion,health") == [.location, .motion, .health])
        #expect(throws: UnknownPermissionScopes(names: ["camera"])) { try PlistPermissionScope.parseList("location,camera") }
        #expect(throws: UnknownPermissionScopes(names: [])) { try PlistPermissionScope.parseList(",") }
    }
}
