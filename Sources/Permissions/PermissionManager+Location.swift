import LocationService
import PetSpotDomain

extension PermissionManager {
    /// Step one: asks for When-In-Use location.
    ///
    /// Returns at once when the status is already determined (iOS would show nothing). Otherwise asks
    /// and waits for an answer, at most ``Configuration/answerTimeout`` (iOS sends no callback when the
    /// app is not in the foreground), and returns the state then. A late answer still arrives through
    /// ``stateUpdates(for:)``.
    /// - Throws: ``PermissionRequestError/missingUsageDescription(_:keys:)`` when Info.plist lacks
    ///   `NSLocationWhenInUseUsageDescription` (iOS would silently do nothing).
    @discardableResult
    public func requestLocationWhenInUse() async throws(PermissionRequestError) -> PermissionState {
        locationStatusChanged(to: location.authorizationStatus)
        guard locationStatus == .notDetermined else { return state(for: .location) }
        try requireKeys([.locationWhenInUse], for: .location)
        let result = await shared(.locationWhenInUse) { [weak self] in
            guard let self else { return .state(.notDetermined) }
            let status = await self.waitForLocationAnswer(
                ask: { $0.requestWhenInUseAuthorization() },
                isAnswer: { $0 != .notDetermined }
            )
            return .state(PermissionState(status))
        }
        if case .state(let state) = result { return state }
        return state(for: .location)
    }

    /// Step two, a separate explicit call: asks to upgrade a While-Using grant to Always (rule 6).
    ///
    /// Nothing is asked when the status is not While Using (from `.notDetermined` iOS would show the
    /// When-In-Use prompt instead, so that step must come first) or when this install already made its
    /// one Always request. "Keep Only While Using" sends no callback, and after "Allow Once" iOS
    /// ignores the call, so the wait is bounded by ``Configuration/answerTimeout``, and cut short
    /// ``Configuration/settleDelay`` after ``refresh()`` (the app is active again, the prompt is gone).
    /// - Throws: ``PermissionRequestError/missingUsageDescription(_:keys:)`` when Info.plist lacks
    ///   either location usage description.
    public func requestLocationAlways() async throws(PermissionRequestError) -> LocationAlwaysOutcome {
        locationStatusChanged(to: location.authorizationStatus)
        switch locationStatus {
        case .authorizedAlways: return .alreadyAlways
        case .notDetermined: return .needsWhenInUseFirst
        case .denied, .restricted: return .notAllowed(state(for: .location))
        case .authorizedWhenInUse: break
        }
        try requireKeys([.locationWhenInUse, .locationAlways], for: .location)
        if runningRequests[.locationAlways] == nil, ledger.alwaysLocationRequested { return .alreadyAskedOnce }
        let result = await shared(.locationAlways) { [weak self] in
            guard let self else { return .always(.stayedWhenInUse) }
            self.ledger.alwaysLocationRequested = true
            let status = await self.waitForLocationAnswer(
                ask: { $0.requestAlwaysAuthorization() },
                isAnswer: { $0 != .authorizedWhenInUse }
            )
            switch status {
            case .authorizedAlways: return .always(.upgraded)
            case .authorizedWhenInUse: return .always(.stayedWhenInUse)
            case .notDetermined, .denied, .restricted: return .always(.notAllowed(PermissionState(status)))
            }
        }
        if case .always(let outcome) = result { return outcome }
        return .stayedWhenInUse
    }

    /// Whether the one Always request of this install is still available.
    public var canRequestLocationAlways: Bool {
        locationStatus == .authorizedWhenInUse && !ledger.alwaysLocationRequested
    }

    /// Records a status the location manager reported or that was read from it.
    func locationStatusChanged(to status: LocationPermissionStatus) {
        if status == .notDetermined, ledger.alwaysLocationRequested {
            // Only an "Allow Once" grant lapsing (or the person choosing "Ask Next Time") brings
            // While Using back to not determined. An Always request made during Allow Once was ignored
            // by iOS, so it did not use up the one request of this install. At worst a later request
            // waits out its bound for nothing.
            ledger.alwaysLocationRequested = false
        }
        guard status != locationStatus else { return }
        locationStatus = status
        for waiter in locationWaiters.values { waiter.continuation.yield(.status(status)) }
        publishChanges()
    }

    func checkLocation() async {
        locationStatusChanged(to: location.authorizationStatus)
        let enabled = await location.locationServicesEnabled()
        if enabled != locationServicesEnabled { locationServicesEnabled = enabled }
    }

    /// Ends pending location waits shortly after the app became active again.
    func settleLocationWaiters() {
        for waiter in locationWaiters.values where waiter.settleTask == nil {
            let continuation = waiter.continuation
            let deadline = Deadline(after: configuration.settleDelay, on: clock)
            waiter.settleTask = Task {
                do { try await deadline.wait() } catch { return }
                continuation.yield(.settled)
            }
        }
    }

    /// Makes a request and waits for a status that `isAnswer` accepts, for the timeout, or for the
    /// settle delay after a refresh; then returns the status the manager reports.
    private func waitForLocationAnswer(
        ask: (any LocationManaging) -> Void,
        isAnswer: (LocationPermissionStatus) -> Bool
    ) async -> LocationPermissionStatus {
        let (signals, continuation) = AsyncStream<LocationWaitSignal>.makeStream(bufferingPolicy: .unbounded)
        let waiter = LocationWaiter(continuation: continuation)
        let id = nextWaiterID
        nextWaiterID += 1
        locationWaiters[id] = waiter
        let deadline = Deadline(after: configuration.answerTimeout, on: clock)
        let timer = Task {
            do { try await deadline.wait() } catch { return }
            continuation.yield(.settled)
        }
        defer {
            timer.cancel()
            waiter.settleTask?.cancel()
            locationWaiters[id] = nil
            continuation.finish()
        }
        ask(location)
        locationStatusChanged(to: location.authorizationStatus)
        if isAnswer(locationStatus) { return locationStatus }
        for await signal in signals {
            switch signal {
            case .status(let status) where isAnswer(status):
                return status
            case .status:
                continue
            case .settled:
                locationStatusChanged(to: location.authorizationStatus)
                return locationStatus
            }
        }
        return locationStatus
    }
}

/// What can end a location wait.
enum LocationWaitSignal: Sendable {
    case status(LocationPermissionStatus)
    case settled
}

/// One pending location wait.
@MainActor
final class LocationWaiter {
    let continuation: AsyncStream<LocationWaitSignal>.Continuation
    var settleTask: Task<Void, Never>?

    init(continuation: AsyncStream<LocationWaitSignal>.Continuation) {
        self.continuation = continuation
    }
}
