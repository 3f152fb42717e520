import StartupFeature
import Testing

@Suite struct AccessibilityIdentifiersTests {
    // FR-004, FR-005, FR-006: the popup and its buttons carry the identifiers of seed 002.
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
        ]
        #expect(Set(all).count == all.count)
        #expect(all.allSatisfy { $0.hasPrefix("startup.") })
    }
}
