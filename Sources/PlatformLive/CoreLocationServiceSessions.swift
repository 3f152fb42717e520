#if canImport(CoreLocation)
    import CoreLocation
    import DeviceInterfaces
    import Foundation
    import PetSpotDomain
    import Synchronization

    /// `LocationServiceSessions` over iOS 18's CoreLocation: `CLServiceSession` and
    /// `CLLocationUpdate.liveUpdates()`, mapped to domain types. What to hold and when is decided in
    /// `LocationService`; the app uses this only behind `if #available(iOS 18, *)`.
    @available(iOS 18.0, *)
    @MainActor
    public final class CoreLocationServiceSessions: LocationServiceSessions {
        public init() {}

        public func startSession(_ authorization: ServiceSessionAuthorization) -> any LocationServiceSession {
            CoreLocationServiceSession(authorization: authorization)
        }

        public func liveUpdates() -> AsyncStream<LocationUpdate> {
            let (stream, continuation) = AsyncStream<LocationUpdate>.makeStream()
            let task = Task {
                // The sequence throws only when it cannot go on; it then simply ends, and the service's
                // 5 s bound ends any wait.
                do {
                    for try await update in CLLocationUpdate.liveUpdates() {
                        continuation.yield(Self.update(from: update))
                    }
                } catch {}
                continuation.finish()
            }
            // The reader stopped: stop asking CoreLocation too.
            continuation.onTermination = { _ in task.cancel() }
            return stream
        }

        nonisolated static func update(from update: CLLocationUpdate) -> LocationUpdate {
            var diagnostics: Set<LocationDiagnostic> = []
            if update.authorizationDenied { diagnostics.insert(.authorizationDenied) }
            if update.authorizationDeniedGlobally { diagnostics.insert(.authorizationDeniedGlobally) }
            if update.authorizationRestricted { diagnostics.insert(.authorizationRestricted) }
            if update.serviceSessionRequired { diagnostics.insert(.serviceSessionRequired) }
            if update.insufficientlyInUse { diagnostics.insert(.insufficientlyInUse) }
            if update.authorizationRequestInProgress { diagnostics.insert(.authorizationRequestInProgress) }
            if update.locationUnavailable { diagnostics.insert(.locationUnavailable) }
            if update.accuracyLimited { diagnostics.insert(.accuracyLimited) }
            if update.stationary { diagnostics.insert(.stationary) }
            return LocationUpdate(location: update.location.map(CoreLocationManager.fix(from:)), diagnostics: diagnostics)
        }
    }

    /// One held `CLServiceSession`, its diagnostics as domain values. Ends on `invalidate()`, or when
    /// nothing holds it any more.
    @available(iOS 18.0, *)
    @MainActor
    final class CoreLocationServiceSession: LocationServiceSession {
        private let session: CLServiceSession
        nonisolated let diagnostics: AsyncStream<Set<LocationDiagnostic>>
        private let sink: AsyncStream<Set<LocationDiagnostic>>.Continuation
        private let reader: Task<Void, Never>
        /// Set by the first end, so that the session is invalidated once whichever way it ends.
        private let ended = Atomic<Bool>(false)

        init(authorization: ServiceSessionAuthorization) {
            let requirement: CLServiceSession.AuthorizationRequirement =
                switch authorization {
                case .none: .none
                case .whenInUse: .whenInUse
                case .always: .always
                }
            let session = CLServiceSession(authorization: requirement)
            self.session = session
            let (stream, continuation) = AsyncStream<Set<LocationDiagnostic>>.makeStream()
            diagnostics = stream
            sink = continuation
            reader = Task {
                do {
                    for try await diagnostic in session.diagnostics {
                        continuation.yield(Self.diagnostics(from: diagnostic))
                    }
                } catch {}
                continuation.finish()
            }
        }

        func invalidate() { end() }

        // The reader task holds the session: without this, a wrapper dropped without `invalidate()`
        // would leave it held for the life of the process. (Only `Sendable` stored values are touched.)
        deinit { end() }

        private nonisolated func end() {
            guard !ended.exchange(true, ordering: .relaxed) else { return }
            reader.cancel()
            session.invalidate()
            // Whether CoreLocation's sequence ends on cancellation is not documented: ours ends now.
            sink.finish()
        }

        nonisolated static func diagnostics(from diagnostic: CLServiceSession.Diagnostic) -> Set<LocationDiagnostic> {
            var result: Set<LocationDiagnostic> = []
            if diagnostic.authorizationDenied { result.insert(.authorizationDenied) }
            if diagnostic.authorizationDeniedGlobally { result.insert(.authorizationDeniedGlobally) }
            if diagnostic.authorizationRestricted { result.insert(.authorizationRestricted) }
            if diagnostic.serviceSessionRequired { result.insert(.serviceSessionRequired) }
            if diagnostic.insufficientlyInUse { result.insert(.insufficientlyInUse) }
            if diagnostic.authorizationRequestInProgress { result.insert(.authorizationRequestInProgress) }
            if diagnostic.alwaysAuthorizationDenied { result.insert(.alwaysAuthorizationDenied) }
            if diagnostic.fullAccuracyDenied { result.insert(.fullAccuracyDenied) }
            return result
        }
    }
#endif
