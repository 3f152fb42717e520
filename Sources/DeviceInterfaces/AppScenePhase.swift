/// The app's scene phase, mirroring SwiftUI's `ScenePhase` without importing SwiftUI.
public enum AppScenePhase: String, Sendable, Equatable, Hashable, CaseIterable {
    case active
    case inactive
    case background
}
