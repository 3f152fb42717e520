import Foundation

extension PermissionManager {
    /// Asks for Motion & Fitness with the smallest activity query (CoreMotion has no request API).
    ///
    /// Returns at once when activity data is unavailable or the status is decided. Error 105 means
    /// denied, 104 unavailable, 106 (not entitled) unavailable for this app.
    /// - Throws: ``PermissionRequestError/missingUsageDescription(_:keys:)`` when Info.plist lacks
    ///   `NSMotionUsageDescription` (iOS would crash the app).
    @discardableResult
    public func requestMotion() async throws(PermissionRequestError) -> PermissionState {
        checkMotion()
        guard isMotionAvailable, motionStatus == .notDetermined else { return state(for: .motion) }
        try requireKeys([.motion], for: .motion)
        let result = await shared(.motion) { [weak self] in
            guard let self else { return .state(.notDetermined) }
            let end = Date()
            var reported: MotionActivityError?
            do {
                _ = try await self.motion.queryActivity(from: end.addingTimeInterval(-60), to: end)
            } catch let error as MotionActivityError {
                reported = error
            } catch is SystemPromptDismissed {
                // No answer (the app left the foreground): the next Allow asks again.
                self.checkMotion()
                return .state(self.state(for: .motion))
            } catch {
                self.checkMotion()
                return .failed(.systemError(.motion, String(describing: error)))
            }
            self.checkMotion()
            switch reported?.code {
            case MotionActivityError.notAuthorized.code where self.motionStatus == .notDetermined:
                self.motionStatus = .denied
            case MotionActivityError.notAvailable.code, MotionActivityError.notEntitled.code:
                self.isMotionAvailable = false
            default:
                break
            }
            self.publishChanges()
            return .state(self.state(for: .motion))
        }
        switch result {
        case .state(let state)?: return state
        case .failed(let error)?: throw error
        case .always?, nil:
            checkMotion()
            return state(for: .motion)
        }
    }

    /// Re-reads availability and status; never prompts (rule 19).
    func checkMotion() {
        let available = motion.isActivityAvailable
        let status = motion.authorizationStatus
        if available != isMotionAvailable { isMotionAvailable = available }
        if status != motionStatus { motionStatus = status }
        publishChanges()
    }
}
