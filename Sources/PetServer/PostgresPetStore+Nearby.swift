import Logging
import PetAPI
import PetSpotDomain
import PostgresNIO

extension PostgresPetStore {
    /// How far PostGIS's sphere distance (radius 6371008.7714 m) may stray from ``GreatCircle``'s
    /// haversine (radius 6371008.8 m): about 5e-9 of the distance plus rounding; the slack is far wider.
    static let relativeSlack = 1e-6
    static let absoluteSlackMeters = 0.001

    /// Nearest first within the radius, ties by id, with the count of all matches.
    ///
    /// 1. Count: as in ``SQLitePetStore``, the per-cell totals of the ``GeoCell``s wholly inside the circle
    ///    are added up; the pets of cells on its rim are checked one by one with the haversine.
    /// 2. Page: the index orders candidates with the KNN operator `<->`; enough of the nearest are read
    ///    to be sure that no unread one can rank within the page, then ranked by (haversine, id).
    func nearby(on connection: PostgresConnection, center: GeoCoordinate, query: PetQuery) async throws -> PetPage {
        let radiusKm = query.radiusKm
        let outer = radiusKm * 1000 * (1 + Self.relativeSlack) + Self.absoluteSlackMeters
        func haversine(_ lat: Double, _ lon: Double) -> Double {
            GreatCircle.distanceKm(lat1: center.latitude, lon1: center.longitude, lat2: lat, lon2: lon)
        }

        let total = try await count(on: connection, center: center, radiusKm: radiusKm)
        guard query.offset < total, query.limit > 0 else { return PetPage(animals: [], totalCount: total) }
        let (end, overflow) = query.offset.addingReportingOverflow(query.limit)
        let needed = overflow ? total : min(total, end)

        var ranked: [(id: String, distanceKm: Double)] = []
        var fetch = needed + 32
        while true {
            let rows = try await connection.query("""
                SELECT id, lat, lon, location <-> ST_SetSRID(ST_MakePoint(\(center.longitude), \(center.latitude)), 4326)::geography
                FROM \(unescaped: table)
                WHERE ST_DWithin(location, ST_SetSRID(ST_MakePoint(\(center.longitude), \(center.latitude)), 4326)::geography,
                                 \(outer), false)
                ORDER BY location <-> ST_SetSRID(ST_MakePoint(\(center.longitude), \(center.latitude)), 4326)::geography
                LIMIT \(fetch)
                """, logger: logger)
            ranked = []
            var read = 0
            var farthestRead = 0.0
            for try await (id, lat, lon, sphereMeters) in rows.decode((String, Double, Double, Double).self) {
                read += 1
                farthestRead = sphereMeters
                let distance = haversine(lat, lon)
                if distance <= radiusKm { ranked.append((id, distance)) }
            }
            ranked.sort { ($0.distanceKm, $0.id) < ($1.distanceKm, $1.id) }
            if read < fetch { break }
            // Every unread point is at least this far by the haversine.
            let unreadAtLeastKm = (farthestRead * (1 - Self.relativeSlack) - Self.absoluteSlackMeters) / 1000
            if ranked.count >= needed, ranked[needed - 1].distanceKm < unreadAtLeastKm { break }
            fetch *= 4
        }

        let window = ranked[min(query.offset, ranked.count)..<min(needed, ranked.count)]
        let ids = window.map(\.id)
        let rows = try await connection.query(
            "SELECT \(unescaped: Self.columns) FROM \(unescaped: table) WHERE id = ANY(\(ids))", logger: logger
        )
        var animals: [String: Animal] = [:]
        for try await row in rows {
            let animal = try Self.animal(from: row, distanceKm: nil)
            animals[animal.id] = animal
        }
        let page = window.compactMap { entry -> Animal? in
            guard var animal = animals[entry.id] else { return nil }
            animal.distanceKm = entry.distanceKm
            return animal
        }
        return PetPage(animals: page, totalCount: total)
    }

    /// Exact number of pets within `radiusKm`: per-cell totals for cells wholly inside, the haversine for
    /// every pet of a cell on the rim.
    func count(on connection: PostgresConnection, center: GeoCoordinate, radiusKm: Double) async throws -> Int {
        var tally = CellTally(center: center, radiusKm: radiusKm)
        for box in SearchBox.covering(center: center, radiusKm: radiusKm) {
            let range = GeoCell.range(of: box)
            let cells = try await connection.query("""
                SELECT cell_row, cell_col, pets FROM \(unescaped: cellTable)
                WHERE cell_row BETWEEN \(range.rows.lowerBound) AND \(range.rows.upperBound)
                  AND cell_col BETWEEN \(range.columns.lowerBound) AND \(range.columns.upperBound)
                ORDER BY cell_row, cell_col
                """, logger: logger)
            tally.beginBox()
            for try await (row, column, pets) in cells.decode((Int, Int, Int).self) {
                tally.add(GeoCell(row: row, column: column), pets: pets)
            }
        }
        var total = tally.insideTotal
        guard !tally.rim.isEmpty else { return total }
        let rimRows = tally.rim.map(\.row)
        let rimFirstColumns = tally.rim.map(\.columns.lowerBound)
        let rimLastColumns = tally.rim.map(\.columns.upperBound)
        let rim = try await connection.query("""
            SELECT coalesce(array_agg(pet.lat), '{}'), coalesce(array_agg(pet.lon), '{}')
            FROM unnest(\(rimRows)::integer[], \(rimFirstColumns)::integer[], \(rimLastColumns)::integer[]) AS run(cell_row, first_col, last_col)
            JOIN \(unescaped: table) AS pet
              ON pet.cell_row = run.cell_row AND pet.cell_col BETWEEN run.first_col AND run.last_col
            """, logger: logger)
        for try await (lats, lons) in rim.decode(([Double], [Double]).self) {
            for (lat, lon) in zip(lats, lons) where tally.contains(latitude: lat, longitude: lon) {
                total += 1
            }
        }
        return total
    }
}
