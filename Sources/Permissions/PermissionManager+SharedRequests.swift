extension PermissionManager {
    /// Runs `operation` once for all concurrent callers of the same request.
    func shared(
        _ kind: RequestKind,
        _ operation: @escaping @MainActor () async -> RequestResult
    ) async -> RequestResult {
        if let running = runningRequests[kind] { return await running.value }
        requestsInFlight.insert(kind.permission)
        let task = Task { @MainActor in await operation() }
        runningRequests[kind] = task
        let result = await task.value
        runningRequests[kind] = nil
        if !runningRequests.keys.contains(where: { $0.permission == kind.permission }) {
            requestsInFlight.remove(kind.permission)
        }
        return result
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
