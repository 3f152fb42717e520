import GRDB
import PetAPI
import PetSpotDomain

/// The gazetteer's tables in SQLite (migration v10).
enum SQLitePlaces {
    /// `place_prefix` holds, for every name prefix of up to four characters, the ten places a
    /// suggestion list shows first, in the order it shows them (its primary key): a one-letter query
    /// reads ten rows, not the ten thousand names that start with `s`. Longer queries match few
    /// names and are read by their range of `place_key`.
    static let schema = """
        CREATE TABLE place (
            id TEXT PRIMARY KEY NOT NULL,
            name TEXT NOT NULL,
            region TEXT,
            country TEXT NOT NULL,
            lat REAL NOT NULL,
            lon REAL NOT NULL,
            population INTEGER NOT NULL,
            postal_code TEXT,
            label TEXT NOT NULL,
            key TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX place_key ON place (key) WHERE postal_code IS NULL;
        CREATE INDEX place_postal_code ON place (postal_code) WHERE postal_code IS NOT NULL;
        CREATE TABLE place_prefix (
            prefix TEXT NOT NULL,
            population INTEGER NOT NULL,
            id TEXT NOT NULL,
            PRIMARY KEY (prefix, population DESC, id)
        ) WITHOUT ROWID;
        """

    static let columns = "p.id, p.name, p.region, p.country, p.lat, p.lon, p.population, p.postal_code, p.label"

    static func place(from row: Row) throws -> Place {
        let id: String = row[0]
        guard let location = try? GeoCoordinate(latitude: row[4], longitude: row[5]) else {
            throw AnimalStoreError.corruptRow(id: id, field: "location")
        }
        return Place(
            id: id, name: row[1], region: row[2], countryCode: row[3], location: location,
            population: row[6], postalCode: row[7], label: row[8]
        )
    }
}

extension SQLiteAnimalStore: PlaceStore {
    public func places(matching query: PlaceQuery) async throws -> [Place] {
        let key = PlaceSearch.fold(query.text)
        let code = query.text
        let limit = query.limit
        return try await read { db in
            // Every postal code the gazetteer holds has a digit: a name alone needs no second lookup.
            var places = !PlaceSearch.mayBePostalCode(code) ? [] : try Row.fetchAll(db.cachedStatement(sql: """
                SELECT \(SQLitePlaces.columns) FROM place p WHERE p.postal_code = ? ORDER BY p.id LIMIT ?
                """), arguments: [code, limit]).map(SQLitePlaces.place(from:))
            let wanted = limit - places.count
            guard wanted > 0, !key.isEmpty else { return places }
            let named: [Row]
            if key.count <= PlaceSearch.indexedPrefixLength {
                named = try Row.fetchAll(db.cachedStatement(sql: """
                    SELECT \(SQLitePlaces.columns) FROM place_prefix x JOIN place p ON p.id = x.id
                    WHERE x.prefix = ? ORDER BY x.population DESC, x.id LIMIT ?
                    """), arguments: [key, wanted])
            } else {
                named = try Row.fetchAll(db.cachedStatement(sql: """
                    SELECT \(SQLitePlaces.columns) FROM place p INDEXED BY place_key
                    WHERE p.key >= ? AND p.key < ? AND p.postal_code IS NULL
                    ORDER BY p.population DESC, p.id LIMIT ?
                    """), arguments: [key, PlaceSearch.upperBound(of: key), wanted])
            }
            places += try named.map(SQLitePlaces.place(from:))
            return places
        }
    }

    public func place(id: String) async throws -> Place? {
        try await read { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT \(SQLitePlaces.columns) FROM place p WHERE p.id = ?"), arguments: [id])
                .map(SQLitePlaces.place(from:))
        }
    }

    @discardableResult
    public func replacePlaces(with places: [Place]) async throws -> Int {
        let prefixes = PlaceSearch.prefixRows(of: places)
        return try await pool.write { db in
            try db.execute(sql: "DELETE FROM place_prefix; DELETE FROM place")
            let place = try db.makeStatement(sql: """
                INSERT INTO place (id, name, region, country, lat, lon, population, postal_code, label, key)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for item in places {
                try place.execute(arguments: [
                    item.id, item.name, item.region, item.countryCode, item.location.latitude, item.location.longitude,
                    item.population, item.postalCode, item.label, PlaceSearch.fold(item.name),
                ])
            }
            let prefix = try db.makeStatement(sql: "INSERT INTO place_prefix (prefix, population, id) VALUES (?, ?, ?)")
            for row in prefixes {
                try prefix.execute(arguments: [row.prefix, row.population, row.id])
            }
            return places.count
        }
    }

    public func placeCount() async throws -> Int {
        try await read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM place") ?? 0 }
    }
}
