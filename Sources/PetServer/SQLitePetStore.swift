import Foundation
import GRDB
import PetAPI
import PetSpotDomain

/// The embedded ``PetStore``: one SQLite file through GRDB, in WAL mode.
///
/// Nearby queries read candidates from an R*Tree (32-bit float boxes, widened, split at the antimeridian,
/// all longitudes near a pole) that also carries the exact coordinates, keep those within the exact
/// haversine radius, and only then read the full rows of the page.
public struct SQLitePetStore: PetStore {
    let pool: DatabasePool
    /// The database file.
    public let path: String

    /// Opens (creating and migrating if needed) the database at `path`.
    public init(path: String) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Nearby queries touch R*Tree nodes and rows all over the file: map it into memory and keep
            // a larger page cache, so reads cost no system calls.
            try db.execute(sql: "PRAGMA mmap_size = 1073741824")
            try db.execute(sql: "PRAGMA cache_size = -65536")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.pool = try DatabasePool(path: path, configuration: configuration)
        self.path = path
        try Self.migrator.migrate(pool)
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: pets with an R*Tree location index") { db in
            try db.execute(sql: """
                CREATE TABLE pet (
                    seq INTEGER PRIMARY KEY,
                    id TEXT NOT NULL UNIQUE,
                    name TEXT NOT NULL,
                    species TEXT NOT NULL,
                    breed TEXT NOT NULL,
                    sex TEXT NOT NULL,
                    age_months INTEGER NOT NULL,
                    description TEXT NOT NULL,
                    photo_url TEXT,
                    shelter_name TEXT NOT NULL,
                    shelter_city TEXT NOT NULL,
                    lat REAL NOT NULL,
                    lon REAL NOT NULL,
                    published_at REAL NOT NULL
                );
                CREATE INDEX pet_newest ON pet(published_at DESC, id);
                CREATE VIRTUAL TABLE pet_location USING rtree(seq, min_lat, max_lat, min_lon, max_lon, +lat, +lon);
                """)
        }
        migrator.registerMigration("v2: pet counts per 0.05° cell") { db in
            try db.execute(sql: """
                ALTER TABLE pet ADD COLUMN cell_row INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE pet ADD COLUMN cell_column INTEGER NOT NULL DEFAULT 0;
                CREATE TABLE pet_cell (
                    cell_row INTEGER NOT NULL,
                    cell_column INTEGER NOT NULL,
                    n INTEGER NOT NULL,
                    PRIMARY KEY (cell_row, cell_column)
                ) WITHOUT ROWID;
                """)
            let rows = try Row.fetchAll(db, sql: "SELECT seq, lat, lon FROM pet")
            for row in rows {
                let cell = GeoCell(lat: row[1], lon: row[2])
                try db.execute(sql: "UPDATE pet SET cell_row = ?, cell_column = ? WHERE seq = ?", arguments: [cell.row, cell.column, row[0]])
                try countIn(cell, db: db)
            }
            try db.execute(sql: "CREATE INDEX pet_by_cell ON pet(cell_row, cell_column, lat, lon)")
        }
        return migrator
    }

    static func countIn(_ cell: GeoCell, db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO pet_cell (cell_row, cell_column, n) VALUES (?, ?, 1)
            ON CONFLICT (cell_row, cell_column) DO UPDATE SET n = n + 1
            """).execute(arguments: [cell.row, cell.column])
    }

    static let columns =
        "id, name, species, breed, sex, age_months, description, photo_url, shelter_name, shelter_city, lat, lon, published_at"

    /// SQLite's journal mode (`wal` for every database this store opens).
    public func journalMode() async throws -> String? {
        try await pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
    }

    public func count() async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pet") ?? 0 }
    }

    public func animal(id: String) async throws -> Animal? {
        try await pool.read { db in
            let row = try Row.fetchOne(db, sql: "SELECT \(Self.columns) FROM pet WHERE id = ?", arguments: [id])
            return try row.map { try Self.animal(from: $0, distanceKm: nil) }
        }
    }

    public func animals(matching query: PetQuery) async throws -> PetPage {
        try await pool.read { db in
            if let center = query.center {
                try Self.nearby(db, center: center, query: query)
            } else {
                try Self.newest(db, query: query)
            }
        }
    }

    public func insert(_ animals: [Animal]) async throws {
        try await pool.write { db in _ = try Self.insert(animals, into: db) }
    }

    /// Inserts a long sequence (for instance generated demo animals) in one transaction without holding
    /// it all in memory. Same all-or-nothing rule as ``insert(_:)``.
    /// With `skippingExistingIDs`, animals whose id is already stored are left as they are.
    /// - Returns: how many animals were added.
    @discardableResult
    public func insert<Animals: Sequence & Sendable>(
        streaming animals: Animals, skippingExistingIDs: Bool = false
    ) async throws -> Int where Animals.Element == Animal {
        try await pool.write { db in try Self.insert(animals, into: db, skippingExistingIDs: skippingExistingIDs) }
    }

    /// Inserts synchronously in the caller's transaction; returns how many rows were added.
    @discardableResult
    static func insert(_ animals: some Sequence<Animal>, into db: Database, skippingExistingIDs: Bool = false) throws -> Int {
        var added = 0
        let pet = try db.makeStatement(sql: """
            INSERT \(skippingExistingIDs ? "OR IGNORE " : "")INTO pet (\(columns), cell_row, cell_column)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let location = try db.makeStatement(sql: """
            INSERT INTO pet_location (seq, min_lat, max_lat, min_lon, max_lon, lat, lon) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        for (index, animal) in animals.enumerated() {
            let lat = animal.location.latitude
            let lon = animal.location.longitude
            let cell = GeoCell(lat: lat, lon: lon)
            do {
                try pet.execute(arguments: [
                    animal.id, animal.name, animal.species.rawValue, animal.breed, animal.sex.rawValue,
                    animal.ageMonths, animal.description, animal.photoURL?.absoluteString,
                    animal.shelter.name, animal.shelter.city, lat, lon, animal.publishedAt.timeIntervalSince1970,
                    cell.row, cell.column,
                ])
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                throw PetStoreError.duplicateID(index: index, id: animal.id)
            }
            if skippingExistingIDs, db.changesCount == 0 { continue }
            try location.execute(arguments: [db.lastInsertedRowID, lat, lat, lon, lon, lat, lon])
            try countIn(cell, db: db)
            added += 1
        }
        return added
    }

    private static func newest(_ db: Database, query: PetQuery) throws -> PetPage {
        let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM pet") ?? 0
        guard query.offset < total else { return PetPage(animals: [], totalCount: total) }
        let rows = try Row.fetchAll(
            db,
            sql: "SELECT \(columns) FROM pet ORDER BY published_at DESC, id LIMIT ? OFFSET ?",
            arguments: [query.limit, query.offset]
        )
        return PetPage(animals: try rows.map { try animal(from: $0, distanceKm: nil) }, totalCount: total)
    }

    static func animal(from row: Row, distanceKm: Double?) throws -> Animal {
        try AnimalDTO(
            id: row["id"], name: row["name"], species: row["species"], breed: row["breed"], sex: row["sex"],
            ageMonths: row["age_months"], description: row["description"], photoURL: row["photo_url"],
            shelter: .init(name: row["shelter_name"], city: row["shelter_city"]),
            location: .init(lat: row["lat"], lon: row["lon"]),
            publishedAt: Date(timeIntervalSince1970: row["published_at"]),
            distanceKm: distanceKm
        ).storedAnimal()
    }
}
