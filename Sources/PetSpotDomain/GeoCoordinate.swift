/// A point on Earth whose latitude and longitude are known to be finite and within range.
public struct GeoCoordinate: Sendable, Hashable, Codable {
    public let latitude: Double
    public let longitude: Double

    /// Creates a coordinate, refusing NaN, infinities and values out of range.
    /// - Throws: ``CoordinateError`` naming the offending value.
    public init(latitude: Double, longitude: Double) throws(CoordinateError) {
        guard latitude.isFinite, (-90.0...90.0).contains(latitude) else {
            throw .latitudeOutOfRange(latitude)
        }
        guard longitude.isFinite, (-180.0...180.0).contains(longitude) else {
            throw .longitudeOutOfRange(longitude)
        }
        self.latitude = latitude
        self.longitude = longitude
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            latitude: container.decode(Double.self, forKey: .latitude),
            longitude: container.decode(Double.self, forKey: .longitude)
        )
    }
}

/// Why a coordinate was refused.
public enum CoordinateError: Error, Equatable, Sendable, CustomStringConvertible {
    case latitudeOutOfRange(Double)
    case longitudeOutOfRange(Double)
    case invalidHorizontalAccuracy(Double)

    public var description: String {
        switch self {
        case .latitudeOutOfRange(let value):
            "latitude \(value) is not a finite number between -90 and 90"
        case .longitudeOutOfRange(let value):
            "longitude \(value) is not a finite number between -180 and 180"
        case .invalidHorizontalAccuracy(let value):
            "horizontal accuracy \(value) is not a finite number"
        }
    }
}
