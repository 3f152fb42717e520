import Foundation
import PetSpotDomain

/// What PetSpot uses of iOS 18's location model, in domain types: `CLServiceSession` and
/// `CLLocationUpdate.liveUpdates()` with their diagnostics (rule 30, rule 31 in docs/requirements.md).
/// On iOS 17 there is no such thing, and ``LocationManaging`` alone is used.
@MainActor
public protocol LocationServiceSessions: AnyObject, Sendable {
    /// `CLServiceSession(authorization:)`: declares what the app needs for as long as the session is
    /// held. Made in the foreground while the status is not determined, it asks the person.
    func startSession(_ authorization: ServiceSessionAuthorization) -> any LocationServiceSession
    /// `CLLocationUpdate.liveUpdates()`: fixes and diagnostics until the stream is dropped.
    func liveUpdates() -> AsyncStream<LocationUpdate>
}

/// One held `CLServiceSession`.
@MainActor
public protocol LocationServiceSession: AnyObject, Sendable {
    /// The session's diagnostics, each time they change (`CLServiceSession.diagnostics`).
    nonisolated var diagnostics: AsyncStream<Set<LocationDiagnostic>> { get }
    /// Ends the session (`invalidate()`); the diagnostics stream finishes.
    func invalidate()
}

/// `CLServiceSession.AuthorizationRequirement`.
public enum ServiceSessionAuthorization: String, Sendable, Equatable, Hashable, CaseIterable {
    case none, whenInUse, always
}

extension ServiceSessionAuthorization {
    /// The Info.plist flag `NSLocationRequireExplicitServiceSession`: live updates then come only while
    /// the app holds a session, none being made for them implicitly (rule 31).
    public static let requireExplicitSessionKey = "NSLocationRequireExplicitServiceSession"
}

/// One element of `CLLocationUpdate.liveUpdates()`: a fix, or diagnostics saying why there is none.
public struct LocationUpdate: Sendable, Equatable {
    public var location: LocationFix?
    public var diagnostics: Set<LocationDiagnostic>

    public init(location: LocationFix? = nil, diagnostics: Set<LocationDiagnostic> = []) {
        self.location = location
        self.diagnostics = diagnostics
    }

    /// The first diagnostic that means no fix will come, in a fixed order so that a log reads the same
    /// on every run.
    public var noFixReason: LocationDiagnostic? {
        LocationDiagnostic.allCases.first { $0.meansNoFix && diagnostics.contains($0) }
    }
}

/// A Boolean diagnostic of `CLLocationUpdate` or `CLServiceSession.Diagnostic`, named as CoreLocation
/// names the property.
public enum LocationDiagnostic: String, Sendable, Equatable, Hashable, CaseIterable, Comparable {
    case authorizationDenied
    case authorizationDeniedGlobally
    case authorizationRestricted
    case serviceSessionRequired
    case insufficientlyInUse
    case authorizationRequestInProgress
    case locationUnavailable
    case accuracyLimited
    case stationary
    case alwaysAuthorizationDenied
    case fullAccuracyDenied

    /// Whether no fix can come while this holds, so that waiting for one is pointless: the person or
    /// the device said no, or the app holds no session it needs. `locationUnavailable` is not one: it
    /// passes when the signal returns.
    public var meansNoFix: Bool {
        switch self {
        case .authorizationDenied, .authorizationDeniedGlobally, .authorizationRestricted,
            .serviceSessionRequired, .insufficientlyInUse:
            true
        case .authorizationRequestInProgress, .locationUnavailable, .accuracyLimited, .stationary,
            .alwaysAuthorizationDenied, .fullAccuracyDenied:
            false
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs) ?? 0 < allCases.firstIndex(of: rhs) ?? 0
    }
}
