import Logging
import PetAPI
import PetSpotDomain
import PostgresNIO

extension PostgresAnimalStore: PlaceStore {
    private var placeTable: String { "\"\(configuration.schema)\".place" }
    private var prefixTable: String { "\"\(configuration.schema)\".place_prefix" }
    private static let placeColumns = "p.id, p.name, p.region, p.country, p.lat, p.lon, p.population, p.postal_code, p.label"

    public func places(matching query: PlaceQuery) async throws -> [Place] {
        let key = PlaceSearch.fold(query.text)
        let code = query.text
        let limit = query.limit
        return try await withConnection { connection in
            var places = !PlaceSearch.mayBePostalCode(code) ? [] : try await Self.places(connection.query("""
                SELECT \(unescaped: Self.placeColumns) FROM \(unescaped: placeTable) p
                WHERE p.postal_code = \(code) ORDER BY p.id LIMIT \(limit)
                """, logger: logger))
            let wanted = limit - places.count
            guard wanted > 0, !key.isEmpty else { return places }
            if key.count <= PlaceSearch.indexedPrefixLength {
                places += try await Self.places(connection.query("""
                    SELECT \(unescaped: Self.placeColumns) FROM \(unescaped: prefixTable) x JOIN \(unescaped: placeTable) p ON p.id = x.id
                    WHERE x.prefix = \(key) ORDER BY x.population DESC, x.id LIMIT \(wanted)
                    """, logger: logger))
            } else {
                places += try await Self.places(connection.query("""
                    SELECT \(unescaped: Self.placeColumns) FROM \(unescaped: placeTable) p
                    WHERE p.key >= \(key) AND p.key < \(PlaceSearch.upperBound(of: key)) AND p.postal_code IS NULL
                    ORDER BY p.population DESC, p.id LIMIT \(wanted)
                    """, logger: logger))
            }
            return places
        }
    }

    public func place(id: String) async throws -> Place? {
        try await withConnection { connection in
            try await Self.places(connection.query(
                "SELECT \(unescaped: Self.placeColumns) FROM \(unescaped: placeTable) p WHERE p.id = \(id)", logger: logger
            )).first
        }
    }

    @discardableResult
    public func replacePlaces(with places: [Place]) async throws -> Int {
        guard !isReadOnly else { throw PostgresAnimalStoreError.readOnly(url: configuration.displayURL) }
        let prefixes = PlaceSearch.prefixRows(of: places)
        return try await withConnection(bounded: false) { connection in
            try await Self.transaction(on: connection, logger: logger) {
                try await connection.query("SET LOCAL statement_timeout = 0", logger: logger)
                // Two servers starting on one empty database both load the bundled file: the second
                // waits here, then replaces what the first wrote, instead of failing on its keys.
                try await connection.query("LOCK TABLE \(unescaped: placeTable), \(unescaped: prefixTable) IN EXCLUSIVE MODE", logger: logger)
                try await connection.query("DELETE FROM \(unescaped: prefixTable)", logger: logger)
                try await connection.query("DELETE FROM \(unescaped: placeTable)", logger: logger)
                // Batches of arrays, one statement each: a bind per value would pass PostgreSQL's 65,535.
                for start in stride(from: 0, to: places.count, by: 10_000) {
                    let batch = places[start..<min(start + 10_000, places.count)]
                    _ = try await connection.query("""
                        INSERT INTO \(unescaped: placeTable) (id, name, region, country, lat, lon, population, postal_code, label, key)
                        SELECT id, name, NULLIF(region, ''), country, lat, lon, population, NULLIF(postal_code, ''), label, key
                        FROM unnest(\(batch.map(\.id))::text[], \(batch.map(\.name))::text[], \(batch.map { $0.region ?? "" })::text[],
                                             \(batch.map(\.countryCode))::text[], \(batch.map(\.location.latitude))::float8[],
                                             \(batch.map(\.location.longitude))::float8[], \(batch.map(\.population))::int8[],
                                             \(batch.map { $0.postalCode ?? "" })::text[], \(batch.map(\.label))::text[],
                                             \(batch.map { PlaceSearch.fold($0.name) })::text[])
                            AS input(id, name, region, country, lat, lon, population, postal_code, label, key)
                        """, logger: logger).collect()
                }
                for start in stride(from: 0, to: prefixes.count, by: 20_000) {
                    let batch = prefixes[start..<min(start + 20_000, prefixes.count)]
                    _ = try await connection.query("""
                        INSERT INTO \(unescaped: prefixTable) (prefix, population, id)
                        SELECT * FROM unnest(\(batch.map(\.prefix))::text[], \(batch.map(\.population))::int8[], \(batch.map(\.id))::text[])
                        """, logger: logger).collect()
                }
                try await connection.query("ANALYZE \(unescaped: placeTable)", logger: logger)
                try await connection.query("ANALYZE \(unescaped: prefixTable)", logger: logger)
                return places.count
            }
        }
    }

    public func placeCount() async throws -> Int {
        try await withConnection { connection in
            for try await count in try await connection.query("SELECT count(*) FROM \(unescaped: placeTable)", logger: logger)
                .decode(Int.self) {
                return count
            }
            return 0
        }
    }

    private static func places(_ rows: PostgresRowSequence) async throws -> [Place] {
        var places: [Place] = []
        for try await (id, name, region, country, lat, lon, population, postalCode, label) in rows.decode(
            (String, String, String?, String, Double, Double, Int, String?, String).self
        ) {
            guard let location = try? GeoCoordinate(latitude: lat, longitude: lon) else {
                throw AnimalStoreError.corruptRow(id: id, field: "location")
            }
            places.append(Place(
                id: id, name: name, region: region, countryCode: country, location: location,
                population: population, postalCode: postalCode, label: label
            ))
        }
        return places
    }
}
