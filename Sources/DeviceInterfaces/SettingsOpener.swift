/// Opens the app's own page in Settings (`UIApplication.openSettingsURLString` on iOS), injected at
/// construction into everything that offers Settings — the startup screen's popup and the permission
/// manager — so that they stay free of UIKit and tests can see that it was asked to.
public struct SettingsOpener: Sendable {
    private let open: @MainActor @Sendable () -> Void

    public init(_ open: @escaping @MainActor @Sendable () -> Void) {
        self.open = open
    }

    @MainActor
    public func callAsFunction() { open() }

    /// Does nothing; for previews.
    public static let none = SettingsOpener {}
}
