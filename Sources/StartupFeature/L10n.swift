import Foundation
import Localization
import PetSpotDomain

/// The startup screen's texts, from `Localizable.strings` / `Localizable.stringsdict` of this module,
/// in the language of a ``Localizer``.
///
/// The static properties (`L10n.Location.Permission.Popup.message`, …) speak the device's
/// language (``Localizer/system``); code that must speak another one passes a localizer to
/// ``text(_:_:)`` and the functions below.
public enum L10n {
    /// Every plain text of the table.
    public enum Key: String, Sendable, CaseIterable {
        case popupTitle = "location_permission_popup_title"
        case popupMessage = "location_permission_popup_message"
        case popupSettingsButton = "location_permission_popup_settings_button"
        case popupCancelButton = "location_permission_popup_cancel_button"
        case popupRestrictedTitle = "location_permission_popup_restricted_title"
        case popupRestrictedMessage = "location_permission_popup_restricted_message"
        case popupServicesOffTitle = "location_permission_popup_services_off_title"
        case popupServicesOffMessage = "location_permission_popup_services_off_message"
        case popupSettingsHint = "location_permission_popup_settings_hint"
        case popupCancelHint = "location_permission_popup_cancel_hint"
        case listTitle = "animal_list_title"
        case listLoading = "animal_list_loading"
        case listEmpty = "animal_list_empty"
        case listNothingNearby = "animal_list_nothing_nearby"
        case listErrorMessage = "animal_list_error_message"
        case listRetryButton = "animal_list_retry_button"
        case listRetryHint = "animal_list_retry_hint"
        case listPermissionsButton = "animal_list_permissions_button"
        case listPermissionsHint = "animal_list_permissions_hint"
        case listDistanceFormat = "animal_list_distance_format"
        case rowDetailFormat = "animal_row_detail_format"
        case rowAccessibilityLabel = "animal_row_accessibility_label"
        case rowAccessibilityLabelWithDistance = "animal_row_accessibility_label_with_distance"
        case speciesDog = "species_dog"
        case speciesCat = "species_cat"
        case speciesRabbit = "species_rabbit"
        case speciesBird = "species_bird"
        case speciesOther = "species_other"
        case popupChoosePlaceButton = "location_permission_popup_choose_place_button"
        case popupChoosePlaceHint = "location_permission_popup_choose_place_hint"
        case placeChooseButton = "place_choose_button"
        case placeChooseHint = "place_choose_hint"
        case placeClearButton = "place_clear_button"
        case placeClearHint = "place_clear_hint"
        case placeSearchPlaceholder = "place_search_placeholder"
        case placeSearchFailed = "place_search_failed"
        case placeSearchNoResults = "place_search_no_results"
        case placeSearchCloseButton = "place_search_close_button"
        case listNearPlace = "animal_list_near_place"
        case listNothingNearPlace = "animal_list_nothing_near_place"
        case placeAttribution = "place_attribution"
        case placeSuggestionFormat = "place_suggestion_format"
    }

    /// Every plural entry of the table.
    public enum PluralKey: String, Sendable, CaseIterable {
        /// "18 pets near you".
        case listSummaryNearby = "animal_list_summary_nearby"
        /// "20 pets, newest first".
        case listSummaryEverywhere = "animal_list_summary_everywhere"
    }

    /// The text of `key` in `localizer`'s language.
    public static func text(_ key: Key, _ localizer: Localizer = .system) -> String {
        table.string(key.rawValue, localizer.language)
    }

    /// "12.3 km away" (or miles, by the localizer's locale).
    public static func distance(_ distance: Measurement<UnitLength>, _ localizer: Localizer = .system) -> String {
        table.string(Key.listDistanceFormat.rawValue, localizer.language, localizer.distance(distance))
    }

    /// The radius of a search near the person: the server's default (`AnimalQuery.defaultRadiusKm`),
    /// which the app does not override.
    public static let searchRadius = Measurement(value: 50, unit: UnitLength.kilometers)

    /// "No pets within 50 km of you — …", said above a listing shown because nobody is within
    /// ``searchRadius``.
    public static func nothingNearby(_ localizer: Localizer = .system) -> String {
        table.string(Key.listNothingNearby.rawValue, localizer.language, localizer.distance(searchRadius, fractionDigits: 0))
    }

    /// An animal's kind in a word: "dog".
    public static func species(_ species: Animal.Species, _ localizer: Localizer = .system) -> String {
        let key: Key =
            switch species {
            case .dog: .speciesDog
            case .cat: .speciesCat
            case .rabbit: .speciesRabbit
            case .bird: .speciesBird
            case .other: .speciesOther
            }
        return text(key, localizer)
    }

    /// "Terrier Mix · Happy Paws, Warsaw": breed, shelter and city under the name.
    public static func rowDetail(_ animal: Animal, _ localizer: Localizer = .system) -> String {
        table.string(Key.rowDetailFormat.rawValue, localizer.language, animal.breed, animal.shelter.name, animal.shelter.city)
    }

    /// What VoiceOver reads for a row, as one element: "Reksio, dog, 2.5 kilometres away".
    public static func rowAccessibilityLabel(_ animal: Animal, _ localizer: Localizer = .system) -> String {
        let name = animal.name
        let kind = species(animal.species, localizer)
        guard let kilometres = animal.distanceKm else {
            return table.string(Key.rowAccessibilityLabel.rawValue, localizer.language, name, kind)
        }
        let spoken = localizer.distance(Measurement(value: kilometres, unit: .kilometers), style: .spelledOut)
        return table.string(Key.rowAccessibilityLabelWithDistance.rawValue, localizer.language, name, kind, spoken)
    }

    /// "18 pets near you" or "20 pets, newest first", with the language's plural form.
    public static func listSummary(count: Int, nearby: Bool, _ localizer: Localizer = .system) -> String {
        let key: PluralKey = nearby ? .listSummaryNearby : .listSummaryEverywhere
        return table.plural(key.rawValue, localizer.language, number: localizer.number(count), operands: PluralOperands(count))
    }

    /// A suggestion as the person reads it: the place's name as the server gives it (never
    /// translated), then its region and country in the person's language — "Kraków, Polska" in
    /// Polish. A postal code keeps the server's label ("New York, NY 10001"): it is an address.
    public static func placeSuggestion(_ place: Place, _ localizer: Localizer = .system) -> String {
        guard place.postalCode == nil else { return place.label }
        let country = Locale(identifier: localizer.language.rawValue).localizedString(forRegionCode: place.countryCode)
            ?? place.countryCode
        let around = [place.region, country].compactMap { $0 }.joined(separator: ", ")
        return table.string(Key.placeSuggestionFormat.rawValue, localizer.language, place.name, around)
    }

    /// "No pets within 50 km of Lyon — …", above the newest everywhere when nobody is near the place.
    public static func nothingNearPlace(_ name: String, _ localizer: Localizer = .system) -> String {
        table.string(Key.listNothingNearPlace.rawValue, localizer.language, localizer.distance(searchRadius, fractionDigits: 0), name)
    }

    /// "Pets near Lyon": the place's name as the server gives it, never translated.
    public static func nearPlace(_ name: String, _ localizer: Localizer = .system) -> String {
        table.string(Key.listNearPlace.rawValue, localizer.language, name)
    }

    // MARK: Static names, in the device's language

    public enum Location {
        public enum Permission {
            public enum Popup {
                public static var title: String { text(.popupTitle) }
                public static var message: String { text(.popupMessage) }
                public static var settingsButton: String { text(.popupSettingsButton) }
                public static var cancelButton: String { text(.popupCancelButton) }
                public static var restrictedTitle: String { text(.popupRestrictedTitle) }
                public static var restrictedMessage: String { text(.popupRestrictedMessage) }
                public static var servicesOffTitle: String { text(.popupServicesOffTitle) }
                public static var servicesOffMessage: String { text(.popupServicesOffMessage) }
            }
        }
    }

    public enum AnimalList {
        public static var title: String { text(.listTitle) }
        public static var loading: String { text(.listLoading) }
        public static var empty: String { text(.listEmpty) }
        /// Above a listing shown because nobody is within the search radius.
        public static var nothingNearby: String { L10n.nothingNearby(.system) }
        public static var errorMessage: String { text(.listErrorMessage) }
        public static var retryButton: String { text(.listRetryButton) }
    }

    /// This module's table in every language.
    public static let table = StringTable(name: "Localizable", bundle: .module)
}
