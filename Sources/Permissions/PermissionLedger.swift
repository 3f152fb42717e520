import Foundation

/// What the permission manager must remember across launches: iOS lets an app ask for Always
/// location once per install (rule 6), and later calls silently do nothing.
@MainActor
public protocol PermissionLedger: AnyObject, Sendable {
    /// Whether the one Always request of this install has been made.
    var alwaysLocationRequested: Bool { get set }
}

/// A ledger kept in memory, for tests and previews.
@MainActor
public final class InMemoryPermissionLedger: PermissionLedger {
    public var alwaysLocationRequested: Bool

    public init(alwaysLocationRequested: Bool = false) {
        self.alwaysLocationRequested = alwaysLocationRequested
    }
}

/// A ledger in `UserDefaults`, which iOS clears on uninstall: exactly "once per install".
@MainActor
public final class UserDefaultsPermissionLedger: PermissionLedger {
    private let key: String

    /// - Parameter key: the defaults key that records the Always request.
    public init(key: String = "petspot.permissions.alwaysLocationRequested") {
        self.key = key
    }

    public var alwaysLocationRequested: Bool {
        get { UserDefaults.standard.bool(forKey: key) }
        set { UserDefaults.standard.set(newValue, forKey: key) }
    }
}
