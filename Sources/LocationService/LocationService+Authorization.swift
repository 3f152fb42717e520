import PetSpotDomain

extension LocationService {
    /// Asks for When-In-Use permission and waits for the person's real answer.
    ///
    /// Returns the current status at once when it is not `.notDetermined` (iOS would show nothing).
    /// Otherwise it makes the request and waits for a status other than `.notDetermined`, at most
    /// ``Configuration/authorizationTimeout``; then, or on cancellation, it returns `.notDetermined`.
    public func requestWhenInUseAuthorization() async -> LocationPermissionStatus {
        startHandlingEvents()
        let status = await currentStatus
        guard status == .notDetermined, !Task.isCancelled else { return status }
        let token = nextToken()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                authorizationWaiters[token] = continuation
                if authorizationWaiters.count == 1 { startAuthorizationRequest() }
            }
        } onCancel: {
            Task { await self.resumeAuthorizationWaiter(token, with: .notDetermined) }
        }
    }

    private func startAuthorizationRequest() {
        authorizationTimeoutTask?.cancel()
        let deadline = Deadline(after: configuration.authorizationTimeout, on: clock)
        let request = nextToken()
        authorizationRequest = request
        authorizationTimeoutTask = Task { [weak self] in
            do { try await deadline.wait() } catch { return }
            await self?.authorizationRequestTimedOut(request)
        }
        send(.requestWhenInUseAuthorization)
    }

    /// The timer of `request` fired. A timer that fired just as its request ended (its call was
    /// already on the way when it was cancelled) must not end a newer request.
    private func authorizationRequestTimedOut(_ request: Int) {
        guard request == authorizationRequest else { return }
        finishAuthorizationRequest(with: .notDetermined)
    }

    /// Resumes every caller waiting for an answer, once each.
    func finishAuthorizationRequest(with status: LocationPermissionStatus) {
        let waiters = authorizationWaiters
        authorizationWaiters.removeAll()
        authorizationTimeoutTask?.cancel()
        authorizationTimeoutTask = nil
        authorizationRequest = nil
        for waiter in waiters.values { waiter.resume(returning: status) }
    }

    private func resumeAuthorizationWaiter(_ token: Int, with status: LocationPermissionStatus) {
        guard let waiter = authorizationWaiters.removeValue(forKey: token) else { return }
        if authorizationWaiters.isEmpty {
            authorizationTimeoutTask?.cancel()
            authorizationTimeoutTask = nil
            authorizationRequest = nil
        }
        waiter.resume(returning: status)
    }
}
