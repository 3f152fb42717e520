import PetSpotDomain

/// What came of asking to upgrade a While-Using grant to Always.
public struct AlwaysAuthorizationAnswer: Sendable, Equatable {
    /// The status when the wait ended: `.authorizedAlways` after "Change to Always Allow",
    /// `.authorizedWhenInUse` when nothing changed.
    public var status: LocationPermissionStatus
    /// Whether iOS showed its prompt (the app resigned active while the request was pending). False
    /// means iOS ignored the request, as it does during an "Allow Once" grant: the once-per-install
    /// Always request was not used up.
    public var promptAppeared: Bool

    public init(status: LocationPermissionStatus, promptAppeared: Bool) {
        self.status = status
        self.promptAppeared = promptAppeared
    }
}

extension LocationService {
    /// Which authorization request a round of waiting belongs to.
    enum AuthorizationKind: Sendable {
        case whenInUse, always

        /// Whether a reported status answers the request.
        func isAnswer(_ status: LocationPermissionStatus) -> Bool {
            switch self {
            case .whenInUse: status != .notDetermined
            case .always: status != .authorizedWhenInUse
            }
        }

        /// What a wait that ends without an answer reports: nothing changed.
        var unanswered: LocationPermissionStatus {
            switch self {
            case .whenInUse: .notDetermined
            case .always: .authorizedWhenInUse
            }
        }
    }

    /// One authorization request under way, and the callers waiting for its answer.
    struct AuthorizationRound {
        let id: Int
        let kind: AuthorizationKind
        var waiters: [Int: CheckedContinuation<AlwaysAuthorizationAnswer, Never>] = [:]
        var timers: [Task<Void, Never>] = []
        /// The app resigned active after the request: iOS's prompt is (or was) up.
        var promptAppeared = false
        var isSettling = false
    }

    /// Asks for When-In-Use permission and waits for the person's real answer.
    ///
    /// Returns the current status at once when it is not `.notDetermined` (iOS would show nothing).
    /// Otherwise it makes the request and waits for a status other than `.notDetermined`, at most
    /// ``Configuration/authorizationTimeout``, or ``Configuration/settleDelay`` after the app is active
    /// again with the alert gone (``applicationDidBecomeActive()``); then, or on cancellation, it
    /// returns `.notDetermined`.
    public func requestWhenInUseAuthorization() async -> LocationPermissionStatus {
        startHandlingEvents()
        let status = await currentStatus
        guard status == .notDetermined, !Task.isCancelled else { return status }
        return await waitForAuthorization(.whenInUse).status
    }

    /// Asks to upgrade a While-Using grant to Always (rule 6) and waits for the outcome.
    ///
    /// Returns at once, with `promptAppeared == false`, unless the status is `.authorizedWhenInUse`.
    /// "Change to Always Allow" reports `.authorizedAlways`. "Keep Only While Using" sends no
    /// callback: the wait then ends ``Configuration/settleDelay`` after the app is active again
    /// (``applicationDidBecomeActive()``). When the app has not resigned active within
    /// ``Configuration/promptAppearanceTimeout``, iOS ignored the request (an "Allow Once" grant, or
    /// the once-per-install request already made) and the wait ends then. Never longer than
    /// ``Configuration/authorizationTimeout``; cancellation ends the caller's wait at once.
    public func requestAlwaysAuthorization() async -> AlwaysAuthorizationAnswer {
        startHandlingEvents()
        let status = await currentStatus
        guard status == .authorizedWhenInUse, !Task.isCancelled else {
            return AlwaysAuthorizationAnswer(status: status, promptAppeared: false)
        }
        // The manager already reads While Using, but its callback may not be handled yet: that answer
        // ends the When-In-Use round now, so this request never joins it.
        authorizationReported(status)
        return await waitForAuthorization(.always)
    }

    /// The app resigned active (SwiftUI's `inactive`): a system prompt took the screen, or the person
    /// is leaving. Tells a pending request that its prompt appeared.
    public func applicationWillResignActive() {
        authorizationRound?.promptAppeared = true
    }

    /// The app reached the background: iOS took any alert away unanswered, so a pending request ends
    /// now without an answer, and the next one asks again.
    public func applicationDidEnterBackground() {
        guard let round = authorizationRound, round.promptAppeared else { return }
        finishAuthorizationRequest(with: round.kind.unanswered)
    }

    /// The app is active again. A pending request whose prompt was up ends ``Configuration/settleDelay``
    /// later unless an answer comes first: "Keep Only While Using" sends none, and a prompt the app's
    /// trip to the background dismissed never will. The next request then asks iOS again instead of
    /// joining a wait for an alert that is gone.
    public func applicationDidBecomeActive() {
        guard var round = authorizationRound, round.promptAppeared, !round.isSettling else {
            return
        }
        round.isSettling = true
        round.timers.append(timer(after: configuration.settleDelay, round: round.id))
        authorizationRound = round
    }

    private func waitForAuthorization(_ kind: AuthorizationKind) async -> AlwaysAuthorizationAnswer {
        let token = nextToken()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if authorizationRound == nil { startAuthorizationRequest(kind) }
                authorizationRound?.waiters[token] = continuation
            }
        } onCancel: {
            Task { await self.releaseAuthorizationWaiter(token) }
        }
    }

    private func startAuthorizationRequest(_ kind: AuthorizationKind) {
        var round = AuthorizationRound(id: nextToken(), kind: kind)
        round.timers.append(timer(after: configuration.authorizationTimeout, round: round.id))
        switch kind {
        case .whenInUse:
            authorizationRound = round
            send(.requestWhenInUseAuthorization)
        case .always:
            round.timers.append(timer(after: configuration.promptAppearanceTimeout, round: round.id, unlessPromptAppeared: true))
            authorizationRound = round
            send(.requestAlwaysAuthorization)
        }
    }

    /// A timer that ends round `round` without an answer at a deadline fixed now. With
    /// `unlessPromptAppeared` it ends it only if no prompt appeared by then.
    private func timer(after delay: Duration, round: Int, unlessPromptAppeared: Bool = false) -> Task<Void, Never> {
        let deadline = Deadline(after: delay, on: clock)
        return Task { [weak self] in
            do { try await deadline.wait() } catch { return }
            await self?.authorizationTimerFired(round: round, unlessPromptAppeared: unlessPromptAppeared)
        }
    }

    /// A timer of `round` fired. One that fired just as its round ended (its call was already on the
    /// way when it was cancelled) must not end a newer round.
    private func authorizationTimerFired(round: Int, unlessPromptAppeared: Bool) {
        guard let current = authorizationRound, current.id == round else { return }
        if unlessPromptAppeared, current.promptAppeared { return }
        finishAuthorizationRequest(with: current.kind.unanswered)
    }

    /// Ends the round under way if `status` answers it.
    func authorizationReported(_ status: LocationPermissionStatus) {
        guard let round = authorizationRound, round.kind.isAnswer(status) else { return }
        finishAuthorizationRequest(with: status)
    }

    /// Resumes every caller waiting for an answer, once each.
    private func finishAuthorizationRequest(with status: LocationPermissionStatus) {
        guard let round = authorizationRound else { return }
        authorizationRound = nil
        for timer in round.timers { timer.cancel() }
        let answer = AlwaysAuthorizationAnswer(status: status, promptAppeared: round.promptAppeared)
        for waiter in round.waiters.values { waiter.resume(returning: answer) }
    }

    /// A cancelled caller stops waiting at once with "no answer"; the last one ends the round's timers.
    private func releaseAuthorizationWaiter(_ token: Int) {
        guard var round = authorizationRound, let waiter = round.waiters.removeValue(forKey: token) else { return }
        if round.waiters.isEmpty {
            for timer in round.timers { timer.cancel() }
            authorizationRound = nil
        } else {
            authorizationRound = round
        }
        waiter.resume(returning: AlwaysAuthorizationAnswer(status: round.kind.unanswered, promptAppeared: round.promptAppeared))
    }
}
