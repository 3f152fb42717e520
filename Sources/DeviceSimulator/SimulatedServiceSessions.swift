import DeviceInterfaces
import Foundation
import PetSpotDomain

/// iOS 18's location model on the simulated iPhone: `CLServiceSession` and
/// `CLLocationUpdate.liveUpdates()` with their diagnostics (rule 30, rule 31 in docs/requirements.md).
/// Made by ``SimulatedDevice/serviceSessions()`` for the running app; nothing it made outlives the
/// app's process.
@MainActor
public final class SimulatedServiceSessions: LocationServiceSessions {
    weak var device: SimulatedDevice?
    /// False once the app's process has ended.
    var isAlive = true

    init(device: SimulatedDevice) {
        self.device = device
    }

    public func startSession(_ authorization: ServiceSessionAuthorization) -> any LocationServiceSession {
        guard let device, isAlive else { return SimulatedServiceSession.ended(authorization) }
        device.catchUp()
        return device.location.startSession(authorization)
    }

    public func liveUpdates() -> AsyncStream<LocationUpdate> {
        guard let device, isAlive else { return AsyncStream { $0.finish() } }
        device.catchUp()
        return device.location.startLiveUpdates()
    }
}

/// A `CLServiceSession` the app holds on the simulated iPhone.
@MainActor
public final class SimulatedServiceSession: LocationServiceSession {
    /// Numbers sessions in creation order, as the device log shows them.
    public nonisolated let id: Int
    public nonisolated let authorization: ServiceSessionAuthorization
    public nonisolated let diagnostics: AsyncStream<Set<LocationDiagnostic>>
    let continuation: AsyncStream<Set<LocationDiagnostic>>.Continuation
    weak var subsystem: LocationSubsystem?
    private(set) var isValid = true
    /// What the diagnostics stream said last (nil before the first).
    var lastDiagnostics: Set<LocationDiagnostic>?

    init(id: Int, authorization: ServiceSessionAuthorization, subsystem: LocationSubsystem?) {
        self.id = id
        self.authorization = authorization
        self.subsystem = subsystem
        (diagnostics, continuation) = AsyncStream<Set<LocationDiagnostic>>.makeStream()
    }

    /// A session asked for by an app that is no longer running: already over.
    static func ended(_ authorization: ServiceSessionAuthorization) -> SimulatedServiceSession {
        let session = SimulatedServiceSession(id: 0, authorization: authorization, subsystem: nil)
        session.end()
        return session
    }

    public func invalidate() {
        subsystem?.device?.catchUp()
        guard isValid else { return }
        end()
        subsystem?.sessionInvalidated(self)
    }

    func end() {
        isValid = false
        continuation.finish()
    }
}

/// One `liveUpdates()` sequence the app reads.
@MainActor
final class SimulatedLiveUpdates {
    enum Delivered: Equatable {
        case diagnostics(Set<LocationDiagnostic>)
        case fix
    }

    let id: Int
    let continuation: AsyncStream<LocationUpdate>.Continuation
    /// The update on its way, if any.
    var pending: DeviceScheduler.JobID?
    /// What the app was last sent (nil before the first update).
    var delivered: Delivered?

    init(id: Int, continuation: AsyncStream<LocationUpdate>.Continuation) {
        self.id = id
        self.continuation = continuation
    }
}

extension SimulatedDevice {
    /// iOS 18's service sessions and live updates, for the running app.
    /// - Throws: ``SimulatedDeviceError/requiresIOS18(running:)`` on iOS 17,
    ///   ``SimulatedDeviceError/appNotRunning``.
    public func serviceSessions() throws(SimulatedDeviceError) -> SimulatedServiceSessions {
        catchUp()
        guard configuration.supportsServiceSessions else { throw .requiresIOS18(running: configuration.iosVersion) }
        guard phase != .notRunning else { throw .appNotRunning }
        return location.makeSessionProvider()
    }
}

// MARK: - The subsystem's side

extension LocationSubsystem {
    func makeSessionProvider() -> SimulatedServiceSessions {
        guard let device else { preconditionFailure("a location subsystem always belongs to a device") }
        let provider = SimulatedServiceSessions(device: device)
        sessionProviders.append(provider)
        return provider
    }

    func startSession(_ authorization: ServiceSessionAuthorization) -> SimulatedServiceSession {
        sessionsMade += 1
        let session = SimulatedServiceSession(id: sessionsMade, authorization: authorization, subsystem: self)
        sessions.append(session)
        device?.record(.serviceSessionStarted(session: session.id, authorization))
        ask(for: session)
        refreshSessions()
        return session
    }

    func sessionInvalidated(_ session: SimulatedServiceSession) {
        sessions.removeAll { $0 === session }
        device?.record(.serviceSessionInvalidated(session: session.id))
        refreshSessions()
    }

    /// Rule 31: a session whose goal is not met asks as the matching request would, and only when the
    /// alert could appear; a goal already met or refused asks nothing (a session is a declaration, not
    /// a request, so nothing is "ignored").
    private func ask(for session: SimulatedServiceSession) {
        let request = "CLServiceSession(\(session.authorization.rawValue))"
        switch session.authorization {
        case .none:
            return
        case .whenInUse:
            if status == .notDetermined { askWhenInUse(as: request) }
        case .always:
            if status == .notDetermined || status == .authorizedWhenInUse { askAlways(as: request) }
        }
    }

    /// Rule 31: a session held while its goal is not met asks again by itself when the app is active
    /// again and the alert can appear (after an "Allow Once" grant lapsed, or an alert the trip to the
    /// background took away). Nothing is logged as ignored when it cannot.
    func sessionsAskAgain() {
        guard let device, device.phase.isForeground, !device.isShowingSystemAlert, status == .notDetermined else { return }
        func canAsk(_ session: SimulatedServiceSession) -> Bool {
            switch session.authorization {
            case .none: false
            case .whenInUse: device.infoPlistKeys.contains(InfoPlistRequirement.locationWhenInUse.key)
            case .always:
                !alwaysRequestUsed
                    && [InfoPlistRequirement.locationWhenInUse.key, InfoPlistRequirement.locationAlways.key].allSatisfy(device.infoPlistKeys.contains)
            }
        }
        // The widest goal that can ask: an `.always` session's alert grants While Using too.
        guard let session = sessions.first(where: { $0.authorization == .always && canAsk($0) })
            ?? sessions.first(where: canAsk) else { return }
        ask(for: session)
        refreshSessions()
    }

    func startLiveUpdates() -> AsyncStream<LocationUpdate> {
        liveStreamsMade += 1
        let (stream, continuation) = AsyncStream<LocationUpdate>.makeStream()
        let live = SimulatedLiveUpdates(id: liveStreamsMade, continuation: continuation)
        liveStreams.append(live)
        device?.record(.liveUpdatesStarted(stream: live.id))
        let id = live.id
        // The reader stopped (its task was cancelled, or it dropped the sequence). Until this hop
        // arrives, an update sent meanwhile finds the stream terminated and is neither sent nor logged.
        continuation.onTermination = { _ in
            Task { @MainActor [weak self] in self?.stopLiveUpdates(id) }
        }
        evaluate(live, moved: false)
        return stream
    }

    private func stopLiveUpdates(_ id: Int) {
        guard let index = liveStreams.firstIndex(where: { $0.id == id }) else { return }
        let live = liveStreams.remove(at: index)
        if let job = live.pending { device?.scheduler.cancel(job) }
        device?.record(.liveUpdatesStopped(stream: id))
    }

    /// The process ended: its sessions and streams end with it, without a word in the log.
    func endSessionsAndUpdates() {
        for provider in sessionProviders { provider.isAlive = false }
        sessionProviders = []
        for session in sessions { session.end() }
        sessions = []
        for live in liveStreams {
            if let job = live.pending { device?.scheduler.cancel(job) }
            live.continuation.finish()
        }
        liveStreams = []
    }

    // MARK: Diagnostics

    /// Tells every session and live-update stream what changed (status, scene, alert, position).
    func refreshSessions(moved: Bool = false) {
        for session in sessions {
            let now = diagnostics(of: session)
            guard now != session.lastDiagnostics else { continue }
            session.lastDiagnostics = now
            device?.record(.serviceSessionDiagnostics(session: session.id, now))
            session.continuation.yield(now)
        }
        for live in liveStreams { evaluate(live, moved: moved) }
    }

    /// Whether iOS's location authorization alert (When-In-Use or the Always upgrade) is on screen; a
    /// Motion or Health prompt is not one.
    private var isAskingForLocation: Bool {
        guard let kind = device?.systemAlert?.kind else { return false }
        return kind == .locationWhenInUse || kind == .locationAlwaysUpgrade
    }

    /// What keeps the app from location whatever it holds: the person, the device, or an alert
    /// still waiting for an answer.
    private var authorizationDiagnostics: Set<LocationDiagnostic> {
        if !servicesEnabled { return [.authorizationDeniedGlobally] }
        if restricted { return [.authorizationRestricted] }
        if status == .denied { return [.authorizationDenied] }
        if status == .notDetermined, isAskingForLocation { return [.authorizationRequestInProgress] }
        return []
    }

    /// A session's diagnostics: the above; `insufficientlyInUse` when it cannot ask because the app
    /// is not in the foreground; `alwaysAuthorizationDenied` for an `.always` goal the person refused
    /// (or already answered on this install).
    private func diagnostics(of session: SimulatedServiceSession) -> Set<LocationDiagnostic> {
        var result = authorizationDiagnostics
        let foreground = device?.phase.isForeground ?? false
        if status == .notDetermined, !foreground, session.authorization != .none { result.insert(.insufficientlyInUse) }
        if session.authorization == .always, status == .authorizedWhenInUse, alwaysRequestUsed, !isAskingForLocation {
            result.insert(.alwaysAuthorizationDenied)
        }
        return result
    }

    /// What live updates can give now.
    private enum LiveState {
        /// No fix can come; the app is told why.
        case blocked(Set<LocationDiagnostic>)
        /// Nothing to say yet (an alert may still be answered).
        case waiting
        case fixable
    }

    private var liveState: LiveState {
        let blocking = authorizationDiagnostics
        if !blocking.isEmpty { return .blocked(blocking) }
        let heldSession = sessions.contains { $0.authorization != .none }
        if device?.infoPlistKeys.contains(ServiceSessionAuthorization.requireExplicitSessionKey) == true, !heldSession {
            return .blocked([.serviceSessionRequired])
        }
        guard status.isAuthorized else { return .waiting }
        // Without the location background mode (PetSpot has none) an app in the background is not in
        // use: updates pause until it comes back.
        guard device?.phase.isForeground == true else { return .blocked([.insufficientlyInUse]) }
        return .fixable
    }

    /// Sends `live` what it should hear now: the diagnostics at once when no fix can come, else a fix
    /// after the quick (Wi-Fi and cell) delay of rule 14, or `locationUnavailable` after the no-fix
    /// timeout where there is no signal. A fix is sent once per stretch of availability, and again
    /// after the phone moves.
    private func evaluate(_ live: SimulatedLiveUpdates, moved: Bool) {
        guard let device else { return }
        switch liveState {
        case .blocked(let diagnostics):
            if live.delivered == .diagnostics(diagnostics), live.pending == nil { return }
            schedule(.diagnostics(diagnostics), on: live, after: .zero)
        case .waiting:
            if let job = live.pending { device.scheduler.cancel(job) }
            live.pending = nil
        case .fixable:
            if moved, let job = live.pending {
                device.scheduler.cancel(job)
                live.pending = nil
            }
            guard live.pending == nil, live.delivered != .fix || moved else { return }
            if live.delivered == nil, configuration.deliversCachedFixOnRequest, systemFix != nil {
                schedule(.fix, on: live, after: .zero)
            } else if position == nil {
                guard live.delivered != .diagnostics([.locationUnavailable]) else { return }
                schedule(.diagnostics([.locationUnavailable]), on: live, after: configuration.noFixTimeout)
            } else {
                schedule(.fix, on: live, after: min(configuration.coarseFixDelay, configuration.fixDelay))
            }
        }
    }

    private func schedule(_ what: SimulatedLiveUpdates.Delivered, on live: SimulatedLiveUpdates, after delay: Duration) {
        guard let device else { return }
        if let job = live.pending { device.scheduler.cancel(job) }
        live.pending = device.schedule(after: delay) { [weak self, weak live] in
            guard let self, let live else { return }
            live.pending = nil
            send(what, to: live)
        }
    }

    private func send(_ what: SimulatedLiveUpdates.Delivered, to live: SimulatedLiveUpdates) {
        guard let device else { return }
        let update: LocationUpdate
        switch what {
        case .diagnostics(let diagnostics):
            update = LocationUpdate(diagnostics: diagnostics)
        case .fix:
            let fix: TrueFix
            if live.delivered == nil, configuration.deliversCachedFixOnRequest, let cached = systemFix {
                fix = cached
            } else if let position {
                fix = TrueFix(coordinate: position, horizontalAccuracy: 65, at: device.currentElapsed)
                systemFix = fix
            } else {
                return
            }
            update = LocationUpdate(
                location: appView(of: fix, desired: .best),
                diagnostics: accuracy == .reducedAccuracy ? [.accuracyLimited] : []
            )
        }
        if case .terminated = live.continuation.yield(update) { return }
        live.delivered = what
        device.record(.liveUpdate(stream: live.id, update))
    }
}
