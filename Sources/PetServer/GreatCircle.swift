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
        // One point, one spelling: lon −180 is 180, and a pole's longitude is 0. Two pets at the same
        // point then tie to the last bit and are ordered by id; measured as written, (0, 180) and
        // (0, −180) differ in the tenth digit (sin(π − x) is not sin(x) in floating point).
        let lon1 = canonicalLongitude(latitude: lat1, longitude: lon1)
        let lon2 = canonicalLongitude(latitude: lat2, longitude: lon2)
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

    /// The longitude a point is measured with: 0 at a pole, 180 for −180, else as given.
    @inline(__always)
    static func canonicalLongitude(latitude: Double, longitude: Double) -> Double {
        if abs(latitude) == 90 { return 0 }
        return longitude == -180 ? 180 : longitude
    }
}
