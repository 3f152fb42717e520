import Foundation
import StartupFeature
import Testing

@Suite struct AccessibilityIdentifiersTests {
    // FR-004, FR-005, FR-006: the popup and its buttons carry the identifiers the specification gives.
    @Test func givenPopupIdentifiers_whenRead_thenTheyAreTheSeedsOnes() {
        #expect(AccessibilityIdentifiers.PermissionPopup.popup == "startup.permissionPopup")
        #expect(AccessibilityIdentifiers.PermissionPopup.goToSettings == "startup.permissionPopup.goToSettings")
        #expect(AccessibilityIdentifiers.PermissionPopup.cancel == "startup.permissionPopup.cancel")
        #expect(AccessibilityIdentifiers.PermissionPopup.title == "startup.permissionPopup.title")
        #expect(AccessibilityIdentifiers.PermissionPopup.message == "startup.permissionPopup.message")
    }

    @Test func givenListingIdentifiers_whenRead_thenAllAreDistinctAndFollowTheStartupConvention() {
        let all = [
            AccessibilityIdentifiers.AnimalList.list, AccessibilityIdentifiers.AnimalList.loading,
            AccessibilityIdentifiers.AnimalList.empty, AccessibilityIdentifiers.AnimalList.error,
            AccessibilityIdentifiers.AnimalList.retry, AccessibilityIdentifiers.AnimalList.row(id: "a1"),
            AccessibilityIdentifiers.AnimalList.nothingNearby,
        ]
        #expect(Set(all).count == all.count)
        #expect(all.allSatisfy { $0.hasPrefix("startup.") })
    }

    // The popup is a SwiftUI view, so UI tests find all five identifiers on real elements (a system alert
    // cannot carry the container's or the title's). Its Apple-only source cannot run here; this reads it,
    // and scripts/typecheck-apple.sh type-checks it.
    @Test func givenThePopupViewSource_whenRead_thenEachIdentifierSitsOnOneElementOfAModalContainer() throws {
        let source = try String(
            contentsOf: URL(fileURLWithPath: #filePath)
                .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Sources/AppUI/PermissionPopupView.swift"),
            encoding: .utf8
        )
        for name in ["popup", "title", "message", "goToSettings", "cancel"] {
            let applied = ".accessibilityIdentifier(AccessibilityIdentifiers.PermissionPopup.\(name))"
            #expect(source.components(separatedBy: applied).count == 2, "\(applied) once")
        }
        #expect(source.contains(".accessibilityElement(children: .contain)"))
        #expect(source.contains(".accessibilityAddTraits(.isModal)"))
        #expect(source.contains(".accessibilityAction(.escape)"))  // VoiceOver's scrub cancels
        #expect(!source.contains(".font(.system(size:"))  // Dynamic Type only
    }
}
