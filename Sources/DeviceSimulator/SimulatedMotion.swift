import DeviceInterfaces
import Foundation

/// Motion & Fitness of the simulated iPhone (`CMMotionActivityManager`, rule 19 to rule 22).
///
/// - The status is read without prompting; the prompt appears on the first activity query (19).
/// - Denied or restricted queries fail with CMError 105; no coprocessor fails with 104 and makes
///   `isActivityAvailable` false (20).
/// - A query without `NSMotionUsageDescription` throws ``SimulatedCrash``: iOS would kill the app (21).
/// - The system-wide "Fitness Tracking" switch off makes the status `.restricted` (22).
///
/// It stands alone: Info.plist and the prompt's visibility are injected, so a device plugs it in by
/// passing its Info.plist keys and forwarding ``SimulatedPermissionPrompt`` visibility to its alerts.
@MainActor
public final class SimulatedMotion: MotionAuthorizing {
    /// The person's answer to the Motion & Fitness prompt.
    public enum Answer: String, Sendable, Equatable, CaseIterable {
        case allow
        case dontAllow
    }

    /// Whether the phone has a motion coprocessor.
    public var hasMotionCoprocessor: Bool
    /// Settings › Privacy & Security › Motion & Fitness › Fitness Tracking (system-wide).
    public private(set) var fitnessTrackingEnabled: Bool
    /// The app's own decision, as Settings stores it.
    public private(set) var storedStatus: MotionAuthorizationStatus
    /// Activities a successful query finds.
    public var recordedActivityCount: Int
    /// The prompt; a test or a device answers it.
    public let prompt: SimulatedPermissionPrompt<Answer>
    /// How many queries the app made.
    public private(set) var queryCount = 0

    private let hasInfoPlistKey: @MainActor (String) -> Bool

    /// - Parameters:
    ///   - hasInfoPlistKey: whether the app's Info.plist has a (non-empty) value for a key.
    ///   - promptVisibilityChanged: told when the prompt appears or goes.
    public init(
        hasMotionCoprocessor: Bool = true,
        fitnessTrackingEnabled: Bool = true,
        status: MotionAuthorizationStatus = .notDetermined,
        recordedActivityCount: Int = 3,
        hasInfoPlistKey: @escaping @MainActor (String) -> Bool,
        promptVisibilityChanged: @escaping @MainActor (Bool) -> Void = { _ in }
    ) {
        self.hasMotionCoprocessor = hasMotionCoprocessor
        self.fitnessTrackingEnabled = fitnessTrackingEnabled
        self.storedStatus = status
        self.recordedActivityCount = recordedActivityCount
        self.hasInfoPlistKey = hasInfoPlistKey
        self.prompt = SimulatedPermissionPrompt(visibilityChanged: promptVisibilityChanged)
    }

    public var isActivityAvailable: Bool { hasMotionCoprocessor }

    public var authorizationStatus: MotionAuthorizationStatus {
        fitnessTrackingEnabled ? storedStatus : .restricted
    }

    public func queryActivity(from start: Date, to end: Date) async throws -> Int {
        queryCount += 1
        guard hasInfoPlistKey(InfoPlistRequirement.motion.key) else {
            throw SimulatedCrash.missingUsageDescription(
                InfoPlistRequirement.motion.key,
                exception: "SIGABRT (TCC privacy violation)",
                while: "access motion activity"
            )
        }
        guard hasMotionCoprocessor else { throw MotionActivityError.notAvailable }
        if authorizationStatus == .notDetermined {
            guard let answer = await prompt.present() else {
                try Task.checkCancellation()
                throw SystemPromptDismissed(prompt: "Motion & Fitness")
            }
            if storedStatus == .notDetermined { storedStatus = answer == .allow ? .authorized : .denied }
        }
        guard authorizationStatus == .authorized else { throw MotionActivityError.notAuthorized }
        return recordedActivityCount
    }

    /// The person changes the app's Motion & Fitness switch in Settings (no callback reaches the app).
    public func setAllowedInSettings(_ allowed: Bool) {
        storedStatus = allowed ? .authorized : .denied
    }

    /// The person switches Fitness Tracking for the whole device.
    public func setFitnessTrackingEnabled(_ enabled: Bool) {
        fitnessTrackingEnabled = enabled
    }
}
