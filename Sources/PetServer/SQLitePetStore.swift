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
        // Servers, `seed` and `import` may share the file: a writer (a migration, an import) waits for
        // another's lock instead of failing at once with "database is locked".
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Nearby queries touch R*Tree nodes and rows all over the file: map it into memory and keep
            // a larger page cache, so reads cost no system calls.
            try db.execute(sql: "PRAGMA mmap_size = 1073741824")
            try db.execute(sql: "PRAGMA cache_size = -65536")
        }
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // Opening switches the file to WAL and migrating checks, then applies, the migrations: neither
        // is atomic across processes, so processes opening one file take turns (two servers started
        // at once, or a server and `petspot import`).
        let pool = try Self.whileHoldingOpenLock(path: path) {
            let pool = try DatabasePool(path: path, configuration: configuration)
            try Self.migrator.migrate(pool)
            return pool
        }
        self.pool = pool
        self.path = path
    }

    /// Runs `body` holding an exclusive `flock` on `<path>.lock`, which is created if needed.
    private static func whileHoldingOpenLock<T>(path: String, _ body: () throws -> T) throws -> T {
        let descriptor = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path + ".lock"])
        }
        defer { close(descriptor) }  // also releases the lock
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: path + ".lock"])
            }
        }
        return try body()
    }

    private static var migrator: DatabaseMigrator {
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
        migrator.registerMigration("v3: a maintained pet count and data version") { db in
            try db.execute(sql: """
                CREATE TABLE pet_stats (
                    singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
                    pets INTEGER NOT NULL,
                    version INTEGER NOT NULL
                );
                INSERT INTO pet_stats (singleton, pets, version) VALUES (1, (SELECT COUNT(*) FROM pet), 1);
                """)
        }
        return migrator
    }

    private static func countIn(_ cell: GeoCell, db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO pet_cell (cell_row, cell_column, n) VALUES (?, ?, 1)
            ON CONFLICT (cell_row, cell_column) DO UPDATE SET n = n + 1
            """).execute(arguments: [cell.row, cell.column])
    }

    private static let columns =
        "id, name, species, breed, sex, age_months, description, photo_url, shelter_name, shelter_city, lat, lon, published_at"

    /// SQLite's journal mode (`wal` for every database this store opens).
    public func journalMode() async throws -> String? {
        try await pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
    }

    public func count() async throws -> Int {
        try await pool.read { db in try Self.count(db) }
    }

    public func dataVersion() async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT version FROM pet_stats") ?? 0 }
    }

    private static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT pets FROM pet_stats") ?? 0
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
    private static func insert(_ animals: some Sequence<Animal>, into db: Database, skippingExistingIDs: Bool = false) throws -> Int {
        var added = 0
        let pet = try db.makeStatement(sql: """
            INSERT \(skippingExistingIDs ? "OR IGNORE " : "")INTO pet (\(columns), cell_row, cell_column)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let location = try db.makeStatement(sql: """
            INSERT INTO pet_location (seq, min_lat, max_lat, min_lon, max_lon, lat, lon) VALUES (?, ?, ?, ?, ?, ?, ?)
            """)
        for (index, animal) in animals.enumerated() {
            try animal.validateForStoring(index: index)
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
        if added > 0 {
            try db.execute(sql: "UPDATE pet_stats SET pets = pets + ?, version = version + 1", arguments: [added])
        }
        return added
    }

    private static func newest(_ db: Database, query: PetQuery) throws -> PetPage {
        let total = try count(db)
        guard query.offset < total else { return PetPage(animals: [], totalCount: total) }
        // One row more than the page, to know whether another follows. After a cursor the index is
        // entered at its time: rows of that time up to its id are skipped, never counted past.
        let rows: [Row]
        if let cursor = query.cursor {
            rows = try Row.fetchAll(db, sql: """
                SELECT \(columns) FROM pet
                WHERE published_at <= ? AND NOT (published_at = ? AND id <= ?)
                ORDER BY published_at DESC, id LIMIT ?
                """, arguments: [cursor.publishedAt, cursor.publishedAt, cursor.id, query.limit + 1])
        } else {
            rows = try Row.fetchAll(
                db,
                sql: "SELECT \(columns) FROM pet ORDER BY published_at DESC, id LIMIT ? OFFSET ?",
                arguments: [query.limit + 1, query.offset]
            )
        }
        let animals = try rows.prefix(query.limit).map { try animal(from: $0, distanceKm: nil) }
        let next = rows.count > query.limit
            ? PetCursor(publishedAt: rows[query.limit - 1]["published_at"], id: rows[query.limit - 1]["id"]) : nil
        return PetPage(animals: animals, totalCount: total, nextCursor: next)
    }

    private static func animal(from row: Row, distanceKm: Double?) throws -> Animal {
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

// MARK: - Nearby

/// The nearby query of ``SQLitePetStore``.
///
/// 1. Count: per-cell counts of the 0.05° cells the circle touches; cells wholly inside add their count,
///    pets of cells on the rim are checked one by one with the exact haversine.
/// 2. Page: the R*Tree is asked for a small circle first, sized from the count so it likely holds the page,
///    and widened until it surely holds `offset + limit` matches (or reaches the radius). Its float boxes
///    rank candidates approximately; only those that could make the page are read and measured exactly;
///    ties are broken by id.
extension SQLitePetStore {
    private static func nearby(_ db: Database, center: GeoCoordinate, query: PetQuery) throws -> PetPage {
        let radius = query.radiusKm
        let total = try count(db, center: center, radiusKm: radius)
        guard query.offset < total else { return PetPage(animals: [], totalCount: total) }
        let needed = min(total, query.offset + query.limit)

        var searchRadius = min(radius, max(0.05, radius * (2 * Double(needed) / Double(total)).squareRoot()))
        while true {
            let isFinal = searchRadius >= radius
            if let ranking = try candidates(db, center: center, radiusKm: searchRadius, needed: needed, isFinal: isFinal) {
                return try page(db, ranking: ranking, query: query, totalCount: total)
            }
            searchRadius = min(radius, searchRadius * 2)
        }
    }

    /// Exact number of pets within `radiusKm`.
    private static func count(_ db: Database, center: GeoCoordinate, radiusKm: Double) throws -> Int {
        let cells = try db.cachedStatement(sql: """
            SELECT cell_row, cell_column, n FROM pet_cell
            WHERE cell_row BETWEEN ? AND ? AND cell_column BETWEEN ? AND ?
            ORDER BY cell_row, cell_column
            """)
        var tally = CellTally(center: center, radiusKm: radiusKm)
        for box in SearchBox.covering(center: center, radiusKm: radiusKm) {
            let range = GeoCell.range(of: box)
            let rows = try Row.fetchCursor(cells, arguments: [
                range.rows.lowerBound, range.rows.upperBound, range.columns.lowerBound, range.columns.upperBound,
            ])
            tally.beginBox()
            while let row = try rows.next() {
                tally.add(GeoCell(row: row[0], column: row[1]), pets: row[2])
            }
        }
        let points = try db.cachedStatement(sql: """
            SELECT lat, lon FROM pet WHERE cell_row = ? AND cell_column BETWEEN ? AND ?
            """)
        var total = tally.insideTotal
        for run in tally.rim {
            let rows = try Row.fetchCursor(points, arguments: [run.row, run.columns.lowerBound, run.columns.upperBound])
            while let row = try rows.next() {
                if tally.contains(latitude: row[0], longitude: row[1]) { total += 1 }
            }
        }
        return total
    }

    /// Float32 R*Tree boxes hold each point to within 2e-5°, about 2 m; distances from a box's midpoint
    /// are within this of the exact ones.
    private static let boxErrorKm = 0.01

    /// Every pet within `radiusKm` that can be among the `needed` nearest, with exact distances, or nil
    /// when fewer than `needed` pets are surely that close (the caller widens the circle).
    ///
    /// The R*Tree's own float boxes rank candidates approximately without reading any row; only those
    /// whose approximate distance could put them among the `needed` nearest are read exactly.
    private static func candidates(
        _ db: Database, center: GeoCoordinate, radiusKm: Double, needed: Int, isFinal: Bool
    ) throws -> NearbyRanking<Int64>? {
        let boxes = SearchBox.covering(center: center, radiusKm: radiusKm)
        let statement = try db.cachedStatement(sql: """
            SELECT seq, min_lat, max_lat, min_lon, max_lon FROM pet_location
            WHERE max_lat >= ? AND min_lat <= ? AND max_lon >= ? AND min_lon <= ?
            """)
        var approximate: [(seq: Int64, distanceKm: Double)] = []
        var surelyInside = 0
        var seen = Set<Int64>()
        for box in boxes {
            let rows = try Row.fetchCursor(statement, arguments: [box.minLat, box.maxLat, box.minLon, box.maxLon])
            while let row = try rows.next() {
                let seq: Int64 = row[0]
                // Split boxes meet only at ±180°; a point there must count once.
                if boxes.count > 1, !seen.insert(seq).inserted { continue }
                let lat = ((row[1] as Double) + (row[2] as Double)) / 2
                let lon = ((row[3] as Double) + (row[4] as Double)) / 2
                let distance = GreatCircle.distanceKm(lat1: center.latitude, lon1: center.longitude, lat2: lat, lon2: lon)
                guard distance <= radiusKm + boxErrorKm else { continue }
                if distance <= radiusKm - boxErrorKm { surelyInside += 1 }
                approximate.append((seq, distance))
            }
        }
        guard isFinal || surelyInside >= needed else { return nil }
        // The `needed`-th approximate distance bounds the exact one; keep everything that could beat it.
        var limit = radiusKm + boxErrorKm
        if needed > 0, approximate.count >= needed {
            var distances = approximate.map(\.distanceKm)
            let kth = quickSelect(&distances, rank: needed - 1)
            limit = min(limit, kth + 2 * boxErrorKm)
        }
        let chosen = approximate.filter { $0.distanceKm <= limit }.map(\.seq)
        var ranking = NearbyRanking<Int64>(radiusKm: radiusKm)
        for chunk in stride(from: 0, to: chosen.count, by: 10_000) {
            let keys = Array(chosen[chunk..<min(chosen.count, chunk + 10_000)])
            let sql = "SELECT seq, lat, lon FROM pet WHERE seq IN (\(databaseQuestionMarks(count: keys.count)))"
            for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(keys)) {
                ranking.consider(key: row[0], distanceKm: GreatCircle.distanceKm(
                    lat1: center.latitude, lon1: center.longitude, lat2: row[1], lon2: row[2]))
            }
        }
        return ranking
    }

    /// The element that would sit at `rank` if `values` were sorted (Hoare selection; reorders `values`).
    private static func quickSelect(_ values: inout [Double], rank: Int) -> Double {
        var low = 0
        var high = values.count - 1
        while low < high {
            let pivot = values[(low + high) / 2]
            var i = low
            var j = high
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j {
                    values.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if rank <= j { high = j } else if rank >= i { low = i } else { break }
        }
        return values[rank]
    }

    /// The requested page out of candidates that include the first `offset + limit` matches.
    private static func page(_ db: Database, ranking: NearbyRanking<Int64>, query: PetQuery, totalCount: Int) throws -> PetPage {
        let end = min(ranking.matches.count, query.offset + query.limit)
        guard query.offset < end else { return PetPage(animals: [], totalCount: totalCount) }
        let leading = ranking.leading(end)
        if leading.count <= 2 * query.limit + 8 {
            return try smallPage(db, leading: leading, query: query, end: end, totalCount: totalCount)
        }
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

    /// The page when few candidates lead: read them whole at once, order by (distance, id), cut.
    private static func smallPage(
        _ db: Database, leading: [NearbyRanking<Int64>.Candidate], query: PetQuery, end: Int, totalCount: Int
    ) throws -> PetPage {
        let distances = Dictionary(uniqueKeysWithValues: leading.map { ($0.key, $0.distanceKm) })
        let sql = "SELECT seq, \(columns) FROM pet WHERE seq IN (\(databaseQuestionMarks(count: leading.count)))"
        var animals: [Animal] = []
        for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(leading.map(\.key))) {
            let seq: Int64 = row["seq"]
            animals.append(try animal(from: row, distanceKm: distances[seq]))
        }
        animals.sort { ($0.distanceKm ?? 0, $0.id) < ($1.distanceKm ?? 0, $1.id) }
        let window = animals[min(query.offset, animals.count)..<min(end, animals.count)]
        return PetPage(animals: Array(window), totalCount: totalCount)
    }
}
