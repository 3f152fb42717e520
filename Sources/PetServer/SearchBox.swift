import Foundation
import PetSpotDomain

/// A latitude/longitude rectangle that never crosses the antimeridian (`minLon <= maxLon`).
public struct SearchBox: Sendable, Equatable {
    public var minLat: Double
    public var maxLat: Double
    public var minLon: Double
    public var maxLon: Double

    public init(minLat: Double, maxLat: Double, minLon: Double, maxLon: Double) {
        self.minLat = minLat
        self.maxLat = maxLat
        self.minLon = minLon
        self.maxLon = maxLon
    }

    public func contains(lat: Double, lon: Double) -> Bool {
        (minLat...maxLat).contains(lat) && (minLon...maxLon).contains(lon)
    }

    /// Rectangles that together cover every point within `radiusKm` of `center`, widened by `margin`
    /// degrees (rounding allowance). A circle over a pole covers all longitudes; one that
    /// crosses ±180° is split in two.
    public static func covering(
        center: GeoCoordinate, radiusKm: Double, margin: Double = 1e-3
    ) -> [SearchBox] {
        let angular = radiusKm / GreatCircle.earthRadiusKm
        let dLat = angular * 180 / .pi
        let minLat = center.latitude - dLat - margin
        let maxLat = center.latitude + dLat + margin
        if minLat <= -90 || maxLat >= 90 || angular >= .pi / 2 {
            return [SearchBox(minLat: max(-90, minLat), maxLat: min(90, maxLat), minLon: -180, maxLon: 180)]
        }
        // Widest longitude span of the circle (reached off the center's parallel).
        let ratio = sin(angular) / cos(center.latitude * .pi / 180)
        guard ratio < 1 else {
            return [SearchBox(minLat: minLat, maxLat: maxLat, minLon: -180, maxLon: 180)]
        }
        let dLon = asin(ratio) * 180 / .pi + margin
        let west = center.longitude - dLon
        let east = center.longitude + dLon
        if dLon >= 180 {
            return [SearchBox(minLat: minLat, maxLat: maxLat, minLon: -180, maxLon: 180)]
        }
        if west < -180 {
            return [
                SearchBox(minLat: minLat, maxLat: maxLat, minLon: west + 360, maxLon: 180),
                SearchBox(minLat: minLat, maxLat: maxLat, minLon: -180, maxLon: east),
            ]
        }
        if east > 180 {
            return [
                SearchBox(minLat: minLat, maxLat: maxLat, minLon: west, maxLon: 180),
                SearchBox(minLat: minLat, maxLat: maxLat, minLon: -180, maxLon: east - 360),
            ]
        }
        return [SearchBox(minLat: minLat, maxLat: maxLat, minLon: west, maxLon: east)]
    }
}
