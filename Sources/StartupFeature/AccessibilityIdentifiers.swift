/// Accessibility identifiers of the startup screen (`startup.{element}`), for UI and E2E tests.
public enum AccessibilityIdentifiers {
    /// The custom denied/restricted popup and its parts (FR-004, FR-005, FR-006).
    public enum PermissionPopup {
        public static let popup = "startup.permissionPopup"
        public static let goToSettings = "startup.permissionPopup.goToSettings"
        public static let cancel = "startup.permissionPopup.cancel"
        public static let title = "startup.permissionPopup.title"
        public static let message = "startup.permissionPopup.message"
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
