import LocationService

extension PermissionManager {
    /// Runs `operation` once for all concurrent callers of the same request. With `bounded`, waits for
    /// its result at most the app's authorization timeout
    /// (``LocationService/Configuration/authorizationTimeout``, the one bound of every permission
    /// wait); location requests pass false, as the location service bounds them itself. Returns nil
    /// when the bound passes first or when the calling task is cancelled. At the bound the request no
    /// longer counts as under way (the card is free again, and the next Allow asks afresh); a late
    /// outcome of the old operation is dropped.
    func shared(
        _ kind: RequestKind,
        bounded: Bool = true,
        _ operation: @escaping @MainActor () async -> RequestResult
    ) async -> RequestResult? {
        let request: SharedRequest
        if let running = runningRequests[kind] {
            request = running
        } else {
            request = SharedRequest()
            runningRequests[kind] = request
            requestsInFlight.insert(kind.permission)
            Task { @MainActor [weak self] in
                let result = await operation()
                request.finish(with: result)
                self?.ended(request, kind)
            }
        }
        let deadline = bounded ? Deadline(after: locationService.configuration.authorizationTimeout, on: clock) : nil
        let result = await request.result(before: deadline)
        if result == nil, !Task.isCancelled { ended(request, kind) }
        return result
    }

    /// `request` of `kind` is no longer under way (finished, or past its bound).
    private func ended(_ request: SharedRequest, _ kind: RequestKind) {
        guard runningRequests[kind] === request else { return }
        runningRequests[kind] = nil
        if !runningRequests.keys.contains(where: { $0.permission == kind.permission }) {
            requestsInFlight.remove(kind.permission)
        }
    }
}

/// One request under way and the callers waiting for it. Each caller is resumed exactly once: with the
/// result, or with nil at its deadline (if it has one) or when its task is cancelled.
@MainActor
final class SharedRequest {
    private var outcome: RequestResult?
    private var waiters: [Int: CheckedContinuation<RequestResult?, Never>] = [:]
    private var nextID = 0

    func result(before deadline: Deadline?) async -> RequestResult? {
        if let outcome { return outcome }
        let id = nextID
        nextID += 1
        let timer = deadline.map { deadline in
            Task { @MainActor [weak self] in
                do { try await deadline.wait() } catch { return }
                self?.release(id)
            }
        }
        defer { timer?.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(returning: nil)
                } else {
                    waiters[id] = continuation
                }
            }
        } onCancel: {
            // Hops to the main actor: by then the waiter is registered, or it never will be.
            Task { @MainActor [weak self] in self?.release(id) }
        }
    }

    func finish(with result: RequestResult) {
        outcome = result
        let waiting = waiters
        waiters.removeAll()
        for waiter in waiting.values { waiter.resume(returning: result) }
    }

    private func release(_ id: Int) {
        waiters.removeValue(forKey: id)?.resume(returning: nil)
    }
}

/// A request that concurrent callers share.
enum RequestKind: Hashable, Sendable {
    case locationWhenInUse, locationAlways, motion, health

    var permission: Permission {
        switch self {
        case .locationWhenInUse, .locationAlways: .location
        case .motion: .motion
        case .health: .healthKit
        }
    }
}

/// What a shared request produced.
enum RequestResult: Sendable {
    case state(PermissionState)
    case always(LocationAlwaysOutcome)
    case failed(PermissionRequestError)
}
