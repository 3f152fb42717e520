import Foundation
import StartupFeature
import Testing

/// The strings table resolves on this platform (Linux included), key by key.
@Suite struct L10nTests {
    // FR-004, FR-005, FR-006: the popup's texts, as the specification gives them.
    @Test func givenPopupKeys_whenResolved_thenEachIsItsEnglishText() {
        #expect(L10n.Location.Permission.Popup.title == "Location Access Needed")
        #expect(L10n.Location.Permission.Popup.message == "Enable location access in Settings to see nearby pets.")
        #expect(L10n.Location.Permission.Popup.settingsButton == "Go to Settings")
        #expect(L10n.Location.Permission.Popup.cancelButton == "Cancel")
    }

    @Test func givenListingKeys_whenResolved_thenEachIsItsEnglishText() {
        #expect(L10n.AnimalList.title == "Pets for Adoption")
        #expect(L10n.AnimalList.loading == "Looking for pets…")
        #expect(L10n.AnimalList.empty == "No pets are listed right now.")
        #expect(L10n.AnimalList.errorMessage == "Pets could not be loaded. Check your connection and try again.")
        #expect(L10n.AnimalList.retryButton == "Retry")
        #expect(L10n.AnimalList.distance(kilometres: 12.345) == "12.3 km away")
    }

    @Test func givenEveryKey_whenLookedUp_thenNoneFallsBackToTheKeyItself() {
        let bundle = L10n.bundle
        for key in L10n.allKeys {
            let text = NSLocalizedString(key, bundle: bundle, comment: "")
            #expect(text != key, "\(key) is missing from Localizable.strings")
        }
    }
}
