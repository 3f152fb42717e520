import Foundation
import GRDB
import PetAPI
import PetSpotDomain
import Synchronization

/// The embedded ``AnimalStore``: one SQLite file through GRDB, in WAL mode.
///
/// A nearby page is found by SQLite's own R*Tree (`pet_location`, kept by triggers): boxes that cover
/// a circle a little wider than the page needs, widened until the page is whole (see
/// ``nearby(_:center:query:)``); distances are the haversine (``GreatCircle``). Counts other than the
/// whole listing's stop at ``countCap``.
public struct SQLiteAnimalStore: AnimalStore {
    private let connections: Connections
    var pool: DatabasePool { connections.pool }
    /// The database file.
    public let path: String
    /// Counts of a nearby or filtered listing stop here (``AnimalPage/totalCountIsExact``).
    public let countCap: Int

    /// Opens (creating and migrating if needed) the database at `path`.
    public init(path: String, countCap: Int = AnimalPage.defaultCountCap) throws {
        var configuration = Configuration()
        // Servers, `seed` and `import` may share the file: a writer (a migration, an import) waits for
        // another's lock instead of failing at once with "database is locked".
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // `INSERT OR REPLACE` deletes the row it replaces: with this, the delete trigger sees it too.
            try db.execute(sql: "PRAGMA recursive_triggers = ON")
            // A nearby page's rows lie all over the file: map it into memory and keep a larger page
            // cache, so reads cost no system calls.
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
        // Up to one per core: no more reads than that run on the calling threads at once.
        let readers = SQLiteReadConnections(
            path: path, configuration: configuration, limit: ProcessInfo.processInfo.activeProcessorCount
        )
        self.connections = Connections(pool: pool, readers: readers)
        self.path = path
        self.countCap = max(1, countCap)
        self.distances = DistanceCounter()
    }

    /// How many distances this store measured (for tests: how many pets a query looked at).
    private let distances: DistanceCounter
    var distancesComputed: Int { distances.value.load(ordering: .relaxed) }

    private final class DistanceCounter: Sendable {
        let value = Atomic(0)
    }

    /// The pool and the store's own readers, closed in the order SQLite needs: the readers first, so
    /// that the pool's writer is the last connection to the file, which checkpoints the WAL and
    /// removes it (a read-only connection closing last cannot; GRDB's pool closes its own readers
    /// first for the same reason).
    private final class Connections: Sendable {
        let pool: DatabasePool
        let readers: SQLiteReadConnections

        init(pool: DatabasePool, readers: SQLiteReadConnections) {
            self.pool = pool
            self.readers = readers
        }

        deinit { readers.close() }
    }

    /// `body` in a read transaction: on this thread when `quickAllowed` and one of the store's own
    /// connections is free; else through the pool.
    func read<T: Sendable>(quickAllowed: Bool = true, _ body: @Sendable (_ db: Database) throws -> T) async throws -> T {
        if quickAllowed, let value = try connections.readers.readIfFree(body) { return value }
        return try await pool.read(body)
    }

    /// How many reads ran on the calling thread (for tests: which reads were left to the pool).
    var quickReads: Int { connections.readers.reads }

    /// Runs `body` holding an exclusive `flock` on `<path>.lock`, which is created if needed.
    private static func whileHoldingOpenLock<T>(path: String, _ body: () throws -> T) throws -> T {
        let descriptor = open(path + ".lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw SQLiteOpenLockError(lockPath: path + ".lock", reason: String(cString: strerror(errno)))
        }
        defer { close(descriptor) }  // also releases the lock
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw SQLiteOpenLockError(lockPath: path + ".lock", reason: String(cString: strerror(errno)))
            }
        }
        return try body()
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
            // The cells of every pet were counted here until v4 dropped them; the columns stay, unused.
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
        migrator.registerMigration("v4: nearby queries counted and ranked in memory") { db in
            // The columns cell_row and cell_column stay, unused (new rows get their default, 0):
            // dropping a column needs SQLite 3.35 and rewrites the whole table.
            try db.execute(sql: """
                DROP TABLE pet_location;
                DROP TABLE pet_cell;
                DROP INDEX pet_by_cell;
                """)
        }
        migrator.registerMigration("v5: data versions start at a random number") { db in
            // ETags are made of the version: a database created anew (a reset, a reseed) must not
            // repeat the versions, and so the tags, of the one it replaces.
            try db.execute(sql: "UPDATE pet_stats SET version = version + (random() & 281474976710655)")
        }
        migrator.registerMigration("v6: count and data version kept by triggers") { db in
            // Every write moves them, whoever makes it: this binary or the sqlite3 shell. (A release from
            // before the triggers still adds to the count itself: stop old writers before migrating.)
            try db.execute(sql: """
                UPDATE pet_stats SET pets = (SELECT COUNT(*) FROM pet);
                CREATE TRIGGER pet_inserted AFTER INSERT ON pet BEGIN
                    UPDATE pet_stats SET pets = pets + 1, version = version + 1;
                END;
                CREATE TRIGGER pet_deleted AFTER DELETE ON pet BEGIN
                    UPDATE pet_stats SET pets = pets - 1, version = version + 1;
                END;
                CREATE TRIGGER pet_updated AFTER UPDATE ON pet BEGIN
                    UPDATE pet_stats SET version = version + 1;
                END;
                """)
        }
        migrator.registerMigration("v7: pets that left the listings") { db in
            try db.execute(sql: "CREATE TABLE pet_gone (id TEXT PRIMARY KEY, status TEXT NOT NULL) WITHOUT ROWID")
        }
        migrator.registerMigration("v8: a log of updates and deletes for the position index") { db in
            // Where a changed or deleted row was, so that the index moves or drops just that point
            // (new_seq is null for a delete). Appends need no entry: the index reads rows after its
            // highest seq. Old entries are pruned (``pruneChanges(_:)``); an index further behind rebuilds.
            try db.execute(sql: """
                CREATE TABLE pet_change (
                    id INTEGER PRIMARY KEY AUTOINCREMENT, old_seq INTEGER NOT NULL, old_lat REAL NOT NULL, old_lon REAL NOT NULL,
                    new_seq INTEGER
                );
                DROP TRIGGER pet_deleted;
                DROP TRIGGER pet_updated;
                CREATE TRIGGER pet_deleted AFTER DELETE ON pet BEGIN
                    UPDATE pet_stats SET pets = pets - 1, version = version + 1;
                    INSERT INTO pet_change (old_seq, old_lat, old_lon, new_seq) VALUES (OLD.seq, OLD.lat, OLD.lon, NULL);
                END;
                CREATE TRIGGER pet_updated AFTER UPDATE ON pet BEGIN
                    UPDATE pet_stats SET version = version + 1;
                    INSERT INTO pet_change (old_seq, old_lat, old_lon, new_seq) VALUES (OLD.seq, OLD.lat, OLD.lon, NEW.seq);
                END;
                """)
        }
        migrator.registerMigration("v9: nearby queries by SQLite's own R*Tree; the change log goes") { db in
            // The R*Tree is a table SQLite keeps beside `pet`, by these triggers: whoever writes a pet
            // (this binary, the sqlite3 shell) moves its point. Its coordinates are 32-bit floats
            // rounded outwards (within a metre of the pet); `pet` holds the exact ones. The pet's
            // species, sex and age band ride along as one number (``AnimalFilter/traits(species:sex:ageMonths:)``),
            // an auxiliary column that only a filtered query reads. The trap: as a third dimension they
            // made the tree cluster by traits instead of place (its splits add up edges, and 0…63 dwarfs
            // a degree): a box of a kilometre took 6 ms at a million pets, against 0.1 ms in two.
            let traits = "\(AnimalFilter.traitsSQL)"
            let newTraits = "(SELECT \(AnimalFilter.traitsSQL) FROM (SELECT NEW.species AS species, NEW.sex AS sex, NEW.age_months AS age_months))"
            try db.execute(sql: """
                DROP TRIGGER pet_inserted;
                DROP TRIGGER pet_deleted;
                DROP TRIGGER pet_updated;
                DROP TABLE pet_change;
                CREATE VIRTUAL TABLE pet_location USING rtree(seq, min_lat, max_lat, min_lon, max_lon, +traits);
                INSERT INTO pet_location (seq, min_lat, max_lat, min_lon, max_lon, traits)
                    SELECT seq, lat, lat, lon, lon, \(traits) FROM pet;
                CREATE TRIGGER pet_inserted AFTER INSERT ON pet BEGIN
                    UPDATE pet_stats SET pets = pets + 1, version = version + 1;
                    INSERT OR REPLACE INTO pet_location (seq, min_lat, max_lat, min_lon, max_lon, traits)
                        VALUES (NEW.seq, NEW.lat, NEW.lat, NEW.lon, NEW.lon, \(newTraits));
                END;
                CREATE TRIGGER pet_deleted AFTER DELETE ON pet BEGIN
                    UPDATE pet_stats SET pets = pets - 1, version = version + 1;
                    DELETE FROM pet_location WHERE seq = OLD.seq;
                END;
                CREATE TRIGGER pet_updated AFTER UPDATE ON pet BEGIN
                    UPDATE pet_stats SET version = version + 1;
                END;
                CREATE TRIGGER pet_moved AFTER UPDATE ON pet
                WHEN OLD.seq IS NOT NEW.seq OR OLD.lat IS NOT NEW.lat OR OLD.lon IS NOT NEW.lon OR OLD.species IS NOT NEW.species
                    OR OLD.sex IS NOT NEW.sex OR OLD.age_months IS NOT NEW.age_months BEGIN
                    DELETE FROM pet_location WHERE seq = OLD.seq;
                    INSERT OR REPLACE INTO pet_location (seq, min_lat, max_lat, min_lon, max_lon, traits)
                        VALUES (NEW.seq, NEW.lat, NEW.lat, NEW.lon, NEW.lon, \(newTraits));
                END;
                UPDATE pet_stats SET version = version + 1;
                """)
            // The last statement: every listing's body changed with this release (counts are capped
            // and say so), so no ETag of the old bodies may name a new one.
        }
        migrator.registerMigration("v10: places a person can choose instead of sharing their location") { db in
            try db.execute(sql: SQLitePlaces.schema)
        }
        return migrator
    }

    static let columns =
        "id, name, species, breed, sex, age_months, description, photo_url, shelter_name, shelter_city, lat, lon, published_at"

    /// SQLite's journal mode (`wal` for every database this store opens).
    public func journalMode() async throws -> String? {
        try await pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
    }

    public func count() async throws -> Int {
        try await read { db in try Self.count(db) }
    }

    public func dataVersion() async throws -> Int {
        try await read { db in try Int.fetchOne(db.cachedStatement(sql: "SELECT version FROM pet_stats")) ?? 0 }
    }

    private static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT pets FROM pet_stats")) ?? 0
    }

    public func lookup(id: String) async throws -> AnimalLookup {
        try await read { db in
            let version = try Int.fetchOne(db.cachedStatement(sql: "SELECT version FROM pet_stats")) ?? 0
            let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.columns) FROM pet WHERE id = ?"), arguments: [id])
            if let row { return AnimalLookup(animal: try Self.animal(from: row, distanceKm: nil), withdrawal: nil, dataVersion: version) }
            let why = try String.fetchOne(db.cachedStatement(sql: "SELECT status FROM pet_gone WHERE id = ?"), arguments: [id])
            return AnimalLookup(animal: nil, withdrawal: why.flatMap(Withdrawal.init(rawValue:)), dataVersion: version)
        }
    }

    public func snapshot(matching query: AnimalQuery) async throws -> AnimalSnapshot {
        // One read transaction: the version, the count and the page are of one state of the file.
        // On a request's own thread only what reads a bounded number of rows: the whole listing's
        // shallow pages, and a nearby page nearest first (at most the cap counted, a page or two
        // ranked). A deep page, a filter checked row by row along the table, or a nearby page newest
        // first (every pet in the circle) would hold the thread: the pool reads those.
        let quickAllowed = query.offset <= Self.quickOffsetLimit
            && (query.center == nil ? query.filter.keepsAll : query.ordering == .distance)
        return try await read(quickAllowed: quickAllowed) { db in
            let stats = try Row.fetchOne(db.cachedStatement(sql: "SELECT pets, version FROM pet_stats"))
            let (pets, version): (Int, Int) = (stats?[0] ?? 0, stats?[1] ?? 0)
            let page = if let center = query.center {
                try nearby(db, center: center, query: query)
            } else if query.filter.keepsAll {
                try Self.newest(db, query: query, totalCount: (pets, true))
            } else {
                try Self.newest(db, query: query, totalCount: Self.cappedCount(
                    db, sql: "SELECT 1 FROM pet WHERE \(query.filter.sqlCondition ?? "TRUE")", cap: countCap
                ))
            }
            return AnimalSnapshot(page: page, dataVersion: version)
        }
    }

    /// How many rows `sql` gives, counting no further than one past `cap`: `(cap, false)` above it.
    static func cappedCount(_ db: Database, sql: String, cap: Int) throws -> (Int, Bool) {
        let counted = try Int.fetchOne(db, sql: "SELECT count(*) FROM (\(sql) LIMIT ?)", arguments: [cap + 1]) ?? 0
        return counted > cap ? (cap, false) : (counted, true)
    }

    /// The deepest page offset read on a request's own thread: skipping rows up to it takes a
    /// fraction of a millisecond; deeper pages would hold the thread longer.
    static let quickOffsetLimit = 1_000

    public func insert(_ animals: [Animal]) async throws {
        try await pool.write { db in _ = try Self.insert(animals, into: db) }
    }

    public func apply(_ changes: [AnimalChange], sync: Bool) async throws -> ImportSummary {
        try await pool.write { db in try Self.apply(changes, sync: sync, in: db) }
    }

    /// Every field but `seq`: an upsert replaces a row only when one of them differs, so that an
    /// unchanged record writes nothing and moves no version (the update trigger fires per written row).
    private static let upsertSQL: String = {
        let fields = columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0 != "id" }
        return """
            INSERT INTO pet (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET \(fields.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
            WHERE \(fields.map { "\($0) IS NOT excluded.\($0)" }.joined(separator: " OR "))
            """
    }()

    private static func apply(_ changes: [AnimalChange], sync: Bool, in db: Database) throws -> ImportSummary {
        var summary = ImportSummary()
        let exists = try db.makeStatement(sql: "SELECT 1 FROM pet WHERE id = ?")
        let upsert = try db.makeStatement(sql: upsertSQL)
        let back = try db.makeStatement(sql: "DELETE FROM pet_gone WHERE id = ?")
        let remove = try db.makeStatement(sql: "DELETE FROM pet WHERE id = ?")
        let gone = try db.makeStatement(sql: """
            INSERT INTO pet_gone (id, status) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET status = excluded.status
            """)
        for (index, change) in changes.enumerated() {
            switch change {
            case .listed(let animal):
                try animal.validateForStoring(index: index)
                let existed = try Row.fetchOne(exists, arguments: [animal.id]) != nil
                try upsert.execute(arguments: arguments(animal))
                if !existed {
                    summary.added += 1
                } else if db.changesCount > 0 {
                    summary.updated += 1
                } else {
                    summary.unchanged += 1
                }
                try back.execute(arguments: [animal.id])
            case .withdrawn(let id, let why):
                try validateWithdrawnID(id, index: index)
                try remove.execute(arguments: [id])
                summary.withdrawn += db.changesCount
                try gone.execute(arguments: [id, why.rawValue])
            }
        }
        if sync {
            // The feed is the whole truth: a stored pet it does not list has left the shelter.
            try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS feed_ids (id TEXT PRIMARY KEY) WITHOUT ROWID; DELETE FROM feed_ids")
            let listed = try db.makeStatement(sql: "INSERT OR IGNORE INTO feed_ids (id) VALUES (?)")
            for change in changes { try listed.execute(arguments: [change.id]) }
            try db.execute(sql: """
                INSERT INTO pet_gone (id, status) SELECT id, 'removed' FROM pet WHERE id NOT IN (SELECT id FROM feed_ids)
                ON CONFLICT (id) DO UPDATE SET status = excluded.status
                """)
            try db.execute(sql: "DELETE FROM pet WHERE id NOT IN (SELECT id FROM feed_ids)")
            summary.withdrawn += db.changesCount
            try db.execute(sql: "DROP TABLE feed_ids")
        }
        return summary
    }

    private static func arguments(_ animal: Animal) -> StatementArguments {
        [
            animal.id, animal.name, animal.species.rawValue, animal.breed, animal.sex.rawValue,
            animal.ageMonths, animal.description, animal.photoURL?.absoluteString,
            animal.shelter.name, animal.shelter.city, animal.location.latitude, animal.location.longitude,
            animal.publishedAt.timeIntervalSince1970,
        ]
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
            INSERT \(skippingExistingIDs ? "OR IGNORE " : "")INTO pet (\(columns))
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for (index, animal) in animals.enumerated() {
            try animal.validateForStoring(index: index)
            do {
                try pet.execute(arguments: arguments(animal))
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                throw AnimalStoreError.duplicateID(index: index, id: animal.id)
            }
            if skippingExistingIDs, db.changesCount == 0 { continue }
            added += 1
        }
        // The triggers (migration v9) have counted every added row and moved the data version.
        return added
    }

    private static func newest(_ db: Database, query: AnimalQuery, totalCount count: (Int, Bool)) throws -> AnimalPage {
        let (total, exact) = count
        guard query.limit > 0, !exact || query.offset < total else {
            return AnimalPage(animals: [], totalCount: total, totalCountIsExact: exact)
        }
        // One row more than the page, to know whether another follows. After a cursor the index is
        // entered at its time: rows of that time up to its id are skipped, never counted past. A filter
        // is checked row by row along the same newest-first index.
        let filter = query.filter.sqlCondition.map { " AND (\($0))" } ?? ""
        // Thousands of filters have a text each: only the unfiltered statements stay prepared.
        func statement(_ sql: String) throws -> Statement {
            filter.isEmpty ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
        }
        let rows: RowCursor
        if let cursor = query.cursor {
            rows = try Row.fetchCursor(statement("""
                SELECT \(columns) FROM pet
                WHERE published_at <= ? AND NOT (published_at = ? AND id <= ?)\(filter)
                ORDER BY published_at DESC, id LIMIT ?
                """), arguments: [cursor.publishedAt, cursor.publishedAt, cursor.id, query.limit + 1])
        } else {
            rows = try Row.fetchCursor(
                statement("""
                    SELECT \(columns) FROM pet\(filter.isEmpty ? "" : " WHERE TRUE" + filter)
                    ORDER BY published_at DESC, id LIMIT ? OFFSET ?
                    """),
                arguments: [query.limit + 1, query.offset]
            )
        }
        // Read where the statement stands (a cursor's row is not copied), the stored time exactly.
        var animals: [Animal] = []
        animals.reserveCapacity(query.limit)
        var last: AnimalCursor?
        var hasMore = false
        while let row = try rows.next() {
            guard animals.count < query.limit else {
                hasMore = true
                break
            }
            animals.append(try animal(from: row, distanceKm: nil))
            last = AnimalCursor(publishedAt: row[12], id: animals[animals.count - 1].id)
        }
        return AnimalPage(animals: animals, totalCount: total, totalCountIsExact: exact, nextCursor: hasMore ? last : nil)
    }

    /// The animal of a row that starts with ``columns``, read by position (by name, GRDB would
    /// compare column names case-insensitively for every field).
    static func animal(from row: Row, distanceKm: Double?) throws -> Animal {
        try AnimalDTO(
            id: row[0], name: row[1], species: row[2], breed: row[3], sex: row[4],
            ageMonths: row[5], description: row[6], photoURL: row[7],
            shelter: .init(name: row[8], city: row[9]),
            location: .init(lat: row[10], lon: row[11]),
            publishedAt: Date(timeIntervalSince1970: row[12]),
            distanceKm: distanceKm
        ).storedAnimal()
    }
}

// MARK: - Nearby

/// The nearby query of ``SQLiteAnimalStore``, by the R*Tree `pet_location`.
///
/// SQLite's R*Tree finds the points in a box but cannot order them by distance, so a page nearest
/// first is read from a circle just wide enough: every pet within `r` lies in the boxes covering the
/// circle of radius `r` (``SearchBox``), so when at least `offset + limit` pets lie within `r`, the
/// nearest `offset + limit` of them are the nearest of all. When the count found more pets than the
/// cap, `r` starts at a 64th of the radius and doubles until enough lie within it (each step reads
/// four times the area of the last: about 4/3 of the last circle in all); a circle counted whole is
/// ranked from the count's own candidates. Pages end at the cap, as the count does.
///
/// The trap: the R*Tree's coordinates are 32-bit floats, within ``approximationKm`` of the pet. A
/// candidate is measured from them; only where that cannot decide (near the radius, or near the
/// page's last distance) is `pet` read for the exact coordinates, and the id that breaks a tie.
extension SQLiteAnimalStore {
    /// How far a distance measured from the R*Tree's coordinates may be from the exact one: half a
    /// 32-bit float's step is at most 3.8e-6° of latitude and 7.6e-6° of longitude, under a metre
    /// each; twice that, rounded up.
    static let approximationKm = 0.003

    /// One pet in the circle: its row number and distance (approximate until `exact`), its id once read.
    private struct Candidate {
        var seq: Int64
        var distanceKm: Double
        var exact = false
        var id = ""
    }

    /// The pets within `radiusKm` of `center` that the filter keeps, in no order; stops after `limit`.
    /// One statement per box (a circle across ±180° has two, which share no point). A filter reads
    /// each candidate's traits (an auxiliary column, a lookup per point); no filter reads none.
    private func candidates(
        _ db: Database, within radiusKm: Double, of center: GeoCoordinate, filter: AnimalFilter, limit: Int = .max
    ) throws -> [Candidate] {
        let mask = filter.traitMask
        let statement = try db.cachedStatement(sql: """
            SELECT seq, min_lat, max_lat, min_lon, max_lon\(filter.keepsAll ? "" : ", traits") FROM pet_location
            WHERE max_lat >= ? AND min_lat <= ? AND max_lon >= ? AND min_lon <= ?
            """)
        var found: [Candidate] = []
        var unsure: [Candidate] = []
        var measured = 0
        defer { distances.value.add(measured, ordering: .relaxed) }
        for box in SearchBox.covering(center: center, radiusKm: radiusKm) {
            let rows = try Row.fetchCursor(statement, arguments: [box.minLat, box.maxLat, box.minLon, box.maxLon])
            while let row = try rows.next() {
                if !filter.keepsAll {
                    let traits: Int = row[5]
                    guard (0..<64).contains(traits), mask & (1 << UInt64(traits)) != 0 else { continue }
                }
                measured += 1
                let lat = (row[1] as Double + row[2]) / 2
                let lon = (row[3] as Double + row[4]) / 2
                let distance = GreatCircle.distanceKm(lat1: center.latitude, lon1: center.longitude, lat2: lat, lon2: lon)
                if distance > radiusKm + Self.approximationKm { continue }
                let candidate = Candidate(seq: row[0], distanceKm: distance)
                if distance < radiusKm - Self.approximationKm {
                    found.append(candidate)
                    if found.count >= limit { return found }
                } else {
                    unsure.append(candidate)
                }
            }
        }
        // Near the radius: measured exactly, from `pet`.
        for var candidate in try exactly(db, unsure, from: center) where candidate.distanceKm <= radiusKm {
            candidate.exact = true
            found.append(candidate)
            if found.count >= limit { break }
        }
        return found
    }

    /// Reads `columns` (after `seq`, the row's first) of the pets with these row numbers, 500 at a time.
    private static func forEachPet(_ db: Database, _ seqs: [Int64], columns: String, _ body: (Row) throws -> Void) throws {
        for chunk in stride(from: 0, to: seqs.count, by: 500) {
            let keys = Array(seqs[chunk..<min(seqs.count, chunk + 500)])
            let rows = try Row.fetchCursor(
                db.cachedStatement(sql: "SELECT seq, \(columns) FROM pet WHERE seq IN (\(databaseQuestionMarks(count: keys.count)))"),
                arguments: StatementArguments(keys)
            )
            while let row = try rows.next() { try body(row) }
        }
    }

    /// `candidates` with their ids and exact distances, read from `pet` by row number.
    private func exactly(_ db: Database, _ candidates: [Candidate], from center: GeoCoordinate) throws -> [Candidate] {
        var exact: [Int64: (id: String, distanceKm: Double)] = [:]
        try Self.forEachPet(db, candidates.map(\.seq), columns: "id, lat, lon") { row in
            exact[row[0]] = (row[1], GreatCircle.distanceKm(lat1: center.latitude, lon1: center.longitude, lat2: row[2], lon2: row[3]))
        }
        return candidates.compactMap { candidate in
            exact[candidate.seq].map { Candidate(seq: candidate.seq, distanceKm: $0.distanceKm, exact: true, id: $0.id) }
        }
    }

    /// The nearest `needed` of `candidates`, ties by id as bytes (SQLite's BINARY collation,
    /// PostgreSQL's `COLLATE "C"`; Swift's `<` on `String` is not that order), with exact distances.
    /// Exact distances and ids are read only for those that may lead: every candidate whose
    /// approximate distance is within twice the approximation of the `needed`-th's.
    private func nearest(_ db: Database, _ candidates: [Candidate], needed: Int, from center: GeoCoordinate) throws -> [Candidate] {
        guard needed > 0, !candidates.isEmpty else { return [] }
        var sorted = candidates.sorted { $0.distanceKm < $1.distanceKm }
        let cut = sorted[min(needed, sorted.count) - 1].distanceKm + 2 * Self.approximationKm
        if let end = sorted.firstIndex(where: { $0.distanceKm > cut }) { sorted.removeSubrange(end...) }
        var leading = try exactly(db, sorted, from: center)
        leading.sort { $0.distanceKm != $1.distanceKm ? $0.distanceKm < $1.distanceKm : AnimalID.precedes($0.id, $1.id) }
        return Array(leading.prefix(needed))
    }

    /// The newest `needed` pets within the radius that the filter keeps, read along the newest-first
    /// index `(published_at DESC, id)`, which is the order asked for, ties by id as bytes included.
    private func newestAlongIndex(_ db: Database, center: GeoCoordinate, query: AnimalQuery, needed: Int) throws -> [Candidate] {
        let sql = "SELECT seq, id, lat, lon FROM pet\(query.filter.sqlCondition.map { " WHERE " + $0 } ?? "") ORDER BY published_at DESC, id"
        // Thousands of filters have a text each: only the unfiltered statement stays prepared.
        let statement = query.filter.keepsAll ? try db.cachedStatement(sql: sql) : try db.makeStatement(sql: sql)
        let rows = try Row.fetchCursor(statement)
        var found: [Candidate] = []
        var measured = 0
        defer { distances.value.add(measured, ordering: .relaxed) }
        while found.count < needed, let row = try rows.next() {
            measured += 1
            let distance = GreatCircle.distanceKm(lat1: center.latitude, lon1: center.longitude, lat2: row[2], lon2: row[3])
            if distance <= query.radiusKm { found.append(Candidate(seq: row[0], distanceKm: distance, exact: true, id: row[1])) }
        }
        return found
    }

    /// The newest `needed` of `candidates`, ties by id as bytes, with exact distances: `sort=recent`
    /// reads every candidate's time, id and coordinates from `pet`.
    private func newest(_ db: Database, _ candidates: [Candidate], needed: Int, from center: GeoCoordinate) throws -> [Candidate] {
        var times: [Int64: Double] = [:]
        try Self.forEachPet(db, candidates.map(\.seq), columns: "published_at") { row in times[row[0]] = row[1] }
        var sorted = candidates.sorted { times[$0.seq] ?? 0 > times[$1.seq] ?? 0 }
        guard needed > 0, !sorted.isEmpty else { return [] }
        let last = times[sorted[min(needed, sorted.count) - 1].seq] ?? 0
        if let end = sorted.firstIndex(where: { times[$0.seq] ?? 0 < last }) { sorted.removeSubrange(end...) }
        var leading = try exactly(db, sorted, from: center)
        leading.sort { a, b in
            let (ta, tb) = (times[a.seq] ?? 0, times[b.seq] ?? 0)
            return ta != tb ? ta > tb : AnimalID.precedes(a.id, b.id)
        }
        return Array(leading.prefix(needed))
    }

    func nearby(_ db: Database, center: GeoCoordinate, query: AnimalQuery) throws -> AnimalPage {
        let counted = try candidates(db, within: query.radiusKm, of: center, filter: query.filter, limit: countCap + 1)
        let (total, exact) = counted.count > countCap ? (countCap, false) : (counted.count, true)
        // Pages end at the cap, as the count does: a deeper one would rank every pet in the circle.
        guard query.limit > 0, query.offset < total else {
            return AnimalPage(animals: [], totalCount: total, totalCountIsExact: exact)
        }
        let needed = query.offset + query.limit  // at most the cap and a page: no overflow
        let ranked: [Candidate]
        if query.ordering == .recent, exact {
            // Counted whole, the count's candidates are every pet in the circle.
            ranked = try newest(db, counted, needed: needed, from: center)
        } else if query.ordering == .recent {
            // More than the cap in the circle: along the newest-first index, the first pets that lie
            // in it are the page (at least one pet in every thousand of the table does).
            ranked = try newestAlongIndex(db, center: center, query: query, needed: needed)
        } else if exact {
            ranked = try nearest(db, counted, needed: needed, from: center)
        } else {
            // More than the cap in the circle: from a 64th of the radius, doubled until the page fits.
            var radiusKm = query.radiusKm / 64
            var within: [Candidate]
            while true {
                within = try candidates(db, within: radiusKm, of: center, filter: query.filter)
                if within.count >= needed || radiusKm >= query.radiusKm { break }
                radiusKm = min(query.radiusKm, radiusKm * 2)
            }
            ranked = try nearest(db, within, needed: needed, from: center)
        }
        let window = ranked.dropFirst(query.offset)
        guard !window.isEmpty else { return AnimalPage(animals: [], totalCount: total, totalCountIsExact: exact) }
        var rows: [Int64: Row] = [:]
        let cursor = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT \(Self.columns), seq FROM pet WHERE seq IN (\(databaseQuestionMarks(count: window.count)))"),
            arguments: StatementArguments(window.map(\.seq))
        )
        while let row = try cursor.next() { rows[row[13]] = row.copy() }
        let animals = try window.compactMap { entry in try rows[entry.seq].map { try Self.animal(from: $0, distanceKm: entry.distanceKm) } }
        return AnimalPage(animals: animals, totalCount: total, totalCountIsExact: exact)
    }
}
