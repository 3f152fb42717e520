import Foundation

/// Where the person is, as the device reported it. It cannot hold an invalid coordinate.
public struct UserLocation: Sendable, Equatable, Hashable {
    public let coordinate: GeoCoordinate
    /// Radius of uncertainty in metres; never negative (iOS marks invalid fixes with a negative value,
    /// and those never become a `UserLocation`).
    public let horizontalAccuracy: Double
    /// When the fix was taken.
    public let timestamp: Date

    public var latitude: Double { coordinate.latitude }
    public var longitude: Double { coordinate.longitude }

    /// - Throws: ``CoordinateError`` naming the offending value.
    public init(
        latitude: Double,
        longitude: Double,
        horizontalAccuracy: Double = 0,
        timestamp: Date = Date()
    ) throws(CoordinateError) {
        guard horizontalAccuracy.isFinite, horizontalAccuracy >= 0 else {
            throw .invalidHorizontalAccuracy(horizontalAccuracy)
        }
        self.coordinate = try GeoCoordinate(latitude: latitude, longitude: longitude)
        self.horizontalAccuracy = horizontalAccuracy
        self.timestamp = timestamp
    }

    /// A point known to be valid, of no uncertainty: the center of a place the person chose.
    public init(coordinate: GeoCoordinate, timestamp: Date) {
        self.coordinate = coordinate
        self.horizontalAccuracy = 0
        self.timestamp = timestamp
    }

    /// The same fix with its coordinate rounded to `decimals` places (2 places ≈ 1 km), for sending
    /// no more precision than a feature needs.
    public func rounded(toDecimals decimals: Int) -> UserLocation {
        let scale = pow(10.0, Double(max(0, min(decimals, 8))))
        // Rounding a valid coordinate stays within range, so this cannot fail; fall back to self anyway.
        return (try? UserLocation(
            latitude: (latitude * scale).rounded() / scale,
            longitude: (longitude * scale).rounded() / scale,
            horizontalAccuracy: horizontalAccuracy,
            timestamp: timestamp
        )) ?? self
    }
}
