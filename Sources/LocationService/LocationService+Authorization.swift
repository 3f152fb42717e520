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
        authorizationTimeoutTask = Task { [weak self] in
            do { try await deadline.wait() } catch { return }
            await self?.finishAuthorizationRequest(with: .notDetermined)
        }
        send(.requestWhenInUseAuthorization)
    }

    /// Resumes every caller waiting for an answer, once each.
    func finishAuthorizationRequest(with status: LocationPermissionStatus) {
        let waiters = authorizationWaiters
        authorizationWaiters.removeAll()
        authorizationTimeoutTask?.cancel()
        authorizationTimeoutTask = nil
        for waiter in waiters.values { waiter.resume(returning: status) }
    }

    private func resumeAuthorizationWaiter(_ token: Int, with status: LocationPermissionStatus) {
        guard let waiter = authorizationWaiters.removeValue(forKey: token) else { return }
        if authorizationWaiters.isEmpty {
            authorizationTimeoutTask?.cancel()
            authorizationTimeoutTask = nil
        }
        waiter.resume(returning: status)
    }
}
