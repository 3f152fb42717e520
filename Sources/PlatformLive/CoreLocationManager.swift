#if canImport(CoreLocation)
    import CoreLocation
    import Foundation
    import DeviceInterfaces
    import PetSpotDomain

    /// `LocationManaging` over a real `CLLocationManager`: maps types and forwards delegate callbacks
    /// as events. All logic lives in `LocationService`.
    ///
    /// It is main-actor isolated, so its `CLLocationManager` is created on the main thread, whose run
    /// loop delivers the callbacks (a manager made on a thread without a run loop never calls back).
    @MainActor
    public final class CoreLocationManager: NSObject, LocationManaging {
        private let manager: CLLocationManager
        public nonisolated let events: AsyncStream<LocationManagerEvent>
        private nonisolated let eventSink: AsyncStream<LocationManagerEvent>.Continuation

        public override init() {
            manager = CLLocationManager()
            (events, eventSink) = AsyncStream<LocationManagerEvent>.makeStream()
            super.init()
            manager.delegate = self
        }

        public var authorizationStatus: LocationPermissionStatus {
            LocationPermissionStatus(rawAuthorizationStatus: manager.authorizationStatus.rawValue)
        }

        public var accuracyAuthorization: LocationAccuracyAuthorization {
            LocationAccuracyAuthorization(rawAccuracyAuthorization: manager.accuracyAuthorization.rawValue)
        }

        public var location: LocationFix? {
            manager.location.map(Self.fix(from:))
        }

        public var desiredAccuracy: LocationAccuracy {
            get { Self.accuracy(from: manager.desiredAccuracy) }
            set { manager.desiredAccuracy = Self.coreLocationAccuracy(newValue) }
        }

        public func requestWhenInUseAuthorization() { manager.requestWhenInUseAuthorization() }
        public func requestAlwaysAuthorization() { manager.requestAlwaysAuthorization() }
        public func requestLocation() { manager.requestLocation() }
        public func stopUpdatingLocation() { manager.stopUpdatingLocation() }

        /// The class-level query talks to a system daemon synchronously: run it off the main thread.
        public nonisolated func locationServicesEnabled() async -> Bool {
            await Task.detached(priority: .utility) { CLLocationManager.locationServicesEnabled() }.value
        }

        nonisolated static func fix(from location: CLLocation) -> LocationFix {
            LocationFix(
                latitude: location.coordinate.latitude,
                longitude: location.coordinate.longitude,
                horizontalAccuracy: location.horizontalAccuracy,
                timestamp: location.timestamp
            )
        }

        nonisolated static func coreLocationAccuracy(_ accuracy: LocationAccuracy) -> CLLocationAccuracy {
            switch accuracy {
            case .best: kCLLocationAccuracyBest
            case .nearestTenMeters: kCLLocationAccuracyNearestTenMeters
            case .hundredMeters: kCLLocationAccuracyHundredMeters
            case .kilometer: kCLLocationAccuracyKilometer
            case .threeKilometers: kCLLocationAccuracyThreeKilometers
            case .reduced: kCLLocationAccuracyReduced
            }
        }

        nonisolated static func accuracy(from value: CLLocationAccuracy) -> LocationAccuracy {
            LocationAccuracy.allCases.first { coreLocationAccuracy($0) == value } ?? .best
        }
    }

    extension CoreLocationManager: CLLocationManagerDelegate {
        // The callbacks only read their arguments and yield to a thread-safe continuation, so they
        // need no isolation; iOS calls them on the main thread anyway.

        public nonisolated func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
            eventSink.yield(
                .authorizationChanged(
                    LocationPermissionStatus(rawAuthorizationStatus: manager.authorizationStatus.rawValue),
                    LocationAccuracyAuthorization(rawAccuracyAuthorization: manager.accuracyAuthorization.rawValue)
                )
            )
        }

        public nonisolated func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
            eventSink.yield(.locationsUpdated(locations.map(Self.fix(from:))))
        }

        public nonisolated func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
            let code = (error as? CLError)?.code.rawValue ?? LocationManagerError.locationUnknown.code
            eventSink.yield(.failed(LocationManagerError(code: code)))
        }
    }
#endif
