import Foundation
import PetSpotDomain

/// What PetSpot uses of `CLLocationManager`, in domain types only, so that the service above it is
/// tested on any platform against a fake or the simulated iPhone.
///
/// Like `CLLocationManager`, a manager lives on the main thread: iOS delivers delegate callbacks on
/// the run loop of the thread that created the manager, and a manager made elsewhere never calls
/// back. Delegate callbacks arrive, in order, on ``events``.
@MainActor
public protocol LocationManaging: AnyObject, Sendable {
    /// The app's status, read from the manager instance (never the class-level query).
    var authorizationStatus: LocationPermissionStatus { get }
    /// Whether "Precise Location" is on.
    var accuracyAuthorization: LocationAccuracyAuthorization { get }
    /// The last fix the system has, however old, or nil if none was ever taken.
    var location: LocationFix? { get }
    /// How precise a fix `requestLocation()` aims for.
    var desiredAccuracy: LocationAccuracy { get set }

    /// Shows the When-In-Use alert if the status is `.notDetermined`, the app is in the foreground and
    /// Info.plist has `NSLocationWhenInUseUsageDescription`; otherwise does nothing at all.
    func requestWhenInUseAuthorization()
    /// Asks for Always (rule 6 of iOS semantics); may do nothing, and may answer with no callback.
    func requestAlwaysAuthorization()
    /// Starts one fix request; its one outcome arrives as an event.
    func requestLocation()
    /// Stops an outstanding fix request.
    func stopUpdatingLocation()

    /// The delegate callbacks, in the order iOS made them. Meant for one consumer.
    nonisolated var events: AsyncStream<LocationManagerEvent> { get }

    /// Whether Location Services are on for the whole device. On iOS this asks a system daemon
    /// synchronously, so implementations must not run it on the main thread.
    nonisolated func locationServicesEnabled() async -> Bool
}

/// One delegate callback of a location manager.
public enum LocationManagerEvent: Sendable, Equatable {
    /// `locationManagerDidChangeAuthorization(_:)`: sent once after creation and on every real change.
    case authorizationChanged(LocationPermissionStatus, LocationAccuracyAuthorization)
    /// `locationManager(_:didUpdateLocations:)`: one or more fixes, the last is the newest.
    case locationsUpdated([LocationFix])
    /// `locationManager(_:didFailWithError:)`.
    case failed(LocationManagerError)
    /// iOS 18: a live update's diagnostic says no fix will come (``LocationDiagnostic/meansNoFix``);
    /// the classic delegate path never sends it.
    case fixUnavailable(LocationDiagnostic)
}

/// A fix as the device reports it (a domain mirror of `CLLocation`). Unlike ``UserLocation`` it may
/// be invalid: iOS marks a fix whose coordinate is unknown with a negative horizontal accuracy.
public struct LocationFix: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double
    /// Metres; negative means the coordinate is invalid.
    public var horizontalAccuracy: Double
    public var timestamp: Date

    public init(latitude: Double, longitude: Double, horizontalAccuracy: Double, timestamp: Date) {
        self.latitude = latitude
        self.longitude = longitude
        self.horizontalAccuracy = horizontalAccuracy
        self.timestamp = timestamp
    }

    /// The fix as a validated location, or nil if the coordinate is invalid.
    public var userLocation: UserLocation? {
        try? UserLocation(
            latitude: latitude,
            longitude: longitude,
            horizontalAccuracy: horizontalAccuracy,
            timestamp: timestamp
        )
    }
}

/// A `CLError` code, kept as its raw value so that unknown codes survive.
public struct LocationManagerError: Error, Sendable, Equatable, Hashable, CustomStringConvertible {
    public var code: Int

    public init(code: Int) {
        self.code = code
    }

    /// No fix could be had right now (`CLError.locationUnknown`).
    public static let locationUnknown = LocationManagerError(code: 0)
    /// Not authorized (`CLError.denied`).
    public static let denied = LocationManagerError(code: 1)
    /// The network was unavailable (`CLError.network`).
    public static let network = LocationManagerError(code: 2)
    /// A temporary full-accuracy request was declined (`CLError.promptDeclined`).
    public static let promptDeclined = LocationManagerError(code: 18)

    public var description: String {
        switch code {
        case 0: "locationUnknown"
        case 1: "denied"
        case 2: "network"
        case 18: "promptDeclined"
        default: "CLError \(code)"
        }
    }
}

/// `desiredAccuracy`, as the named constants of CoreLocation.
public enum LocationAccuracy: String, Sendable, Equatable, Hashable, CaseIterable, Codable {
    case best
    case nearestTenMeters
    case hundredMeters
    case kilometer
    case threeKilometers
    case reduced

    /// The constant's value in metres (`kCLLocationAccuracyBest` is -1, `Reduced` 3000).
    public var meters: Double {
        switch self {
        case .best: -1
        case .nearestTenMeters: 10
        case .hundredMeters: 100
        case .kilometer: 1000
        case .threeKilometers: 3000
        case .reduced: 3000
        }
    }
}
