/// Accessibility identifiers of the permissions screen and its "Learn more" sheet, for UI and E2E
/// tests (`permissions.{element}`, a card's parts `permissions.{permission}.{part}`).
///
/// The SwiftUI views and the simulated iPhone's element tree (`petspot appium`) both read these
/// constants; the E2E suite's screen objects find elements by the same strings.
public enum PermissionsAccessibilityIdentifiers {
    /// The screen's Done button.
    public static let done = "permissions.done"
    /// The line that explains a request iOS refused.
    public static let error = "permissions.error"

    /// A card's state ("Allowed", "Not allowed", …).
    public static func status(_ permission: Permission) -> String { "permissions.\(permission.rawValue).status" }
    /// A card's "Learn more" button.
    public static func learnMore(_ permission: Permission) -> String { "permissions.\(permission.rawValue).learnMore" }
    /// A card's action button (Continue for Allow or Allow Always, Settings), when it shows one.
    public static func action(_ permission: Permission) -> String { "permissions.\(permission.rawValue).action" }

    /// The "Learn more" sheet's action button and its Done button.
    public enum Detail {
        public static let action = "permissionDetail.action"
        public static let done = "permissionDetail.done"
    }
}
