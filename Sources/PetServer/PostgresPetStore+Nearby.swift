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
    /// 1. Count: the GiST index yields every point within a radius a hair wider than asked
    ///    (`ST_DWithin` on the sphere); points clearly inside by PostGIS's distance are counted in SQL,
    ///    the thin band at the edge comes back and is decided by the haversine.
    /// 2. Page: the index orders candidates with the KNN operator `<->`; enough of the nearest are read
    ///    to be sure that no unread one can rank within the page, then ranked by (haversine, id).
    func nearby(on connection: PostgresConnection, center: GeoCoordinate, query: PetQuery) async throws -> PetPage {
        let radiusKm = query.radiusKm
        let outer = radiusKm * 1000 * (1 + Self.relativeSlack) + Self.absoluteSlackMeters
        let inner = radiusKm * 1000 * (1 - Self.relativeSlack) - Self.absoluteSlackMeters
        func haversine(_ lat: Double, _ lon: Double) -> Double {
            GreatCircle.distanceKm(lat1: center.latitude, lon1: center.longitude, lat2: lat, lon2: lon)
        }

        let counted = try await connection.query("""
            SELECT count(*) FILTER (WHERE d <= \(inner)),
                   coalesce(array_agg(lat) FILTER (WHERE d > \(inner)), '{}'),
                   coalesce(array_agg(lon) FILTER (WHERE d > \(inner)), '{}')
            FROM (SELECT lat, lon, location <-> ST_SetSRID(ST_MakePoint(\(center.longitude), \(center.latitude)), 4326)::geography AS d
                  FROM \(unescaped: table)
                  WHERE ST_DWithin(location, ST_SetSRID(ST_MakePoint(\(center.longitude), \(center.latitude)), 4326)::geography,
                                   \(outer), false)) AS candidates
            """, logger: logger).collect()
        var total = 0
        if let row = counted.first {
            let (clearlyInside, bandLats, bandLons) = try row.decode((Int, [Double], [Double]).self)
            total = clearlyInside + zip(bandLats, bandLons).count { haversine($0, $1) <= radiusKm }
        }
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
}
