import Foundation

/// What would terminate the app on a real iPhone, thrown instead so a test can see it (a missing
/// `NSMotionUsageDescription`, rule 21; a missing Health usage description, rule 27).
public struct SimulatedCrash: Error, Sendable, Equatable, CustomStringConvertible {
    /// The Objective-C exception or signal iOS would raise.
    public var exception: String
    /// Why, naming the missing key.
    public var reason: String

    public init(exception: String, reason: String) {
        self.exception = exception
        self.reason = reason
    }

    public var description: String { "app terminated: \(exception): \(reason)" }

    /// iOS's crash when a usage description is missing from Info.plist.
    static func missingUsageDescription(_ key: String, exception: String, while doing: String) -> SimulatedCrash {
        SimulatedCrash(
            exception: exception,
            reason: "\(key) must be set in the app's Info.plist to \(doing)"
        )
    }
}

extension SimulatedCrash: LocalizedError {
    /// What `localizedDescription` gives: the whole account, naming the missing key.
    public var errorDescription: String? { description }
}
