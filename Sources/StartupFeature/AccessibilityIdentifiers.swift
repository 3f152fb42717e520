/// Accessibility identifiers of the startup screen (`startup.{element}`), for UI and E2E tests.
public enum AccessibilityIdentifiers {
    /// The custom denied/restricted popup and its parts (FR-004, FR-005, FR-006).
    public enum PermissionPopup {
        public static let popup = "startup.permissionPopup"
        public static let goToSettings = "startup.permissionPopup.goToSettings"
        public static let cancel = "startup.permissionPopup.cancel"
        public static let title = "startup.permissionPopup.title"
        public static let message = "startup.permissionPopup.message"
        /// "Choose a place instead": the third action.
        public static let choosePlace = "startup.permissionPopup.choosePlace"
    }

    /// Choosing a place instead of sharing location: the header's controls and the picker.
    public enum Place {
        /// "Choose a Place" in the listing's header.
        public static let choose = "startup.place.choose"
        /// The clear control beside "Pets near Lyon".
        public static let clear = "startup.place.clear"
        /// The picker and its parts.
        public static let picker = "startup.place.picker"
        public static let searchField = "startup.place.searchField"
        public static let close = "startup.place.close"
        public static let failed = "startup.place.failed"
        public static let noResults = "startup.place.noResults"
        public static let attribution = "startup.place.attribution"

        /// One suggestion, by the place's id.
        public static func suggestion(id: String) -> String { "startup.place.suggestion.\(id)" }
    }

    /// The listing and its states.
    public enum AnimalList {
        public static let list = "startup.animalList"
        public static let loading = "startup.animalList.loading"
        public static let empty = "startup.animalList.empty"
        public static let error = "startup.animalList.error"
        public static let retry = "startup.animalList.retry"
        /// "18 pets near you" or "20 pets, newest first" above the rows.
        public static let summary = "startup.animalList.summary"
        /// The toolbar button that opens the permissions screen.
        public static let permissions = "startup.animalList.permissions"
        /// The notice above a listing shown because nobody is within the search radius.
        public static let nothingNearby = "startup.animalList.nothingNearby"

        /// One row, by the animal's id.
        public static func row(id: String) -> String { "startup.animalList.row.\(id)" }
    }
}
