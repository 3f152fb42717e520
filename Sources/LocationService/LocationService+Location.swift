import Foundation
import PetSpotDomain

extension LocationService {
    /// One current location, or nil.
    ///
    /// Nil when not authorized (the manager is not touched), on a failure, when no fix comes within
    /// ``Configuration/locationTimeout``, when the calling task is cancelled, and when the request
    /// delivers only a fix older than ``Configuration/maximumCachedFixAge``. A cached fix no older than
    /// that is returned at once. Callers that arrive while a
    /// request is in flight share its outcome.
    public func requestLocation() async -> UserLocation? {
        startHandlingEvents()
        guard !Task.isCancelled, await currentStatus.isAuthorized else { return nil }
        if let cached = await cachedFix?.userLocation, isFresh(cached) { return cached }
        guard !Task.isCancelled else { return nil }
        let token = nextToken()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                locationWaiters[token] = continuation
                if locationWaiters.count == 1 { startLocationRequest() }
            }
        } onCancel: {
            Task { await self.cancelLocationWaiter(token) }
        }
    }

    /// Whether `location` is no older than ``Configuration/maximumCachedFixAge``.
    func isFresh(_ location: UserLocation) -> Bool {
        configuration.isFresh(fixTakenAt: location.timestamp, now: now())
    }

    private func startLocationRequest() {
        locationTimeoutTask?.cancel()
        let deadline = Deadline(after: configuration.locationTimeout, on: clock)
        let request = nextToken()
        locationRequest = request
        locationTimeoutTask = Task { [weak self] in
            do { try await deadline.wait() } catch { return }
            await self?.locationRequestTimedOut(request)
        }
        send(.requestLocation(configuration.desiredAccuracy))
    }

    /// The timer of `request` fired; one that fired as its request ended must not end a newer one.
    private func locationRequestTimedOut(_ request: Int) {
        guard request == locationRequest, !locationWaiters.isEmpty else { return }
        send(.stopUpdatingLocation)
        finishLocationRequest(with: nil)
    }

    /// Resumes every caller waiting for a fix, once each. An outcome with nobody waiting is dropped.
    func finishLocationRequest(with location: UserLocation?) {
        let waiters = locationWaiters
        locationWaiters.removeAll()
        locationTimeoutTask?.cancel()
        locationTimeoutTask = nil
        locationRequest = nil
        for waiter in waiters.values { waiter.resume(returning: location) }
    }

    private func cancelLocationWaiter(_ token: Int) {
        guard let waiter = locationWaiters.removeValue(forKey: token) else { return }
        if locationWaiters.isEmpty {
            locationTimeoutTask?.cancel()
            locationTimeoutTask = nil
            locationRequest = nil
            send(.stopUpdatingLocation)
        }
        waiter.resume(returning: nil)
    }
}
