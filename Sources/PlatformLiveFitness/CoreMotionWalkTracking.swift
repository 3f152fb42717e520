// CMMotionActivityManager and CMPedometer exist on iOS, iPadOS, Mac Catalyst and watchOS, not on
// macOS (whose SDK still has CoreMotion): the package also builds for macOS 14.
#if canImport(CoreMotion) && !os(macOS)
    import CoreMotion
    import DeviceInterfaces
    import Foundation

    /// ``WalkMotionTracking`` over CoreMotion: activity updates and the pedometer (rule 33), as domain
    /// values. Each stream stops its CoreMotion updates when its reader stops.
    @MainActor
    public final class CoreMotionWalkTracking: WalkMotionTracking {
        public init() {}

        public func activityUpdates() -> AsyncStream<MotionActivity> {
            let (stream, continuation) = AsyncStream<MotionActivity>.makeStream()
            let updates = Updates(stop: CMMotionActivityManager())
            // @Sendable and nonisolated: CoreMotion calls it on the queue given (the main one here),
            // and only the domain value (Sendable) leaves it.
            updates.activity?.startActivityUpdates(to: .main) { @Sendable activity in
                guard let activity else { return }
                continuation.yield(Self.activity(from: activity))
            }
            continuation.onTermination = { _ in Task { @MainActor in updates.stop() } }
            return stream
        }

        public func stepUpdates(from start: Date) -> AsyncStream<Int> {
            let (stream, continuation) = AsyncStream<Int>.makeStream()
            let updates = Updates(stop: CMPedometer())
            // The trap: CoreMotion calls this on a queue of its own. A closure formed here without
            // @Sendable would be main-actor isolated, and Swift 6 would stop the app on that call.
            // An error (Motion not allowed, say) ends nothing: the walk simply gets no more counts.
            updates.pedometer?.startUpdates(from: start) { @Sendable data, _ in
                guard let data else { return }
                continuation.yield(data.numberOfSteps.intValue)
            }
            continuation.onTermination = { _ in Task { @MainActor in updates.stop() } }
            return stream
        }

        /// What one stream keeps running, until its reader stops. Main-actor isolated, so the stream's
        /// termination handler may hold it.
        @MainActor
        final class Updates {
            private(set) var activity: CMMotionActivityManager?
            private(set) var pedometer: CMPedometer?

            init(stop activity: CMMotionActivityManager) { self.activity = activity }

            init(stop pedometer: CMPedometer) { self.pedometer = pedometer }

            func stop() {
                activity?.stopActivityUpdates()
                pedometer?.stopUpdates()
                activity = nil
                pedometer = nil
            }
        }

        nonisolated static func activity(from activity: CMMotionActivity) -> MotionActivity {
            let confidence: MotionActivity.Confidence =
                switch activity.confidence {
                case .low: .low
                case .medium: .medium
                case .high: .high
                @unknown default: .low
                }
            return MotionActivity(
                stationary: activity.stationary, walking: activity.walking, running: activity.running,
                cycling: activity.cycling, automotive: activity.automotive, confidence: confidence,
                at: activity.startDate
            )
        }
    }
#endif
