import Foundation

/// A 0.05° × 0.05° latitude/longitude cell. The SQLite store keeps a pet count per cell so that a nearby
/// query counts the cells lying wholly inside the circle without reading their pets.
struct GeoCell: Hashable, Sendable {
    static let cellsPerDegree = 20.0
    static let latitudeCells = 180 * 20
    static let longitudeCells = 360 * 20

    var row: Int
    var column: Int

    init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }

    /// The cell holding a point; ±90° and 180° fall into the last row/column.
    init(lat: Double, lon: Double) {
        row = min(Self.latitudeCells - 1, max(0, Int(((lat + 90) * Self.cellsPerDegree).rounded(.down))))
        column = min(Self.longitudeCells - 1, max(0, Int(((lon + 180) * Self.cellsPerDegree).rounded(.down))))
    }

    /// Rows and columns of the cells a search box touches.
    static func range(of box: SearchBox) -> (rows: ClosedRange<Int>, columns: ClosedRange<Int>) {
        let low = GeoCell(lat: box.minLat, lon: box.minLon)
        let high = GeoCell(lat: box.maxLat, lon: box.maxLon)
        return (low.row...high.row, low.column...high.column)
    }

    var minLat: Double { Double(row) / Self.cellsPerDegree - 90 }
    var maxLat: Double { Double(row + 1) / Self.cellsPerDegree - 90 }
    var minLon: Double { Double(column) / Self.cellsPerDegree - 180 }
    var maxLon: Double { Double(column + 1) / Self.cellsPerDegree - 180 }

    /// Where the cell lies relative to a circle: its centre's distance ± the farthest corner from the
    /// centre bounds the distance of every point inside (triangle inequality; cells are far smaller than
    /// a hemisphere, so the farthest point of a cell from its centre is a corner).
    func position(fromLat lat: Double, lon: Double, radiusKm: Double) -> Position {
        let centerLat = (minLat + maxLat) / 2
        let centerLon = (minLon + maxLon) / 2
        let halfDiagonal = max(
            GreatCircle.distanceKm(lat1: centerLat, lon1: centerLon, lat2: minLat, lon2: minLon),
            GreatCircle.distanceKm(lat1: centerLat, lon1: centerLon, lat2: maxLat, lon2: minLon)
        ) + 1e-6
        let distance = GreatCircle.distanceKm(lat1: lat, lon1: lon, lat2: centerLat, lon2: centerLon)
        if distance + halfDiagonal < radiusKm - Self.safetyKm { return .inside }
        if distance - halfDiagonal > radiusKm + Self.safetyKm { return .outside }
        return .boundary
    }

    /// Rounding allowance so that a point right at a cell edge is never misjudged.
    static let safetyKm = 0.001

    enum Position {
        case inside, outside, boundary
    }
}
