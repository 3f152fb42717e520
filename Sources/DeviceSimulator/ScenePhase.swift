/// Where the simulated app stands in its lifecycle, as UIKit/SwiftUI see it.
public enum ScenePhase: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    /// The process does not exist (never launched, or terminated).
    case notRunning
    /// Off screen.
    case background
    /// On screen but not receiving events: launching, returning, or covered by a system alert.
    case inactive
    /// On screen and in use.
    case active

    /// Whether the app is on screen (the only state in which iOS shows its permission alerts).
    public var isForeground: Bool {
        self == .active || self == .inactive
    }
}
