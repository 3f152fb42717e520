import Foundation

/// A domain mirror of `CMMotionActivity`: what the phone thinks the person is doing, and how sure
/// it is. iOS can report several kinds at once (walking while in a car); ``kind`` is the one the
/// app acts on, chosen as ``init(stationary:walking:running:cycling:automotive:confidence:at:)`` says.
public struct MotionActivity: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        case stationary, walking, running, cycling, automotive, unknown
    }

    /// `CMMotionActivityConfidence`.
    public enum Confidence: Int, Sendable, Hashable, CaseIterable, Codable, Comparable {
        case low = 0, medium = 1, high = 2

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public var kind: Kind
    public var confidence: Confidence
    /// When the activity began (`startDate`).
    public var startDate: Date

    public init(_ kind: Kind, confidence: Confidence, at startDate: Date) {
        self.kind = kind
        self.confidence = confidence
        self.startDate = startDate
    }

    /// From `CMMotionActivity`'s flags. Moving wins over stationary (iOS sets `stationary` with
    /// `automotive` at a red light), and the faster way of moving over the slower one.
    public init(
        stationary: Bool, walking: Bool, running: Bool, cycling: Bool, automotive: Bool,
        confidence: Confidence, at startDate: Date
    ) {
        let kind: Kind =
            automotive ? .automotive
            : cycling ? .cycling
            : running ? .running
            : walking ? .walking
            : stationary ? .stationary
            : .unknown
        self.init(kind, confidence: confidence, at: startDate)
    }
}
