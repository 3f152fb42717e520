import Foundation
import PetSpotDomain
import Testing
import WalkFeature

@Suite struct TownGridTests {
    func point(_ latitude: Double, _ longitude: Double) throws -> GeoCoordinate {
        try GeoCoordinate(latitude: latitude, longitude: longitude)
    }

    @Test(arguments: [0.0, 45.0, 60.0, 80.0, -33.9])
    func givenARowAtALatitude_whenItsCellsAreMeasured_thenEachIsAbout100MetresWideAndTall(latitude: Double) throws {
        let cell = TownGrid.cell(containing: try point(latitude, 10))
        let middle = (Double(cell.row) + 0.5) * TownGrid.rowHeightDegrees
        let widthDegrees = 360 / Double(TownGrid.columns(inRow: cell.row))
        let width = try point(middle, 0).distance(to: point(middle, widthDegrees))
        let height = try point(middle - TownGrid.rowHeightDegrees / 2, 0).distance(to: point(middle + TownGrid.rowHeightDegrees / 2, 0))
        #expect(width >= 100 && width < 101, "width \(width) m")
        #expect(abs(height - 100) < 0.001, "height \(height) m")
    }

    @Test func givenTwoFixesTenMetresApartInACell_whenPainted_thenOneCell() throws {
        let middle = TownGrid.rowHeightDegrees * 0.5
        let cells = TownGrid.cells(from: try point(middle, 0.0002), to: try point(middle, 0.0002 + 10 / 111_195.0))
        #expect(cells.count == 1)
    }

    @Test func givenAKilometreNorthward_whenPainted_thenTenOrElevenCellsOfOneColumnEachNextToTheLast() throws {
        let start = try point(0.00001, 0.0002)
        let end = try point(0.00001 + 1000 / 111_195.0, 0.0002)
        let rows = TownGrid.cells(from: start, to: end).map(\.row).sorted()
        #expect((10...11).contains(rows.count), "\(rows)")
        #expect(rows == Array(rows[0]...rows[rows.count - 1]))
    }

    @Test func givenAStepAcrossTheAntimeridian_whenPainted_thenTheShortWayIsTaken() throws {
        let cells = TownGrid.cells(from: try point(0, 179.9997), to: try point(0, -179.9997))
        #expect(cells.count == 2, "\(cells.sorted())")
        #expect(Set(cells.map(\.column)) == [0, TownGrid.columns(inRow: 0) - 1])
    }

    @Test(arguments: [90.0, -90.0])
    func givenAPole_whenAnyLongitudeIsPainted_thenOneCell(latitude: Double) throws {
        let cells = Set(try [-180.0, -90, 0, 45, 180].map { TownGrid.cell(containing: try point(latitude, $0)) })
        #expect(cells.count == 1)
        #expect(TownGrid.columns(inRow: try #require(cells.first).row) == 1)
    }

    @Test func givenALongitudeOf180AndMinus180_whenPainted_thenTheSameMeridianEdgeCells() throws {
        let east = TownGrid.cell(containing: try point(10, 180))
        let west = TownGrid.cell(containing: try point(10, -180))
        #expect(east.row == west.row)
        #expect(west.column == 0)
        #expect(east.column == TownGrid.columns(inRow: east.row) - 1)
    }
}
