// CMMotionActivityManager exists on iOS, iPadOS, Mac Catalyst and watchOS, not on macOS (whose SDK
// still has CoreMotion): the package also builds for macOS 14. Linux's type-check keeps covering it.
#if canImport(CoreMotion) && !os(macOS)
    import CoreMotion
    import Foundation
    import DeviceInterfaces

    /// ``MotionAuthorizing`` over `CMMotionActivityManager`: status and availability are class
    /// queries that never prompt; the request is one activity query, whose handler CoreMotion calls
    /// exactly once, on the main queue given here.
    @MainActor
    public final class CoreMotionAuthorizer: MotionAuthorizing {
        private let manager = CMMotionActivityManager()

        public init() {}

        public var isActivityAvailable: Bool {
            CMMotionActivityManager.isActivityAvailable()
        }

        public var authorizationStatus: MotionAuthorizationStatus {
            MotionAuthorizationStatus(rawAuthorizationStatus: CMMotionActivityManager.authorizationStatus().rawValue)
        }

        public func queryActivity(from start: Date, to end: Date) async throws -> Int {
            try await withCheckedThrowingContinuation { continuation in
                manager.queryActivityStarting(from: start, to: end, to: OperationQueue.main) { activities, error in
                    if let error {
                        let nsError = error as NSError
                        if nsError.domain == CMErrorDomain {
                            continuation.resume(throwing: MotionActivityError(code: nsError.code))
                        } else {
                            continuation.resume(throwing: error)
                        }
                    } else {
                        continuation.resume(returning: activities?.count ?? 0)
                    }
                }
            }
        }
    }
#endif
