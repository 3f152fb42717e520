import Foundation
import PetSpotDomain

/// One cell of the fixed grid the town is painted on: about 100 m by 100 m anywhere on Earth.
///
/// Rows are bands of ``TownGrid/rowHeightDegrees`` of latitude; each row is cut into columns whose width
/// in degrees grows with the latitude so that a cell stays about as wide as it is tall. The grid never
/// moves: a street walked today paints the same cell as the same street walked a year ago, on any phone.
public struct TownCell: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public var row: Int
    public var column: Int

    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.row, lhs.column) < (rhs.row, rhs.column)
    }

    public var description: String { "\(row):\(column)" }
}

/// The grid of ``TownCell``s, and which cells a walked line crosses.
public enum TownGrid {
    /// About 100 m of latitude (1° ≈ 111.2 km on the mean sphere).
    public static let cellSizeMetres = 100.0
    public static let rowHeightDegrees = cellSizeMetres / (GeoCoordinate.earthRadiusMetres * .pi / 180)
    /// The longest step between two points sampled along a line: a tenth of a cell, so a line
    /// crossing a cell's corner for less than that may miss it, and nothing longer does.
    public static let samplingStepMetres = cellSizeMetres / 10

    /// How many columns the row at `row` has: as many as 100 m cells fit around the Earth at the
    /// row's middle latitude, at least one (the rows at the poles are one cell each).
    public static func columns(inRow row: Int) -> Int {
        let middle = (Double(row) + 0.5) * rowHeightDegrees
        let circumference = 2 * .pi * GeoCoordinate.earthRadiusMetres * cos(min(90, abs(middle)) * .pi / 180)
        return max(1, Int((circumference / cellSizeMetres).rounded(.down)))
    }

    /// The cell that holds `point`.
    public static func cell(containing point: GeoCoordinate) -> TownCell {
        let row = Int((point.latitude / rowHeightDegrees).rounded(.down))
        let columns = columns(inRow: row)
        let fraction = (point.longitude + 180) / 360
        let column = min(columns - 1, Int((fraction * Double(columns)).rounded(.down)))
        return TownCell(row: row, column: column)
    }

    /// The cells the straight line from `start` to `end` crosses, `start`'s and `end`'s included,
    /// sampled every ``samplingStepMetres`` at most.
    public static func cells(from start: GeoCoordinate, to end: GeoCoordinate) -> Set<TownCell> {
        let steps = max(1, Int((start.distance(to: end) / samplingStepMetres).rounded(.up)))
        var cells: Set<TownCell> = [cell(containing: start), cell(containing: end)]
        for step in 1..<steps {
            cells.insert(cell(containing: start.interpolated(to: end, fraction: Double(step) / Double(steps))))
        }
        return cells
    }
}
