import DeviceInterfaces
import Foundation
import PetSpotDomain

/// How ``LocationService`` asks on iOS 18 and later, where a `CLServiceSession` and live updates
/// replace the location manager's request calls (rule 30, rule 31). The service's callers do not know
/// which way it asks.
///
/// - An authorization request holds a service session with that goal (`.whenInUse`, or `.always` for
///   the permissions screen's "Allow Always") until the person's answer is reported: creating the
///   session in the foreground is what asks.
/// - A fix request holds a `.whenInUse` session and reads live updates until the first fix, or until
///   a diagnostic says none will come (``LocationDiagnostic/meansNoFix``), reported as
///   ``LocationManagerEvent/fixUnavailable(_:)``; then both end. The 5 s bound stays in the service.
/// - The status, the accuracy, the cached fix and the authorization callbacks still come from the
///   location manager: iOS 18 reports changes to its delegate as before.
@MainActor
final class ServiceSessionRequests {
    private let sessions: any LocationServiceSessions
    /// Where a fix request's outcome goes: the service reads it as it reads the manager's callbacks.
    private let outcomes: AsyncStream<LocationManagerEvent>.Continuation

    /// The session of the authorization request under way, and its goal.
    private var authorizationSession: (session: any LocationServiceSession, goal: ServiceSessionAuthorization)?
    /// The session and the live updates of the fix request under way.
    private var fixRequest: (session: any LocationServiceSession, updates: Task<Void, Never>)?

    init(sessions: any LocationServiceSessions, outcomes: AsyncStream<LocationManagerEvent>.Continuation) {
        self.sessions = sessions
        self.outcomes = outcomes
    }

    /// A new request replaces the one under way, whose session ends.
    func requestAuthorization(_ goal: ServiceSessionAuthorization) {
        authorizationSession?.session.invalidate()
        let session = sessions.startSession(goal)
        authorizationSession = (session, goal)
        // "Keep Only While Using" sends no callback; the `.always` session says so in its diagnostics.
        guard goal == .always else { return }
        let diagnostics = session.diagnostics
        Task { [weak self, weak session] in
            for await diagnostic in diagnostics where diagnostic.contains(.alwaysAuthorizationDenied) {
                guard let self, let session, self.authorizationSession?.session === session else { return }
                self.endAuthorizationSession()
                return
            }
        }
    }

    /// The manager reported `status`: if it answers the request under way, its session has done its work.
    func authorizationReported(_ status: LocationPermissionStatus) {
        guard let held = authorizationSession else { return }
        let answered =
            switch held.goal {
            case .whenInUse, .none: status != .notDetermined
            case .always: status != .notDetermined && status != .authorizedWhenInUse
            }
        if answered { endAuthorizationSession() }
    }

    /// Starts reading live updates under a `.whenInUse` session, unless a request is under way (as
    /// `requestLocation()`, one outcome per request).
    func requestLocation() {
        guard fixRequest == nil else { return }
        let session = sessions.startSession(.whenInUse)
        let updates = sessions.liveUpdates()
        let task = Task { [weak self] in
            for await update in updates {
                guard let self, !Task.isCancelled else { return }
                if self.fixRequestHeard(update) { return }
            }
        }
        fixRequest = (session, task)
    }

    /// Ends the fix request under way: no outcome follows.
    func stopUpdatingLocation() {
        guard let request = fixRequest else { return }
        fixRequest = nil
        request.updates.cancel()
        request.session.invalidate()
    }

    /// A fix or a reason for none ends the request; anything else (a request in progress, no signal
    /// yet) leaves it waiting. Returns whether the request ended.
    private func fixRequestHeard(_ update: LocationUpdate) -> Bool {
        let outcome: LocationManagerEvent
        if let fix = update.location {
            outcome = .locationsUpdated([fix])
        } else if let reason = update.noFixReason {
            outcome = .fixUnavailable(reason)
        } else {
            return false
        }
        stopUpdatingLocation()
        outcomes.yield(outcome)
        return true
    }

    private func endAuthorizationSession() {
        authorizationSession?.session.invalidate()
        authorizationSession = nil
    }
}
