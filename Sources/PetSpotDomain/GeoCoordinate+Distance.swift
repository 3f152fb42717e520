import Foundation

extension GeoCoordinate {
    /// The mean radius of the Earth in metres (IUGG), the sphere every distance here is measured on.
    public static let earthRadiusMetres = 6_371_008.8

    /// The great-circle distance to `other` in metres, on the mean sphere (haversine, which stays
    /// exact for the few metres between two fixes of a walk, where the law of cosines loses digits).
    public func distance(to other: GeoCoordinate) -> Double {
        let lat1 = latitude * .pi / 180
        let lat2 = other.latitude * .pi / 180
        let dLat = lat2 - lat1
        let dLon = (other.longitude - longitude) * .pi / 180
        let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * Self.earthRadiusMetres * asin(min(1, a.squareRoot()))
    }

    /// The point a `fraction` (0…1) of the way to `other` along the straight line in latitude and
    /// longitude, across the antimeridian the short way. Between two fixes of a walk, metres apart,
    /// that line and the great circle differ by far less than a fix's accuracy.
    public func interpolated(to other: GeoCoordinate, fraction: Double) -> GeoCoordinate {
        var dLon = other.longitude - longitude
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        var lon = longitude + dLon * fraction
        if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        let lat = latitude + (other.latitude - latitude) * fraction
        // Both stay in range: lat between two valid latitudes, lon wrapped into [-180, 180].
        return (try? GeoCoordinate(latitude: lat, longitude: lon)) ?? self
    }
}
