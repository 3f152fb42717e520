import Foundation
import PetSpotDomain

/// A 0.05° × 0.05° latitude/longitude cell. Nearby counts add up the pets of cells lying wholly inside
/// the circle without measuring them: PostgreSQL keeps a count per cell, SQLite's ``PositionIndex``
/// groups its positions by cell.
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

    /// The distances from a point within which every point of the cell lies: its centre's distance ±
    /// the farthest corner from the centre (triangle inequality; cells are far smaller than a
    /// hemisphere, so the farthest point of a cell from its centre is a corner).
    func distanceBounds(fromLat lat: Double, lon: Double) -> ClosedRange<Double> {
        let halfDiagonal = Self.halfDiagonalKm[row]
        let distance = GreatCircle.distanceKm(lat1: lat, lon1: lon, lat2: (minLat + maxLat) / 2, lon2: (minLon + maxLon) / 2)
        return max(0, distance - halfDiagonal)...(distance + halfDiagonal)
    }

    /// Per row, the distance from a cell's centre to its farthest corner (plus 1 mm): it depends on the
    /// latitude only, so it is worked out once for all 3,600 rows.
    static let halfDiagonalKm: [Double] = (0..<latitudeCells).map { row in
        let cell = GeoCell(row: row, column: 0)
        let centerLat = (cell.minLat + cell.maxLat) / 2
        let centerLon = (cell.minLon + cell.maxLon) / 2
        return max(
            GreatCircle.distanceKm(lat1: centerLat, lon1: centerLon, lat2: cell.minLat, lon2: cell.minLon),
            GreatCircle.distanceKm(lat1: centerLat, lon1: centerLon, lat2: cell.maxLat, lon2: cell.minLon)
        ) + 1e-6
    }

    /// Where the cell lies relative to a circle.
    func position(fromLat lat: Double, lon: Double, radiusKm: Double) -> Position {
        position(of: distanceBounds(fromLat: lat, lon: lon), radiusKm: radiusKm)
    }

    /// Where the cell lies relative to a circle, given its ``distanceBounds(fromLat:lon:)`` from the centre.
    func position(of bounds: ClosedRange<Double>, radiusKm: Double) -> Position {
        if bounds.upperBound < radiusKm - Self.safetyKm { return .inside }
        if bounds.lowerBound > radiusKm + Self.safetyKm { return .outside }
        return .boundary
    }

    /// Rounding allowance so that a point right at a cell edge is never misjudged.
    static let safetyKm = 0.001

    enum Position {
        case inside, outside, boundary
    }
}

/// The cell part of an exact nearby count, shared by both stores. Fed the stored per-cell totals of the
/// cells that each search box of the circle touches (row by row, columns ascending), it adds up the
/// cells lying wholly inside and collects the rim: runs of neighbouring boundary cells in one row,
/// whose pets the store then reads and checks one by one with ``contains(latitude:longitude:)``.
struct CellTally {
    /// Boundary cells of one row, read together (empty cells between them don't matter).
    struct RimRun: Equatable {
        var row: Int
        var columns: ClosedRange<Int>
    }

    let center: GeoCoordinate
    let radiusKm: Double
    /// Pets of the cells wholly inside the circle.
    private(set) var insideTotal = 0
    private(set) var rim: [RimRun] = []
    private var extendsRun = false

    init(center: GeoCoordinate, radiusKm: Double) {
        self.center = center
        self.radiusKm = radiusKm
    }

    /// The cells of the next search box follow.
    mutating func beginBox() {
        extendsRun = false
    }

    mutating func add(_ cell: GeoCell, pets: Int) {
        switch cell.position(fromLat: center.latitude, lon: center.longitude, radiusKm: radiusKm) {
        case .inside:
            insideTotal += pets
            extendsRun = false
        case .outside:
            extendsRun = false
        case .boundary:
            if extendsRun, let last = rim.last, last.row == cell.row {
                rim[rim.count - 1].columns = last.columns.lowerBound...cell.column
            } else {
                rim.append(RimRun(row: cell.row, columns: cell.column...cell.column))
            }
            extendsRun = true
        }
    }

    /// Whether a pet of a rim cell lies within the radius (the exact haversine).
    func contains(latitude: Double, longitude: Double) -> Bool {
        GreatCircle.distanceKm(lat1: center.latitude, lon1: center.longitude, lat2: latitude, lon2: longitude) <= radiusKm
    }
}
