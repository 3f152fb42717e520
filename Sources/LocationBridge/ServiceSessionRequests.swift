import DeviceInterfaces
import Foundation
import PetSpotDomain

/// How ``LocationService`` asks on iOS 18 and later, where a `CLServiceSession` and live updates
/// replace the location manager's request calls (rule 30, rule 31). The service's callers do not know
/// which way it asks.
///
/// - An authorization request holds a service session with that goal (`.whenInUse`, or `.always` for
///   the permissions screen's "Allow Always") until the service's wait for it ends, answered or not:
///   creating the session in the foreground is what asks.
/// - A fix request holds a `.whenInUse` session and reads live updates until the first fix, or until
///   a diagnostic says none will come (``LocationDiagnostic/meansNoFix``), reported as
///   ``LocationManagerEvent/fixUnavailable(_:)``; then both end. The 5 s bound stays in the service.
/// - The status, the accuracy, the cached fix and the authorization callbacks still come from the
///   location manager: iOS 18 reports changes to its delegate as before.
@MainActor
final class ServiceSessionRequests {
    /// What fix request `request` came to.
    struct Outcome: Sendable {
        var request: Int
        var event: LocationManagerEvent
    }

    private let sessions: any LocationServiceSessions
    /// Where a fix request's outcome goes: the service reads it as it reads the manager's callbacks.
    private let outcomes: AsyncStream<Outcome>.Continuation

    /// The session of the authorization request under way.
    private var authorizationSession: (any LocationServiceSession)?
    /// The fix request under way: its number, session and live updates.
    private var fixRequest: (number: Int, session: any LocationServiceSession, updates: Task<Void, Never>)?

    init(sessions: any LocationServiceSessions, outcomes: AsyncStream<Outcome>.Continuation) {
        self.sessions = sessions
        self.outcomes = outcomes
    }

    /// A new request replaces the one under way, whose session ends.
    func requestAuthorization(_ goal: ServiceSessionAuthorization) {
        authorizationSession?.invalidate()
        authorizationSession = sessions.startSession(goal)
    }

    /// The service's wait for an answer ended, answered or not.
    func endAuthorizationSession() {
        authorizationSession?.invalidate()
        authorizationSession = nil
    }

    /// Starts reading live updates under a `.whenInUse` session for fix request `number`. One in flight
    /// at a time, as with `requestLocation()`: the service stops one before it starts the next.
    func requestLocation(_ number: Int) {
        stopUpdatingLocation()
        let session = sessions.startSession(.whenInUse)
        let updates = sessions.liveUpdates()
        let task = Task { [weak self] in
            for await update in updates {
                guard let self, !Task.isCancelled else { return }
                if self.fixRequestHeard(update, request: number) { return }
            }
        }
        fixRequest = (number, session, task)
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
    private func fixRequestHeard(_ update: LocationUpdate, request number: Int) -> Bool {
        guard fixRequest?.number == number else { return true }
        let event: LocationManagerEvent
        if let fix = update.location {
            event = .locationsUpdated([fix])
        } else if let reason = update.noFixReason {
            event = .fixUnavailable(reason)
        } else {
            return false
        }
        stopUpdatingLocation()
        outcomes.yield(Outcome(request: number, event: event))
        return true
    }
}
