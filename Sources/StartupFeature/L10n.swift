import Foundation

/// The screen's user-facing texts, typed, from `Localizable.strings` of this module.
///
/// Uses `NSLocalizedString(_:bundle:comment:)`: `String(localized:bundle:)` does not exist in
/// Foundation on Linux.
public enum L10n {
    public enum Location {
        public enum Permission {
            public enum Popup {
                public static var title: String { string("location_permission_popup_title") }
                public static var message: String { string("location_permission_popup_message") }
                public static var settingsButton: String { string("location_permission_popup_settings_button") }
                public static var cancelButton: String { string("location_permission_popup_cancel_button") }
                public static var restrictedTitle: String { string("location_permission_popup_restricted_title") }
                public static var restrictedMessage: String { string("location_permission_popup_restricted_message") }
                public static var servicesOffTitle: String { string("location_permission_popup_services_off_title") }
                public static var servicesOffMessage: String { string("location_permission_popup_services_off_message") }
            }
        }
    }

    public enum AnimalList {
        public static var title: String { string("animal_list_title") }
        public static var loading: String { string("animal_list_loading") }
        public static var empty: String { string("animal_list_empty") }
        /// Above a listing shown because nobody is within the search radius.
        public static var nothingNearby: String { string("animal_list_nothing_nearby") }
        public static var errorMessage: String { string("animal_list_error_message") }
        public static var retryButton: String { string("animal_list_retry_button") }

        /// "12.3 km away" for a distance in kilometres.
        public static func distance(kilometres: Double) -> String {
            let number = String(format: "%.1f", kilometres)
            return String(format: string("animal_list_distance_format"), number)
        }
    }

    /// Every key of the table, for tests that check it is complete.
    public static let allKeys: [String] = [
        "location_permission_popup_title",
        "location_permission_popup_message",
        "location_permission_popup_settings_button",
        "location_permission_popup_cancel_button",
        "location_permission_popup_restricted_title",
        "location_permission_popup_restricted_message",
        "location_permission_popup_services_off_title",
        "location_permission_popup_services_off_message",
        "animal_list_title",
        "animal_list_loading",
        "animal_list_empty",
        "animal_list_nothing_nearby",
        "animal_list_error_message",
        "animal_list_retry_button",
        "animal_list_distance_format",
    ]

    /// The bundle that holds the table.
    public static var bundle: Bundle { .module }

    static func string(_ key: String) -> String {
        NSLocalizedString(key, bundle: .module, comment: "")
    }
}
