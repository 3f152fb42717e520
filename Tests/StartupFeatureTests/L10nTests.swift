import Foundation
import Localization
import PetSpotDomain
import StartupFeature
import Testing

/// The strings table resolves on this platform (Linux included), key by key.
@Suite struct L10nTests {
    // FR-004, FR-005, FR-006: the popup's texts, as the specification gives them.
    @Test func givenPopupKeys_whenResolved_thenEachIsItsEnglishText() {
        #expect(L10n.text(.popupTitle, .english) == "Location Access Needed")
        #expect(L10n.text(.popupMessage, .english) == "Enable location access in Settings to see nearby pets.")
        #expect(L10n.text(.popupSettingsButton, .english) == "Go to Settings")
        #expect(L10n.text(.popupCancelButton, .english) == "Cancel")
        // The specification's names read the device's language.
        #expect(L10n.Location.Permission.Popup.title == L10n.text(.popupTitle, .system))
        #expect(L10n.Location.Permission.Popup.message == L10n.text(.popupMessage, .system))
        #expect(L10n.Location.Permission.Popup.settingsButton == L10n.text(.popupSettingsButton, .system))
        #expect(L10n.Location.Permission.Popup.cancelButton == L10n.text(.popupCancelButton, .system))
    }

    @Test func givenListingKeys_whenResolved_thenEachIsItsEnglishText() {
        #expect(L10n.text(.listTitle, .english) == "Pets for Adoption")
        #expect(L10n.text(.listLoading, .english) == "Looking for pets…")
        #expect(L10n.text(.listEmpty, .english) == "No pets are listed right now.")
        #expect(L10n.text(.listErrorMessage, .english) == "Pets could not be loaded. Check your connection and try again.")
        #expect(L10n.text(.listRetryButton, .english) == "Retry")
        #expect(L10n.AnimalList.title == L10n.text(.listTitle, .system))
        #expect(L10n.AnimalList.retryButton == L10n.text(.listRetryButton, .system))
    }

    @Test(arguments: AppLanguage.allCases)
    func givenEveryKey_whenLookedUpInALanguage_thenTheBuiltBundleHasItInThatLanguage(language: AppLanguage) {
        #expect(L10n.table.missingKeys(language) == [])
        #expect(Set(L10n.table.entries(.english).strings.keys) == Set(L10n.Key.allCases.map(\.rawValue)))
        #expect(Set(L10n.table.entries(.english).plurals.keys) == Set(L10n.PluralKey.allCases.map(\.rawValue)))
    }

    @Test func givenAPetNearby_whenReadByVoiceOver_thenTheRowIsOneSentenceWithTheDistanceSpelledOut() throws {
        let reksio = try Animal.fixture(name: "Reksio", species: .dog, distanceKm: 2.5)
        #expect(L10n.rowAccessibilityLabel(reksio, .english) == "Reksio, dog, 2.5 kilometres away")
        #expect(L10n.rowAccessibilityLabel(try Animal.fixture(name: "Mia", species: .cat, distanceKm: nil), .english) == "Mia, cat")
        let french = Localizer(language: .french, locale: Locale(identifier: "fr_FR"))
        #expect(L10n.rowAccessibilityLabel(reksio, french).contains("2,5 kilomètres"))
        #expect(L10n.rowAccessibilityLabel(try Animal.fixture(name: "Rex", species: .cat, distanceKm: 1.5), french).contains("1,5 kilomètre"))
        #expect(!L10n.rowAccessibilityLabel(try Animal.fixture(name: "Rex", species: .cat, distanceKm: 1.5), french).contains("1,5 kilomètres"))
        let polish = Localizer(language: .polish, locale: Locale(identifier: "pl_PL"))
        #expect(L10n.rowAccessibilityLabel(reksio, polish).contains("2,5 kilometra"))
    }

    @Test func givenUnitedStatesEnglish_whenADistanceIsShown_thenItIsInMiles() throws {
        let kilometres = Measurement(value: 2.5, unit: UnitLength.kilometers)
        #expect(L10n.distance(kilometres, try Localizer(tag: "en-US")) == "1.6 mi away")
        #expect(L10n.distance(kilometres, try Localizer(tag: "en")) == "2.5 km away")
        #expect(L10n.distance(kilometres, try Localizer(tag: "de")) == "2,5 km entfernt")
        #expect(L10n.nothingNearby(try Localizer(tag: "en-US")).contains("31 mi"))
    }

    @Test func givenListingSizes_whenSummarised_thenEachLanguageUsesItsPluralForm() throws {
        #expect(L10n.listSummary(count: 1, nearby: true, .english) == "1 pet near you")
        #expect(L10n.listSummary(count: 2, nearby: true, .english) == "2 pets near you")
        #expect(L10n.listSummary(count: 1_234, nearby: false, .english) == "1,234 pets, newest first")
        let french = try Localizer(tag: "fr-FR")
        // One, other, many: three different texts around the number.
        let frenchForms = [1, 2, 1_000_000].map { count in
            L10n.listSummary(count: count, nearby: true, french).replacing(try! Regex("[0-9\\s\\u{202F}\\u{00A0}]+"), with: "#")
        }
        #expect(Set(frenchForms).count == 3, "\(frenchForms)")
        let polish = try Localizer(tag: "pl-PL")
        let forms = [1, 2, 5, 22, 25].map { L10n.listSummary(count: $0, nearby: true, polish) }
        // One, few, many, few, many: five texts, three different nouns.
        let nouns = forms.map { $0.split(separator: " ").dropFirst().first.map(String.init) ?? $0 }
        #expect(Set(nouns).count == 3, "\(forms)")
        #expect(nouns[1] == nouns[3])
        #expect(nouns[2] == nouns[4])
    }
}

extension Animal {
    /// A pet for texts about it; only name, kind and distance matter.
    fileprivate static func fixture(name: String, species: Species, distanceKm: Double?) throws -> Animal {
        Animal(
            id: name.lowercased(),
            name: name,
            species: species,
            breed: "Terrier Mix",
            sex: .male,
            ageMonths: 24,
            description: "",
            shelter: Shelter(name: "Happy Paws", city: "Warsaw"),
            location: try GeoCoordinate(latitude: 52.23, longitude: 21.01),
            publishedAt: Date(timeIntervalSince1970: 0),
            distanceKm: distanceKm
        )
    }
}
