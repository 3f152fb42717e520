/// Accessibility identifiers of the walk screen, for UI and E2E tests (`walk.{element}`). The SwiftUI
/// view and the simulated iPhone's element tree (`petspot appium`) both read these constants.
public enum WalkAccessibilityIdentifiers {
    public static let permissions = "walk.permissions"
    public static let status = "walk.status"
    public static let distance = "walk.distance"
    public static let steps = "walk.steps"
    /// Why something the person might expect does not happen: no location, or no Motion.
    public static let notice = "walk.notice"
    /// The last walk's numbers, once one ended.
    public static let lastWalk = "walk.lastWalk"
    /// What became of the last walk in Health.
    public static let health = "walk.health"

    /// The button for `control`: `walk.start`, `walk.pause`, `walk.resume`, `walk.end`.
    public static func control(_ control: WalkScreen.Control) -> String { "walk.\(control.rawValue)" }
}
