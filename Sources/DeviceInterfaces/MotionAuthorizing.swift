import Foundation

/// What the permission manager uses of `CMMotionActivityManager`, in domain types only.
///
/// CoreMotion has no request API (rule 19): reading ``authorizationStatus`` never prompts, and the
/// prompt appears on the first activity query. Main-actor isolated like the permission manager
/// that owns it.
@MainActor
public protocol MotionAuthorizing: AnyObject, Sendable {
    /// `CMMotionActivityManager.isActivityAvailable()`: false without a motion coprocessor.
    var isActivityAvailable: Bool { get }
    /// `CMMotionActivityManager.authorizationStatus()`; never prompts.
    var authorizationStatus: MotionAuthorizationStatus { get }
    /// `queryActivityStarting(from:to:to:withHandler:)`: returns how many activities were found.
    /// The first call while the status is `.notDetermined` shows the Motion & Fitness prompt.
    /// - Throws: ``MotionActivityError`` as CoreMotion reports it (105 when not authorized), or
    ///   ``SystemPromptDismissed`` when the prompt went away unanswered.
    func queryActivity(from start: Date, to end: Date) async throws -> Int
}

/// A domain mirror of `CMAuthorizationStatus`.
public enum MotionAuthorizationStatus: String, Sendable, Hashable, CaseIterable, Codable {
    case notDetermined
    /// The system-wide "Fitness Tracking" switch is off, or device management forbids it.
    case restricted
    case denied
    case authorized

    /// Maps a raw `CMAuthorizationStatus` (notDetermined 0, restricted 1, denied 2, authorized 3).
    /// Unknown values read as `.notDetermined`: the app asks instead of assuming a grant.
    public init(rawAuthorizationStatus raw: Int) {
        switch raw {
        case 1: self = .restricted
        case 2: self = .denied
        case 3: self = .authorized
        default: self = .notDetermined
        }
    }

    /// The raw `CMAuthorizationStatus` value.
    public var rawAuthorizationStatus: Int {
        switch self {
        case .notDetermined: 0
        case .restricted: 1
        case .denied: 2
        case .authorized: 3
        }
    }
}

/// An error in `CMErrorDomain`, kept as its raw code so unknown codes survive.
public struct MotionActivityError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `CMErrorDomain`.
    public static let domain = "CMErrorDomain"

    public var code: Int

    public init(code: Int) {
        self.code = code
    }

    /// `CMErrorMotionActivityNotAvailable` (104): no activity data on this device.
    public static let notAvailable = MotionActivityError(code: 104)
    /// `CMErrorMotionActivityNotAuthorized` (105): the person denied Motion & Fitness.
    public static let notAuthorized = MotionActivityError(code: 105)
    /// `CMErrorMotionActivityNotEntitled` (106): the app is not entitled to activity data.
    public static let notEntitled = MotionActivityError(code: 106)

    public var description: String {
        switch code {
        case 104: "motion activity not available (CMError 104)"
        case 105: "motion activity not authorized (CMError 105)"
        case 106: "motion activity not entitled (CMError 106)"
        default: "CMError \(code)"
        }
    }
}

/// A request ended because its system prompt went away unanswered (the app left the foreground or
/// ended while the prompt was up). Nothing was decided: the status is still `.notDetermined`, and the
/// next request asks again.
public struct SystemPromptDismissed: Error, Sendable, Equatable, CustomStringConvertible {
    /// The prompt's name, such as "Motion & Fitness".
    public var prompt: String

    public init(prompt: String) {
        self.prompt = prompt
    }

    public var description: String { "the \(prompt) prompt went away unanswered" }
}
