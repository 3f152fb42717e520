extension PermissionManager {
    /// Asks for the configured HealthKit types.
    ///
    /// Returns at once without Health data, or when no sheet would appear. HealthKit's `success` is
    /// ignored: it is true whether or not anything was granted (rule 25). Afterwards the write status
    /// per type and the request status are read again; reading permission is never claimed.
    /// - Throws: ``PermissionRequestError/missingUsageDescription(_:keys:)`` when Info.plist lacks
    ///   `NSHealthShareUsageDescription` or `NSHealthUpdateUsageDescription` (iOS would crash), or
    ///   ``PermissionRequestError/systemError(_:_:)`` when HealthKit reports an error.
    @discardableResult
    public func requestHealth() async throws(PermissionRequestError) -> PermissionState {
        await checkHealth()
        guard health.isAvailable, health.requestStatus != .unnecessary else { return state(for: .healthKit) }
        let request = configuration.healthRequest
        var required: [InfoPlistRequirement] = []
        if !request.read.isEmpty { required.append(.healthShare) }
        if !request.share.isEmpty { required.append(.healthUpdate) }
        try requireKeys(required, for: .healthKit)
        let result = await shared(.health) { [weak self] in
            guard let self else { return .state(.notDetermined) }
            do {
                _ = try await self.healthStore.requestAuthorization(toShare: request.share, read: request.read)
            } catch {
                await self.checkHealth()
                return .failed(.systemError(.healthKit, String(describing: error)))
            }
            await self.checkHealth()
            return .state(self.state(for: .healthKit))
        }
        switch result {
        case .state(let state)?: return state
        case .failed(let error)?: throw error
        case .always?, nil:
            await checkHealth()
            return state(for: .healthKit)
        }
    }

    /// Re-reads availability, the write status of each type and the request status; never prompts.
    func checkHealth() async {
        guard healthStore.isHealthDataAvailable else {
            health = HealthAuthorization(isAvailable: false, writeStatus: [:], requestStatus: .unknown)
            publishChanges()
            return
        }
        let request = configuration.healthRequest
        let requestStatus: HealthRequestStatus
        do {
            requestStatus = try await healthStore.requestStatus(toShare: request.share, read: request.read)
        } catch {
            requestStatus = .unknown
        }
        var writeStatus: [HealthDataType: HealthShareStatus] = [:]
        for type in request.share { writeStatus[type] = healthStore.authorizationStatus(for: type) }
        let snapshot = HealthAuthorization(isAvailable: true, writeStatus: writeStatus, requestStatus: requestStatus)
        if snapshot != health { health = snapshot }
        publishChanges()
    }
}
