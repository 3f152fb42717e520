import Foundation
import GRDB
import PetAPI
import PetSpotDomain

/// The nearby query of ``SQLitePetStore``.
///
/// 1. Count: per-cell counts of the 0.05° cells the circle touches; cells wholly inside add their count,
///    pets of cells on the rim are checked one by one with the exact haversine.
/// 2. Page: the R*Tree is asked for a small circle first, sized from the count so it likely holds the page,
///    and widened until it holds `offset + limit` matches (or reaches the radius); every candidate's
///    exact distance is checked; ties are broken by id.
extension SQLitePetStore {
    static func nearby(_ db: Database, center: GeoCoordinate, query: PetQuery) throws -> PetPage {
        let radius = query.radiusKm
        let total = try count(db, center: center, radiusKm: radius)
        guard query.offset < total else { return PetPage(animals: [], totalCount: total) }
        let needed = min(total, query.offset + query.limit)

        var searchRadius = min(radius, max(0.05, radius * (2 * Double(needed) / Double(total)).squareRoot()))
        var ranking = try candidates(db, center: center, radiusKm: searchRadius)
        while ranking.matches.count < needed, searchRadius < radius {
            searchRadius = min(radius, searchRadius * 2)
            ranking = try candidates(db, center: center, radiusKm: searchRadius)
        }
        return try page(db, ranking: ranking, query: query, totalCount: total)
    }

    /// Exact number of pets within `radiusKm`.
    static func count(_ db: Database, center: GeoCoordinate, radiusKm: Double) throws -> Int {
        let cells = try db.cachedStatement(sql: """
            SELECT cell_row, cell_column, n FROM pet_cell
            WHERE cell_row BETWEEN ? AND ? AND cell_column BETWEEN ? AND ?
            """)
        var total = 0
        var rim: [(row: Int, columns: ClosedRange<Int>)] = []
        for box in SearchBox.covering(center: center, radiusKm: radiusKm) {
            let range = GeoCell.range(of: box)
            let rows = try Row.fetchCursor(cells, arguments: [
                range.rows.lowerBound, range.rows.upperBound, range.columns.lowerBound, range.columns.upperBound,
            ])
            var extendsRun = false
            while let row = try rows.next() {
                let cell = GeoCell(row: row[0], column: row[1])
                switch cell.position(fromLat: center.latitude, lon: center.longitude, radiusKm: radiusKm) {
                case .inside:
                    total += row[2] as Int
                    extendsRun = false
                case .outside:
                    extendsRun = false
                case .boundary:
                    // Neighbouring rim cells of one row (empty cells between them don't matter) are read at once.
                    if extendsRun, let last = rim.last, last.row == cell.row {
                        rim[rim.count - 1].columns = last.columns.lowerBound...cell.column
                    } else {
                        rim.append((cell.row, cell.column...cell.column))
                    }
                    extendsRun = true
                }
            }
        }
        let points = try db.cachedStatement(sql: """
            SELECT lat, lon FROM pet WHERE cell_row = ? AND cell_column BETWEEN ? AND ?
            """)
        for run in rim {
            let rows = try Row.fetchCursor(points, arguments: [run.row, run.columns.lowerBound, run.columns.upperBound])
            while let row = try rows.next() {
                let distance = GreatCircle.distanceKm(lat1: center.latitude, lon1: center.longitude, lat2: row[0], lon2: row[1])
                if distance <= radiusKm { total += 1 }
            }
        }
        return total
    }

    /// Every pet within `radiusKm` (R*Tree boxes, then the exact distance).
    static func candidates(_ db: Database, center: GeoCoordinate, radiusKm: Double) throws -> NearbyRanking<Int64> {
        var ranking = NearbyRanking<Int64>(radiusKm: radiusKm)
        let boxes = SearchBox.covering(center: center, radiusKm: radiusKm)
        let statement = try db.cachedStatement(sql: """
            SELECT seq, lat, lon FROM pet_location
            WHERE max_lat >= ? AND min_lat <= ? AND max_lon >= ? AND min_lon <= ?
            """)
        var seen = Set<Int64>()
        for box in boxes {
            let rows = try Row.fetchCursor(statement, arguments: [box.minLat, box.maxLat, box.minLon, box.maxLon])
            while let row = try rows.next() {
                let seq: Int64 = row[0]
                // Split boxes meet only at ±180°; a point there must count once.
                if boxes.count > 1, !seen.insert(seq).inserted { continue }
                let distance = GreatCircle.distanceKm(
                    lat1: center.latitude, lon1: center.longitude, lat2: row[1], lon2: row[2]
                )
                ranking.consider(key: seq, distanceKm: distance)
            }
        }
        return ranking
    }

    /// The requested page out of candidates that include the first `offset + limit` matches.
    static func page(_ db: Database, ranking: NearbyRanking<Int64>, query: PetQuery, totalCount: Int) throws -> PetPage {
        let end = min(ranking.matches.count, query.offset + query.limit)
        guard query.offset < end else { return PetPage(animals: [], totalCount: totalCount) }
        let leading = ranking.leading(end)
        // Break distance ties by id, then keep this page.
        var ids: [Int64: String] = [:]
        for chunk in stride(from: 0, to: leading.count, by: 10_000) {
            let keys = leading[chunk..<min(leading.count, chunk + 10_000)].map(\.key)
            let sql = "SELECT seq, id FROM pet WHERE seq IN (\(databaseQuestionMarks(count: keys.count)))"
            for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(keys)) {
                ids[row[0]] = row[1]
            }
        }
        let ordered = leading.sorted {
            ($0.distanceKm, ids[$0.key] ?? "") < ($1.distanceKm, ids[$1.key] ?? "")
        }
        let window = ordered[query.offset..<min(end, ordered.count)]
        let distances = Dictionary(uniqueKeysWithValues: window.map { ($0.key, $0.distanceKm) })
        let sql = "SELECT seq, \(columns) FROM pet WHERE seq IN (\(databaseQuestionMarks(count: window.count)))"
        var animals: [Int64: Animal] = [:]
        for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(window.map(\.key))) {
            let seq: Int64 = row["seq"]
            animals[seq] = try animal(from: row, distanceKm: distances[seq])
        }
        return PetPage(animals: window.compactMap { animals[$0.key] }, totalCount: totalCount)
    }
}
