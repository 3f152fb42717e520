import Foundation
import GRDB
import PetAPI
import PetSpotDomain
import Synchronization

/// The embedded ``AnimalStore``: one SQLite file through GRDB, in WAL mode.
///
/// Nearby queries are counted and ranked in memory, over every pet's position (``PositionIndex``,
/// caught up with the data version inside the query's own read transaction); the database is read
/// only for the rows of the page.
public struct SQLiteAnimalStore: AnimalStore {
    private let connections: Connections
    var pool: DatabasePool { connections.pool }
    private let positions: PositionIndexCache
    /// The database file.
    public let path: String

    /// Opens (creating and migrating if needed) the database at `path`. With `rowsInMemory` the store
    /// keeps every pet's row beside its position (``ReplicaCopy``, about 420 bytes a pet) and answers
    /// a listing whose snapshot the copy is of without reading a row from the file; the server does.
    public init(path: String, rowsInMemory: Bool = false) throws {
        positions = PositionIndexCache(keepsRows: rowsInMemory)
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
    /// connections is free, `quick` then true; else through the pool, `quick` false. A body that finds
    /// it would be slow with `quick` throws ``SQLiteReadConnections/LeaveToPool`` and runs again
    /// through the pool.
    private func read<T: Sendable>(
        quickAllowed: Bool = true, _ body: @Sendable (_ db: Database, _ quick: Bool) throws -> T
    ) async throws -> T {
        if quickAllowed, let value = try connections.readers.readIfFree({ try body($0, true) }) { return value }
        return try await pool.read { try body($0, false) }
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
        return migrator
    }

    /// Migration v2's per-cell count (v4 drops the table).
    private static func countIn(_ cell: GeoCell, db: Database) throws {
        try db.cachedStatement(sql: """
            INSERT INTO pet_cell (cell_row, cell_column, n) VALUES (?, ?, 1)
            ON CONFLICT (cell_row, cell_column) DO UPDATE SET n = n + 1
            """).execute(arguments: [cell.row, cell.column])
    }

    static let columns =
        "id, name, species, breed, sex, age_months, description, photo_url, shelter_name, shelter_city, lat, lon, published_at"

    /// How many times this store built its position index from every row, the first build included
    /// (catching up with appends, updates and deletes does not count): for tests and diagnostics.
    public var positionIndexBuilds: Int { positions.fullBuilds }
    /// How many listings were answered from the rows in memory of their very snapshot: for tests.
    var copyAnswers: Int { positions.copyAnswers.load(ordering: .relaxed) }

    /// Builds the position index now, so that no request has to: the server calls it before it
    /// accepts connections (a million pets take a second or two).
    public func preparePositionIndex() async throws {
        _ = try await pool.read { [positions] db in try positions.index(in: db) }
    }

    /// SQLite's journal mode (`wal` for every database this store opens).
    public func journalMode() async throws -> String? {
        try await pool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
    }

    public func count() async throws -> Int {
        try await read { db, _ in try Self.count(db) }
    }

    public func dataVersion() async throws -> Int {
        try await read { db, _ in try Int.fetchOne(db.cachedStatement(sql: "SELECT version FROM pet_stats")) ?? 0 }
    }

    private static func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db.cachedStatement(sql: "SELECT pets FROM pet_stats")) ?? 0
    }

    public func lookup(id: String) async throws -> AnimalLookup {
        try await read { db, _ in
            let version = try Int.fetchOne(db.cachedStatement(sql: "SELECT version FROM pet_stats")) ?? 0
            let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Self.columns) FROM pet WHERE id = ?"), arguments: [id])
            if let row { return AnimalLookup(animal: try Self.animal(from: row, distanceKm: nil), withdrawal: nil, dataVersion: version) }
            let why = try String.fetchOne(db.cachedStatement(sql: "SELECT status FROM pet_gone WHERE id = ?"), arguments: [id])
            return AnimalLookup(animal: nil, withdrawal: why.flatMap(Withdrawal.init(rawValue:)), dataVersion: version)
        }
    }

    public func snapshot(matching query: AnimalQuery) async throws -> AnimalSnapshot {
        // One read transaction: the version, the count and the page are of one state of the file.
        // On a request's own thread no deep page, no filter checked row by row along the table, no
        // index to catch up or build (a second or two for a million pets): they hold it for long.
        let quickAllowed = query.offset <= Self.quickOffsetLimit && (query.center != nil || query.filter.keepsAll)
        do {
            return try await read(quickAllowed: quickAllowed) { db, quick in
                try answer(query, in: db, quick: quick, quickAllowed: quickAllowed, replacingNewer: false)
            }
        } catch is PositionIndexCache.SnapshotBehind {
            // The read began before another caught the index up: once more, in a new transaction,
            // which sees at least that version (or the database went back, and its index is built).
            return try await pool.read { db in try answer(query, in: db, quick: false, quickAllowed: quickAllowed, replacingNewer: true) }
        }
    }

    /// The snapshot of `query` in `db`'s read transaction: on a request's own thread when `quick`,
    /// where only what is known to be short runs (the index or copy of this very snapshot, no deep
    /// page, no filter checked row by row); in a pool reader otherwise, where the index and the rows
    /// are caught up or built.
    private func answer(
        _ query: AnimalQuery, in db: Database, quick: Bool, quickAllowed: Bool, replacingNewer: Bool
    ) throws -> AnimalSnapshot {
        let (pets, version) = try PositionIndexCache.stats(db)
        // With rows kept, every page comes from the copy of this very snapshot: no row is read.
        if positions.keepsRows {
            if !quick, let copy = try positions.copy(in: db, replacingNewer: replacingNewer) { return try copy.snapshot(matching: query) }
            if quickAllowed, let copy = positions.currentCopy(pets: pets, version: version) { return try copy.snapshot(matching: query) }
            throw SQLiteReadConnections.LeaveToPool()
        }
        func index() throws -> PositionIndex {
            guard quick else { return try positions.index(in: db, replacingNewer: replacingNewer) }
            guard let index = positions.current(pets: pets, version: version) else { throw SQLiteReadConnections.LeaveToPool() }
            return index
        }
        let page = if let center = query.center {
            try Self.nearby(db, center: center, query: query, index: index(), quick: quick)
        } else if query.filter.keepsAll {
            try Self.newest(db, query: query, totalCount: pets)
        } else {
            // Counted by the index's tally per species, sex and age band, not by reading the table.
            try Self.newest(db, query: query, totalCount: index().count(mask: query.filter.traitMask))
        }
        return AnimalSnapshot(page: page, dataVersion: version)
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
        try pruneChanges(db)
        return summary
    }

    /// How many entries of `pet_change` are kept: a position index further behind is rebuilt instead.
    static let keptChanges = 100_000

    /// Drops change-log entries no index needs any more (one further behind rebuilds from the rows).
    static func pruneChanges(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM pet_change WHERE id <= (SELECT max(id) FROM pet_change) - ?", arguments: [keptChanges])
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
        // The triggers of migration v6 have counted every added row and moved the data version.
        return added
    }

    private static func newest(_ db: Database, query: AnimalQuery, totalCount total: Int) throws -> AnimalPage {
        guard query.limit > 0, query.offset < total else { return AnimalPage(animals: [], totalCount: total) }
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
        return AnimalPage(animals: animals, totalCount: total, nextCursor: hasMore ? last : nil)
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

/// The nearby query of ``SQLiteAnimalStore``: ``PositionIndex`` counts the pets within the radius that
/// the filter keeps and names those that can make the page (nearest or newest) with their exact
/// distances; only their rows are read, and ties are broken by id.
extension SQLiteAnimalStore {
    private static func nearby(
        _ db: Database, center: GeoCoordinate, query: AnimalQuery, index: PositionIndex, quick: Bool
    ) throws -> AnimalPage {
        let (needed, overflow) = query.offset.addingReportingOverflow(query.limit)
        let nearest = index.nearest(
            center: center, radiusKm: query.radiusKm, mask: query.filter.traitMask, order: query.ordering,
            offset: query.offset, needed: overflow ? .max : needed
        )
        guard query.offset < nearest.totalCount else { return AnimalPage(animals: [], totalCount: nearest.totalCount) }
        // Pets tied with the page's last (one shelter's coordinates, times of one day) are all read to
        // break the tie by id: on a request's own thread only as many as a page or two.
        if quick, nearest.leading.count > 2 * needed + 64 { throw SQLiteReadConnections.LeaveToPool() }
        let distances = Dictionary(uniqueKeysWithValues: nearest.leading.map { ($0.key, $0.distanceKm) })
        func rows(_ keys: [Int64]) throws -> [Int64: (animal: Animal, publishedAt: Double)] {
            let sql = "SELECT \(columns), seq FROM pet WHERE seq IN (\(databaseQuestionMarks(count: keys.count)))"
            var rows: [Int64: (Animal, Double)] = [:]
            let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: StatementArguments(keys))
            while let row = try cursor.next() {
                let seq: Int64 = row[13]
                rows[seq] = (try animal(from: row, distanceKm: distances[seq]), row[12])
            }
            return rows
        }
        if nearest.isSmall(for: query) {
            let whole = try rows(nearest.leading.map(\.key))
            let window = nearest.window(of: query, rows: whole.mapValues { ($0.animal.id, $0.publishedAt) })
            return AnimalPage(animals: window.compactMap { whole[$0.key]?.animal }, totalCount: nearest.totalCount)
        }
        // Ids and times first, then the rows of the page alone.
        var positions: [Int64: (id: String, publishedAt: Double)] = [:]
        for chunk in stride(from: 0, to: nearest.leading.count, by: 10_000) {
            let keys = nearest.leading[chunk..<min(nearest.leading.count, chunk + 10_000)].map(\.key)
            let sql = "SELECT seq, id, published_at FROM pet WHERE seq IN (\(databaseQuestionMarks(count: keys.count)))"
            for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(keys)) {
                positions[row[0]] = (row[1], row[2])
            }
        }
        let window = nearest.window(of: query, rows: positions)
        let page = try rows(window.map(\.key))
        return AnimalPage(animals: window.compactMap { page[$0.key]?.animal }, totalCount: nearest.totalCount)
    }
}
