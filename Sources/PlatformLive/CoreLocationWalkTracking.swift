// CLBackgroundActivitySession exists on iOS 17 and watchOS 10, not on macOS (whose SDK still has
// CoreLocation): the package also builds for macOS 14. Linux's type-check keeps covering it.
#if canImport(CoreLocation) && !os(macOS)
    import CoreLocation
    import DeviceInterfaces
    import Foundation

    /// ``WalkLocationTracking`` over iOS 17's CoreLocation: a `CLBackgroundActivitySession` (rule 32)
    /// and `CLLocationUpdate.liveUpdates(.fitness)`, its fixes as domain values.
    @MainActor
    public final class CoreLocationWalkTracking: WalkLocationTracking {
        /// The manager of the significant-change service. Its delegate is never set: what the service
        /// is for is iOS relaunching the app (rule 35), after which live updates carry the walk.
        private let significantChanges = CLLocationManager()

        public init() {}

        public func startRelaunchMonitoring() {
            significantChanges.startMonitoringSignificantLocationChanges()
        }

        public func stopRelaunchMonitoring() {
            significantChanges.stopMonitoringSignificantLocationChanges()
        }

        public func beginBackgroundActivity() -> any BackgroundActivity {
            CoreLocationBackgroundActivity()
        }

        public func walkUpdates() -> AsyncStream<LocationUpdate> {
            let (stream, continuation) = AsyncStream<LocationUpdate>.makeStream()
            let task = Task {
                // The sequence throws only when it cannot go on; the walk then simply gets no more fixes.
                do {
                    for try await update in CLLocationUpdate.liveUpdates(.fitness) {
                        guard let location = update.location else { continue }
                        continuation.yield(LocationUpdate(location: CoreLocationManager.fix(from: location)))
                    }
                } catch {}
                continuation.finish()
            }
            // The walk ended: stop asking CoreLocation too.
            continuation.onTermination = { _ in task.cancel() }
            return stream
        }
    }

    /// The walk's hold on background location: a `CLBackgroundActivitySession` and, from iOS 18, a
    /// While-Using `CLServiceSession` beside it (Info.plist's `NSLocationRequireExplicitServiceSession`
    /// makes live updates wait for one: rule 31). Both end on `invalidate()`, or when nothing holds
    /// this any more (CoreLocation invalidates a session that is deallocated).
    @MainActor
    final class CoreLocationBackgroundActivity: BackgroundActivity {
        private let activity = CLBackgroundActivitySession()
        /// The iOS 18 service session, kept as `AnyObject` so that the stored property needs no
        /// availability of its own.
        private let service: AnyObject?

        init() {
            if #available(iOS 18.0, *) {
                service = CLServiceSession(authorization: .whenInUse)
            } else {
                service = nil
            }
        }

        func invalidate() {
            activity.invalidate()
            if #available(iOS 18.0, *), let service = service as? CLServiceSession { service.invalidate() }
        }
    }
#endif
