import Foundation
import Permissions
import Testing

/// The app's privacy manifest, `App/PrivacyInfo.xcprivacy`.
@Suite struct PrivacyManifestTests {
    let manifest: PropertyList

    init() throws {
        manifest = try PropertyList(contentsOf: PlistFixtures.appFolder.appendingPathComponent("PrivacyInfo.xcprivacy"))
    }

    private var collected: [[String: PropertyList.Value]] {
        guard case .array(let entries) = manifest["NSPrivacyCollectedDataTypes"] else { return [] }
        return entries.compactMap { entry in
            if case .dictionary(let fields) = entry { return fields }
            return nil
        }
    }

    @Test func givenManifest_whenRead_thenTheAppDoesNotTrack() {
        #expect(manifest["NSPrivacyTracking"] == .bool(false))
        #expect(manifest["NSPrivacyTrackingDomains"] == .array([]))
    }

    @Test func givenManifest_whenRead_thenCoarseLocationIsDeclaredUnlinkedUntrackedForAppFunctionality() throws {
        let coarse = collected.first {
            $0["NSPrivacyCollectedDataType"] == .string("NSPrivacyCollectedDataTypeCoarseLocation")
        }
        let location = try #require(coarse)
        #expect(location["NSPrivacyCollectedDataTypeLinked"] == .bool(false))
        #expect(location["NSPrivacyCollectedDataTypeTracking"] == .bool(false))
        #expect(location["NSPrivacyCollectedDataTypePurposes"] == .array([.string("NSPrivacyCollectedDataTypePurposeAppFunctionality")]))
    }

    @Test func givenCoordinatesLeaveTheDeviceRoundedToTwoDecimals_whenRead_thenPreciseLocationIsNotClaimed() {
        // Apple counts three or more decimal places as precise; PetSpot sends two.
        #expect(!collected.contains { $0["NSPrivacyCollectedDataType"] == .string("NSPrivacyCollectedDataTypePreciseLocation") })
    }

    @Test func givenTheLedgerUsesUserDefaults_whenRead_thenTheRequiredReasonIsDeclared() {
        guard case .array(let apis) = manifest["NSPrivacyAccessedAPITypes"] else {
            Issue.record("NSPrivacyAccessedAPITypes missing")
            return
        }
        #expect(apis.contains(.dictionary([
            "NSPrivacyAccessedAPIType": .string("NSPrivacyAccessedAPICategoryUserDefaults"),
            "NSPrivacyAccessedAPITypeReasons": .array([.string("CA92.1")]),
        ])))
    }
}
