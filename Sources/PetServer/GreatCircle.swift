import Foundation
import PetSpotDomain

/// Great-circle geometry on a sphere of mean Earth radius.
public enum GreatCircle {
    /// IUGG mean Earth radius in kilometres.
    public static let earthRadiusKm = 6371.0088

    /// Haversine distance in kilometres; exact across the antimeridian and near the poles.
    public static func distanceKm(_ a: GeoCoordinate, _ b: GeoCoordinate) -> Double {
        distanceKm(lat1: a.latitude, lon1: a.longitude, lat2: b.latitude, lon2: b.longitude)
    }

    @inline(__always)
    public static func distanceKm(lat1: Double, lon1: Double, lat2: Double, lon2: Double) -> Double {
        let radians = Double.pi / 180
        let dLat = (lat2 - lat1) * radians
        let dLon = (lon2 - lon1) * radians
        let sinLat = sin(dLat / 2)
        let sinLon = sin(dLon / 2)
        let h = sinLat * sinLat + cos(lat1 * radians) * cos(lat2 * radians) * sinLon * sinLon
        // atan2 keeps full precision for nearly antipodal points, where asin(√h) does not.
        let clamped = min(1, max(0, h))
        return 2 * earthRadiusKm * atan2(sqrt(clamped), sqrt(1 - clamped))
    }
}
