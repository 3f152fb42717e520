import AsyncSupport
import Foundation
import Logging
import PetAPI
import PetSpotDomain
import PostgresNIO
import Synchronization

/// The ``AnimalStore`` for deployments that outgrow one machine: PostgreSQL with PostGIS through a pool of
/// postgres-nio connections, so any number of stateless API replicas can share one database.
///
/// Locations live in a `geography(Point, 4326)` column with a GiST index. A nearby page lets the index
/// find candidates (`ST_DWithin`, a hair wider than the radius) and order them (the KNN operator `<->`,
/// PostGIS's sphere distance); the count adds up per-cell totals (``GeoCell``) kept by the store. The
/// exact radius test, the distances reported and the order of ties use the same haversine
/// (``GreatCircle``) as ``SQLiteAnimalStore``, so both stores give identical answers.
///
/// Use it inside ``withStore(_:logger:_:)``; the server (``buildApplication(configuration:onServerRunning:)``)
/// runs its pool as one of the application's services. The pool serves queries only while it runs.
public struct PostgresAnimalStore: AnimalStore {
    public let configuration: Configuration
    /// The connection pool; a swift-service-lifecycle `Service` that must run while the store is used.
    let client: PostgresClient
    let logger: Logger
    /// Every pet's position in memory (``PostgresPositionIndex``); nil with `position_index=off`.
    let positions: PostgresPositionIndex?

    /// The schema-qualified table of pets.
    var table: String { "\"\(configuration.schema)\".pet" }
    /// The schema-qualified one-row table of the pet count and data version.
    private var statsTable: String { "\"\(configuration.schema)\".pet_stats" }
    /// The schema-qualified table of pets that left the listings, and why.
    private var goneTable: String { "\"\(configuration.schema)\".pet_gone" }
    /// The schema-qualified table of pets per ``GeoCell``.
    private var cellTable: String { "\"\(configuration.schema)\".pet_cell" }
    /// The schema-qualified log of position changes (migration 7).
    private var logTable: String { "\"\(configuration.schema)\".pet_log" }

    static let columns =
        "id, name, species, breed, sex, age_months, description, photo_url, shelter_name, shelter_city, lat, lon, published_at"

    /// Connects once to check the server and PostGIS, creates or upgrades the table, and prepares the pool
    /// (which connects once its ``client`` runs).
    /// - Throws: ``PostgresAnimalStoreError`` saying whether the server is unreachable, refused the session,
    ///   lacks PostGIS, or the migration failed.
    init(
        migrating configuration: Configuration, logger: Logger = PetServerConfiguration.logger(),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) async throws {
        var quiet = logger
        // postgres-nio logs query bindings (which may be someone's coordinates) below this level.
        quiet.logLevel = max(logger.logLevel, .notice)
        try await PostgresMigration.run(configuration, logger: quiet)
        self.configuration = configuration
        self.client = PostgresClient(configuration: configuration.clientConfiguration, backgroundLogger: quiet)
        self.logger = quiet
        self.positions = configuration.positionIndex
            ? PostgresPositionIndex(
                table: "\"\(configuration.schema)\".pet", log: "\"\(configuration.schema)\".pet_log", logger: quiet,
                // A build inside a request is bounded by the operation timeout; past twice that it is stuck.
                lease: configuration.operationTimeout * 2,
                lag: configuration.replicaLag ?? .zero,
                now: now
            )
            : nil
    }

    /// Opens the store (see ``init(migrating:logger:)``), runs its pool beside `body`, and closes the
    /// pool on every way out of `body`, a thrown error included.
    public static func withStore<Result: Sendable>(
        _ configuration: Configuration,
        logger: Logger = PetServerConfiguration.logger(),
        _ body: (PostgresAnimalStore) async throws -> Result
    ) async throws -> Result {
        try await withStore(configuration, logger: logger, now: { ContinuousClock.now }, body)
    }

    /// ``withStore(_:logger:_:)`` with the clock the replica's copy is confirmed by (tests move it by hand).
    static func withStore<Result: Sendable>(
        _ configuration: Configuration,
        logger: Logger = PetServerConfiguration.logger(),
        now: @escaping @Sendable () -> ContinuousClock.Instant,
        _ body: (PostgresAnimalStore) async throws -> Result
    ) async throws -> Result {
        let store = try await PostgresAnimalStore(migrating: configuration, logger: logger, now: now)
        return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
            group.addTask { await store.client.run() }
            defer { group.cancelAll() }
            return try await body(store)
        }
    }

    public func count() async throws -> Int {
        try await withConnection { connection in try await count(on: connection) }
    }

    public func dataVersion() async throws -> Int {
        try await withConnection { connection in
            let rows = try await connection.query("SELECT version FROM \(unescaped: statsTable)", logger: logger)
            for try await version in rows.decode(Int.self) { return version }
            return 0
        }
    }

    private func count(on connection: PostgresConnection) async throws -> Int {
        let rows = try await connection.query("SELECT pets FROM \(unescaped: statsTable)", logger: logger)
        for try await total in rows.decode(Int.self) { return total }
        return 0
    }

    public func lookup(id: String) async throws -> AnimalLookup {
        try await withConnection { connection in
            try await Self.transaction(on: connection, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger) {
                let version = try await count("SELECT version FROM \(unescaped: statsTable)", on: connection)
                let rows = try await connection.query(
                    "SELECT \(unescaped: Self.columns) FROM \(unescaped: table) WHERE id = \(id)", logger: logger
                )
                for try await row in rows {
                    return AnimalLookup(animal: try Self.animal(from: row, distanceKm: nil), withdrawal: nil, dataVersion: version)
                }
                var why: Withdrawal?
                let gone = try await connection.query("SELECT status FROM \(unescaped: goneTable) WHERE id = \(id)", logger: logger)
                for try await status in gone.decode(String.self) { why = Withdrawal(rawValue: status) }
                return AnimalLookup(animal: nil, withdrawal: why, dataVersion: version)
            }
        }
    }

    public func apply(_ changes: [AnimalChange], sync: Bool) async throws -> ImportSummary {
        var listed: [Animal] = []
        var withdrawn: [(id: String, why: Withdrawal)] = []
        for (index, change) in changes.enumerated() {
            switch change {
            case .listed(let animal):
                try animal.validateForStoring(index: index)
                listed.append(animal)
            case .withdrawn(let id, let why):
                withdrawn.append((id, why))
            }
        }
        // Also when it fails: a write whose answer was lost may have committed.
        defer { positions?.noteOwnWrite() }
        return try await withConnection(timeoutAfterLease: false) { [listed, withdrawn] connection in
            try await Self.transaction(on: connection, logger: logger) {
                // One import at a time: the statistics row, which every trigger updates first, held to the end.
                try await connection.query("SELECT 1 FROM \(unescaped: statsTable) FOR UPDATE", logger: logger)
                var summary = ImportSummary()
                for start in stride(from: 0, to: listed.count, by: Self.batchSize) {
                    let batch = Array(listed[start..<min(listed.count, start + Self.batchSize)])
                    let (added, updated) = try await upsertBatch(batch, on: connection)
                    summary.added += added
                    summary.updated += updated
                    summary.unchanged += batch.count - added - updated
                }
                let ids = withdrawn.map(\.id)
                if !ids.isEmpty {
                    summary.withdrawn += try await count(
                        "WITH gone AS (DELETE FROM \(unescaped: table) WHERE id = ANY(\(ids)::text[]) RETURNING 1) SELECT count(*) FROM gone",
                        on: connection
                    )
                    try await connection.query("""
                        INSERT INTO \(unescaped: goneTable) (id, status)
                        SELECT * FROM unnest(\(ids)::text[], \(withdrawn.map(\.why.rawValue))::text[])
                        ON CONFLICT (id) DO UPDATE SET status = excluded.status
                        """, logger: logger)
                }
                let back = listed.map(\.id)
                if !back.isEmpty {
                    try await connection.query("DELETE FROM \(unescaped: goneTable) WHERE id = ANY(\(back)::text[])", logger: logger)
                }
                if sync {
                    // The feed is the whole truth: a stored pet it does not list has left the shelter. One
                    // statement (one snapshot), with an anti-join the planner hashes: `NOT IN` over a large
                    // array would be compared row by row.
                    let feed = changes.map(\.id)
                    summary.withdrawn += try await count("""
                        WITH gone AS (
                            DELETE FROM \(unescaped: table) AS pet
                            WHERE NOT EXISTS (SELECT 1 FROM unnest(\(feed)::text[]) AS feed(id) WHERE feed.id = pet.id)
                            RETURNING pet.id),
                        noted AS (
                            INSERT INTO \(unescaped: goneTable) (id, status) SELECT id, 'removed' FROM gone
                            ON CONFLICT (id) DO UPDATE SET status = excluded.status)
                        SELECT count(*) FROM gone
                        """, on: connection)
                }
                try await pruneLog(on: connection)
                return summary
            }
        }
    }

    /// Drops the log entries older than the last `configuration.keptLogEntries` (whole versions), and moves
    /// `log_starts_after` past them, inside the caller's write transaction. Writes made elsewhere
    /// (psql) prune nothing: the next write made here does.
    private func pruneLog(on connection: PostgresConnection) async throws {
        try await connection.query("""
            WITH cut AS (SELECT version FROM \(unescaped: logTable) ORDER BY id DESC OFFSET \(configuration.keptLogEntries) LIMIT 1),
                 pruned AS (DELETE FROM \(unescaped: logTable) WHERE version <= (SELECT version FROM cut))
            UPDATE \(unescaped: statsTable) SET log_starts_after = greatest(log_starts_after, (SELECT version FROM cut))
            WHERE EXISTS (SELECT 1 FROM cut)
            """, logger: logger)
    }

    /// The one number a query answers with (0 when it answers no row).
    private func count(_ query: PostgresQuery, on connection: PostgresConnection) async throws -> Int {
        for try await count in try await connection.query(query, logger: logger).decode(Int.self) { return count }
        return 0
    }

    /// The animals of `batch` as rows of ``columns``, `SELECT … FROM unnest(…)` with one array bound
    /// per column, so that one statement writes a whole batch. Its binds are `$1`… in order: put it
    /// before any other bind of the statement it goes into.
    private static func rows(of batch: [Animal]) -> PostgresQuery {
        let photos = batch.map { $0.photoURL?.absoluteString ?? "" }
        let hasPhoto = batch.map { $0.photoURL != nil }
        return """
            SELECT id, name, species, breed, sex, age_months, description, CASE WHEN has_photo THEN photo_url END,
                   shelter_name, shelter_city, lat, lon, published_at
            FROM unnest(\(batch.map(\.id))::text[], \(batch.map(\.name))::text[], \(batch.map(\.species.rawValue))::text[],
                        \(batch.map(\.breed))::text[], \(batch.map(\.sex.rawValue))::text[], \(batch.map(\.ageMonths))::int8[],
                        \(batch.map(\.description))::text[], \(photos)::text[], \(hasPhoto)::bool[],
                        \(batch.map(\.shelter.name))::text[], \(batch.map(\.shelter.city))::text[],
                        \(batch.map(\.location.latitude))::float8[], \(batch.map(\.location.longitude))::float8[],
                        \(batch.map(\.publishedAt.timeIntervalSince1970))::float8[])
                AS input(id, name, species, breed, sex, age_months, description, photo_url, has_photo,
                         shelter_name, shelter_city, lat, lon, published_at)
            """
    }

    /// Adds the batch's new pets and replaces those whose stored row differs in any field; returns how
    /// many of each (`xmax = 0` marks a row this statement inserted rather than updated).
    private func upsertBatch(_ batch: [Animal], on connection: PostgresConnection) async throws -> (added: Int, updated: Int) {
        let fields = Self.columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0 != "id" }
        let assignments = fields.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")
        let differs = "(\(fields.map { "pet.\($0)" }.joined(separator: ", "))) IS DISTINCT FROM (\(fields.map { "excluded.\($0)" }.joined(separator: ", ")))"
        let rows = Self.rows(of: batch)
        let query = PostgresQuery(unsafeSQL: """
            WITH written AS (
                INSERT INTO \(table) AS pet (\(Self.columns))
                \(rows.sql)
                ON CONFLICT (id) DO UPDATE SET \(assignments) WHERE \(differs)
                RETURNING xmax = 0 AS inserted)
            SELECT count(*) FILTER (WHERE inserted), count(*) FILTER (WHERE NOT inserted) FROM written
            """, binds: rows.binds)
        for try await (added, updated) in try await connection.query(query, logger: logger).decode((Int, Int).self) {
            return (added, updated)
        }
        return (0, 0)
    }

    public func snapshot(matching query: AnimalQuery) async throws -> AnimalSnapshot {
        // The replica's copy, confirmed within `replica_lag_ms`: no database round trip at all.
        if let copy = positions?.fresh() { return try copy.snapshot(matching: query) }
        return try await withConnection { connection in
            // Most answers take one statement, which is one snapshot and one round trip: the listing,
            // and a nearby page ranked by the index as it is, when the statement finds the database
            // still at the index's version. A replica that keeps a copy takes the transaction below
            // for its listings too: it confirms the copy for the next ones.
            if query.center == nil, positions.map({ query.filter.keepsAll && !$0.keepsRows }) ?? true {
                return try await newest(on: connection, query: query, filteredCount: nil)
            }
            if let center = query.center, let positions, let held = positions.latest {
                let began = positions.now()
                if let answer = try await nearby(inOneStatementWith: held, on: connection, center: center, query: query) {
                    positions.confirm(held, readBegan: began)
                    return answer
                }
            }
            // Otherwise one repeatable-read transaction: the version, then the index at that version
            // (caught up from the log), the count and the page (REPEATABLE READ takes the snapshot at
            // the first statement: the version's).
            let began = positions?.now() ?? ContinuousClock.now
            return try await Self.transaction(on: connection, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger) {
                // Before the snapshot is taken: TRUNCATE is not MVCC-safe, and one committed after the
                // snapshot but before `pet` is first read would show an empty table under the old version.
                try await connection.query("LOCK TABLE \(unescaped: table) IN ACCESS SHARE MODE", logger: logger)
                let stats = try await stats(on: connection)
                let held = try await positions?.index(at: stats, on: connection, readBegan: began)
                if let held, let rows = held.rows {
                    return try ReplicaCopy(index: held.index, rows: rows).snapshot(matching: query)
                }
                switch (query.center, held?.index) {
                case let (center?, index?):
                    return AnimalSnapshot(page: try await nearby(on: connection, center: center, query: query, index: index), dataVersion: stats.version)
                case let (center?, nil):
                    return AnimalSnapshot(page: try await nearby(on: connection, center: center, query: query), dataVersion: stats.version)
                case let (nil, index):
                    return try await newest(on: connection, query: query, filteredCount: index?.count(mask: query.filter.traitMask))
                }
            }
        }
    }

    /// Builds this replica's position index now (nothing with `position_index=off`), so that the first
    /// nearby queries do not answer from PostGIS while one of them builds it. The server calls it
    /// before it accepts connections.
    public func preparePositionIndex() async throws {
        guard let positions else { return }
        try await withConnection { connection in
            let began = positions.now()
            try await Self.transaction(on: connection, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger) {
                _ = try await positions.index(at: stats(on: connection), on: connection, readBegan: began)
            }
        }
    }

    /// How many times this replica built its position index from every row (catching up from the log
    /// does not count): for tests and diagnostics.
    public var positionIndexBuilds: Int { positions?.fullBuilds ?? 0 }
    /// How many reads the position index left to PostGIS while it was busy (or of an older snapshot).
    var positionIndexFallbacks: Int { positions?.answersFromDatabase ?? 0 }
    /// How many reads the replica's copy answered from memory, without the database: for tests.
    var memoryAnswers: Int { positions?.memoryAnswers ?? 0 }

    /// The statistics row as the caller's transaction sees it.
    private func stats(on connection: PostgresConnection) async throws -> PostgresPositionIndex.Stats {
        let rows = try await connection.query("""
            SELECT stats.version, stats.pets, stats.log_starts_after, coalesce(newest.id, 0), coalesce(newest.version, 0)
            FROM \(unescaped: statsTable) AS stats
            LEFT JOIN LATERAL (SELECT id, version FROM \(unescaped: logTable) ORDER BY id DESC LIMIT 1) AS newest ON TRUE
            """, logger: logger)
        for try await (version, pets, logStartsAfter, lastLogID, lastLogVersion) in rows.decode((Int, Int, Int, Int64, Int).self) {
            return .init(version: version, pets: pets, logStartsAfter: logStartsAfter, lastLogID: lastLogID, lastLogVersion: lastLogVersion)
        }
        return .init(version: 0, pets: 0, logStartsAfter: 0, lastLogID: 0)
    }

    /// The listing without coordinates, in one statement (one snapshot, one round trip): the version,
    /// the count and the page. A filter is checked row by row along the newest-first index; a filtered
    /// listing is counted by the position index (`filteredCount`, of the caller's snapshot) or else by
    /// reading the table.
    private func newest(on connection: PostgresConnection, query: AnimalQuery, filteredCount: Int?) async throws -> AnimalSnapshot {
        let condition = query.filter.sqlCondition ?? "TRUE"
        // Text of ours only (column names, enum values, a number): nothing from the request.
        let total = if query.filter.keepsAll {
            "stats.pets"
        } else if let filteredCount {
            "\(filteredCount)"
        } else {
            "(SELECT count(*) FROM \(table) WHERE \(condition))"
        }
        // The page's columns first (``animal(from:distanceKm:)`` reads them from the start), then the
        // version and the count: a page without rows still gives one row, of nulls and those two. One
        // row more than the page, to know whether another follows; after a cursor, as SQLite's.
        let rows: PostgresRowSequence
        if let cursor = query.cursor {
            rows = try await connection.query("""
                SELECT page.*, stats.version, \(unescaped: total) FROM \(unescaped: statsTable) AS stats LEFT JOIN LATERAL (
                    SELECT \(unescaped: Self.columns) FROM \(unescaped: table)
                    WHERE published_at <= \(cursor.publishedAt) AND NOT (published_at = \(cursor.publishedAt) AND id <= \(cursor.id))
                      AND \(unescaped: condition)
                    ORDER BY published_at DESC, id LIMIT \(query.limit + 1)) AS page ON true
                """, logger: logger)
        } else {
            rows = try await connection.query("""
                SELECT page.*, stats.version, \(unescaped: total) FROM \(unescaped: statsTable) AS stats LEFT JOIN LATERAL (
                    SELECT \(unescaped: Self.columns) FROM \(unescaped: table) WHERE \(unescaped: condition)
                    ORDER BY published_at DESC, id LIMIT \(query.limit + 1) OFFSET \(query.offset)) AS page ON true
                """, logger: logger)
        }
        var animals: [Animal] = []
        var lastPosition: AnimalCursor?
        var hasMore = false
        var version = 0
        var totalCount = 0
        for try await row in rows {
            let columns = row.makeRandomAccess()
            version = try columns[13].decode(Int.self)
            totalCount = try columns[14].decode(Int.self)
            guard columns[0].bytes != nil else { continue }  // no page row
            if animals.count == query.limit {
                hasMore = true
                continue
            }
            animals.append(try Self.animal(from: columns, distanceKm: nil))
            // Where the next page would start: the stored time exactly, not one that went through Date.
            lastPosition = AnimalCursor(publishedAt: try columns[12].decode(Double.self), id: try columns[0].decode(String.self))
        }
        let page = AnimalPage(animals: animals, totalCount: totalCount, nextCursor: hasMore ? lastPosition : nil)
        return AnimalSnapshot(page: page, dataVersion: version)
    }

    /// Runs `body` on a pooled connection. Fails with ``PostgresAnimalStoreError/timedOut(url:after:)`` when
    /// it takes longer than the operation timeout, or with `timeoutAfterLease: false` (bulk loads) only
    /// when no connection could be had in time: postgres-nio's pool would wait for the server forever.
    /// Statements are bounded by the server's `statement_timeout` either way. Ends at once when the
    /// calling task is cancelled.
    ///
    /// The trap: a statement on a pooled connection ignores cancellation (postgres-nio's `query` has
    /// no cancellation handler; on a connection whose server went away it may wait for minutes), so
    /// the work runs in a task of its own that this call stops awaiting at the deadline or on
    /// cancellation, instead of a task group, which would wait for it to finish. Abandoned before it
    /// got a connection, it does nothing; abandoned with one, it may go on for another operation
    /// timeout, after which its connection is closed (an open transaction then rolls back). So a write
    /// the caller gave up on may still commit, as when a commit's answer is lost.
    func withConnection<Result: Sendable>(
        timeoutAfterLease: Bool = true,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let timeout = configuration.operationTimeout
        let url = configuration.displayURL
        let lease = Lease()
        let outcome = Waiters<Swift.Result<Result, any Error>>()
        let ticket = outcome.join()
        let work = Task { [client] in
            do {
                let result = try await client.withConnection { connection in
                    // A caller that gave up before a connection was free gets nothing done late.
                    guard lease.hold(connection) else { throw CancellationError() }
                    let result: Swift.Result<Result, any Error>
                    do { result = .success(try await body(connection)) } catch { result = .failure(error) }
                    // Being closed, it goes back to the pool only once closed (the pool learns of it first).
                    if lease.release() { _ = try? await connection.closeFuture.get() }
                    return try result.get()
                }
                outcome.resume(ticket, returning: .success(result))
            } catch {
                outcome.resume(ticket, returning: .failure(error))
            }
        }
        let deadline = Task {
            try await Task.sleep(for: timeout)
            // Checked and given up on in one step: work that got its connection meanwhile goes on.
            if timeoutAfterLease || lease.abandonUnlessHeld() {
                outcome.resume(ticket, returning: .failure(PostgresAnimalStoreError.timedOut(url: url, after: timeout)))
            }
        }
        let result = await outcome.wait(ticket, cancelled: .failure(CancellationError()))
        deadline.cancel()
        work.cancel()  // a no-op when it finished; otherwise it is abandoned
        if lease.abandon() {
            // The work outlived its caller. On a live server its statement ends within
            // `statement_timeout` and the connection goes back as it is; one still held after another
            // operation timeout is stuck (a server that vanished without a reset) and is closed, which
            // ends the statement's wait and frees its place in the pool, where it would otherwise stay
            // until the operating system gave up on the socket (minutes).
            let grace = configuration.abandonedWorkGrace ?? timeout
            let closing = Task {
                if grace > .zero { try? await Task.sleep(for: grace) }
                guard let connection = lease.takeForClosing() else { return }
                connection.close().whenComplete { _ in }
                _ = try? await connection.closeFuture.get()
            }
            if grace == .zero { await closing.value }
        }
        return try result.get()
    }

    /// Runs `body` between `begin` and `COMMIT`, rolling back when it throws; rethrows `body`'s own error.
    static func transaction<Result>(
        on connection: PostgresConnection,
        begin: String = "BEGIN",
        logger: Logger,
        _ body: () async throws -> Result
    ) async throws -> Result {
        try await connection.query(PostgresQuery(unsafeSQL: begin), logger: logger)
        do {
            let result = try await body()
            try await connection.query("COMMIT", logger: logger)
            return result
        } catch {
            // Not on a closed connection: postgres-nio never answers a statement sent after the
            // close, and the task would wait for ever (an abandoned operation's is closed so).
            if !connection.isClosed { _ = try? await connection.query("ROLLBACK", logger: logger) }
            throw error
        }
    }

    /// Reads an animal from a row that starts with ``columns`` (in that order).
    private static func animal(from row: PostgresRow, distanceKm: Double?) throws -> Animal {
        try animal(from: row.makeRandomAccess(), distanceKm: distanceKm)
    }

    /// Reads an animal from a row that starts with ``columns``, column by column: decoding the row as
    /// one tuple of thirteen types took about a fifth of a listing's time in the server.
    static func animal(from columns: PostgresRandomAccessRow, distanceKm: Double?) throws -> Animal {
        func text(_ index: Int) throws -> String { try columns[index].decode(String.self) }
        func number(_ index: Int) throws -> Double { try columns[index].decode(Double.self) }
        return try AnimalDTO(
            id: text(0), name: text(1), species: text(2), breed: text(3), sex: text(4),
            ageMonths: columns[5].decode(Int.self), description: text(6), photoURL: columns[7].decode(String?.self),
            shelter: .init(name: text(8), city: text(9)), location: .init(lat: number(10), lon: number(11)),
            publishedAt: Date(timeIntervalSince1970: number(12)), distanceKm: distanceKm
        ).storedAnimal()
    }
}

/// The connection one operation of ``PostgresAnimalStore/withConnection(timeoutAfterLease:_:)`` holds,
/// whether its caller gave up on it, and whether it is being closed. One lock orders the work giving
/// the connection back and the closer taking it: a connection the pool got back open is never closed.
private final class Lease: Sendable {
    private struct State {
        var connection: PostgresConnection?
        var held = false
        var abandoned = false
        var closing = false
    }

    private let state = Mutex(State())

    /// The caller gives up unless the work got its connection; true when it gave up.
    func abandonUnlessHeld() -> Bool {
        state.withLock { state in
            guard !state.held else { return false }
            state.abandoned = true
            return true
        }
    }

    /// The work holds `connection` now; false when the caller has already given up.
    func hold(_ connection: PostgresConnection) -> Bool {
        state.withLock { state in
            guard !state.abandoned else { return false }
            state.held = true
            state.connection = connection
            return true
        }
    }

    /// The work is done with its connection; true when it is being closed, so that the work waits for
    /// the close before the pool takes it back.
    func release() -> Bool {
        state.withLock { state in
            state.connection = nil
            return state.closing
        }
    }

    /// The caller stops waiting; true when the work still holds a connection.
    func abandon() -> Bool {
        state.withLock { state in
            state.abandoned = true
            return state.connection != nil
        }
    }

    /// The connection to close, when the work still holds it.
    func takeForClosing() -> PostgresConnection? {
        state.withLock { state in
            guard let connection = state.connection, !state.closing else { return nil }
            state.closing = true
            return connection
        }
    }
}

// MARK: - Insert

extension PostgresAnimalStore {
    /// Rows sent per INSERT statement (as arrays, unpacked with `unnest`).
    private static let batchSize = 5_000
    /// Loads at least this large are followed by `ANALYZE`.
    private static let analyzeAfter = 10_000

    public func insert(_ animals: [Animal]) async throws {
        try await insert(streaming: animals, skippingExistingIDs: false)
    }

    /// Inserts a long sequence (for instance generated demo animals) in one transaction, in batches, without
    /// holding it all in memory. Same all-or-nothing rule as ``insert(_:)``.
    /// With `skippingExistingIDs`, animals whose id is already stored (or repeats) are left out.
    /// - Returns: how many animals were added.
    @discardableResult
    public func insert<Animals: Sequence & Sendable>(
        streaming animals: Animals, skippingExistingIDs: Bool = false
    ) async throws -> Int where Animals.Element == Animal {
        defer { positions?.noteOwnWrite() }
        let added = try await withConnection(timeoutAfterLease: false) { connection in
            try await Self.transaction(on: connection, logger: logger) {
                var added = 0
                var start = 0
                var batch: [Animal] = []
                batch.reserveCapacity(Self.batchSize)
                for animal in animals {
                    batch.append(animal)
                    if batch.count == Self.batchSize {
                        added += try await insertBatch(batch, startingAt: start, skippingExistingIDs: skippingExistingIDs, on: connection)
                        start += batch.count
                        batch.removeAll(keepingCapacity: true)
                    }
                }
                if !batch.isEmpty {
                    added += try await insertBatch(batch, startingAt: start, skippingExistingIDs: skippingExistingIDs, on: connection)
                }
                // The triggers have counted the rows, per cell too, moved the data version and logged the positions.
                try await pruneLog(on: connection)
                return added
            }
        }
        if added >= Self.analyzeAfter {
            // Fresh statistics right after a bulk load, so the planner picks the location index at once.
            try await withConnection(timeoutAfterLease: false) { connection in
                _ = try await connection.query("ANALYZE \(unescaped: table)", logger: logger)
            }
        }
        return added
    }

    private func insertBatch(
        _ batch: [Animal], startingAt start: Int, skippingExistingIDs: Bool, on connection: PostgresConnection
    ) async throws -> Int {
        for (offset, animal) in batch.enumerated() { try animal.validateForStoring(index: start + offset) }
        let ids = batch.map(\.id)
        if !skippingExistingIDs, let index = try await firstTakenID(ids, on: connection) {
            throw AnimalStoreError.duplicateID(index: start + index, id: ids[index])
        }
        let rows = Self.rows(of: batch)
        let query = PostgresQuery(unsafeSQL: """
            WITH added AS (
                INSERT INTO \(table) (\(Self.columns))
                \(rows.sql)
                \(skippingExistingIDs ? "ON CONFLICT (id) DO NOTHING" : "")
                RETURNING 1)
            SELECT count(*) FROM added
            """, binds: rows.binds)
        do {
            for try await added in try await connection.query(query, logger: logger).decode(Int.self) { return added }
            return 0
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            // Another writer stored one of these ids since the check above; the server names it.
            let detail = error.serverInfo?[.detail] ?? ""
            let index = ids.indices.first { detail.contains("=(\(ids[$0]))") } ?? 0
            throw AnimalStoreError.duplicateID(index: start + index, id: ids[index])
        }
    }

    /// Rewrites the table in the order of the location index, so that pets near each other share disk
    /// pages and a nearby query reads a few hundred pages instead of one per pet. A one-off step for an
    /// operator after a large import: it locks the table against reads while it runs, and later inserts
    /// are not kept in that order.
    public func clusterByLocation() async throws {
        try await withConnection(timeoutAfterLease: false) { connection in
            try await connection.query("CLUSTER \(unescaped: table) USING pet_location", logger: logger)
            try await connection.query("ANALYZE \(unescaped: table)", logger: logger)
        }
    }

    /// The first position in `ids` whose id is stored already or repeats an earlier one of `ids`.
    private func firstTakenID(_ ids: [String], on connection: PostgresConnection) async throws -> Int? {
        var seen = Set<String>()
        let repeated = ids.indices.first { !seen.insert(ids[$0]).inserted }
        var stored = Set<String>()
        for try await id in try await connection.query(
            "SELECT id FROM \(unescaped: table) WHERE id = ANY(\(ids))", logger: logger
        ).decode(String.self) {
            stored.insert(id)
        }
        let taken = ids.indices.first { stored.contains(ids[$0]) }
        return [repeated, taken].compactMap { $0 }.min()
    }
}

// MARK: - Nearby

extension PostgresAnimalStore {
    /// How far PostGIS's sphere distance (radius 6371008.7714 m) may stray from ``GreatCircle``'s
    /// haversine (radius 6371008.8 m): about 5e-9 of the distance plus rounding; the slack is far wider.
    private static let relativeSlack = 1e-6
    private static let absoluteSlackMeters = 0.001

    /// Nearest first within the radius, ties by id, with the count of all matches.
    ///
    /// 1. Count: the per-cell totals of the ``GeoCell``s wholly inside the circle
    ///    are added up; the pets of cells on its rim are checked one by one with the haversine.
    /// 2. Page: the index orders candidates with the KNN operator `<->`; enough of the nearest are read
    ///    to be sure that no unread one can rank within the page, then ranked by (haversine, id).
    private func nearby(on connection: PostgresConnection, center: GeoCoordinate, query: AnimalQuery) async throws -> AnimalPage {
        if !query.filter.keepsAll || query.ordering == .recent {
            return try await nearbyFilteredOrNewest(on: connection, center: center, query: query)
        }
        let radiusKm = query.radiusKm
        let outer = radiusKm * 1000 * (1 + Self.relativeSlack) + Self.absoluteSlackMeters
        func haversine(_ lat: Double, _ lon: Double) -> Double {
            GreatCircle.distanceKm(lat1: center.latitude, lon1: center.longitude, lat2: lat, lon2: lon)
        }

        let total = try await count(on: connection, center: center, radiusKm: radiusKm)
        guard query.offset < total, query.limit > 0 else { return AnimalPage(animals: [], totalCount: total) }
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
        return AnimalPage(animals: page, totalCount: total)
    }

    /// A nearby query counted and ranked by the replica's position index, in the caller's transaction:
    /// the database reads only the rows of the pets that can make the page, by their `seq`.
    private func nearby(
        on connection: PostgresConnection, center: GeoCoordinate, query: AnimalQuery, index: PositionIndex
    ) async throws -> AnimalPage {
        let nearest = Self.nearest(in: index, center: center, query: query)
        guard query.offset < nearest.totalCount else { return AnimalPage(animals: [], totalCount: nearest.totalCount) }
        if nearest.isSmall(for: query) {
            let (whole, _) = try await rows(nearest.leading.map(\.key), of: nearest, on: connection)
            return Self.page(nearest, query: query, rows: whole)
        }
        // Ids and times first, then the rows of the page alone.
        var positions: [Int64: (id: String, publishedAt: Double)] = [:]
        let keyed = try await connection.query(
            "SELECT seq, id, published_at FROM \(unescaped: table) WHERE seq = ANY(\(nearest.leading.map(\.key)))", logger: logger
        )
        for try await (seq, id, publishedAt) in keyed.decode((Int64, String, Double).self) {
            positions[seq] = (id, publishedAt)
        }
        let window = nearest.window(of: query, rows: positions)
        let (page, _) = try await rows(window.map(\.key), of: nearest, on: connection)
        return AnimalPage(animals: window.compactMap { page[$0.key]?.animal }, totalCount: nearest.totalCount)
    }

    /// The nearby page as `index` ranks it, its rows read in one statement with the version and the
    /// newest log id: nil when they are not the index's (the database moved on), or when the page
    /// needs two reads.
    private func nearby(
        inOneStatementWith index: PositionIndex, on connection: PostgresConnection, center: GeoCoordinate, query: AnimalQuery
    ) async throws -> AnimalSnapshot? {
        let nearest = Self.nearest(in: index, center: center, query: query)
        guard nearest.isSmall(for: query) else { return nil }
        let keys = query.offset < nearest.totalCount ? nearest.leading.map(\.key) : []
        let (whole, state) = try await rows(keys, of: nearest, on: connection)
        // This snapshot is newer than the index: an older version means the database went back.
        if state.version < index.version { positions?.forget(index) }
        guard state.version == index.version, state.lastLogID == index.lastChange else { return nil }
        return AnimalSnapshot(page: Self.page(nearest, query: query, rows: whole), dataVersion: index.version)
    }

    private static func nearest(in index: PositionIndex, center: GeoCoordinate, query: AnimalQuery) -> PositionIndex.Nearest {
        let (needed, overflow) = query.offset.addingReportingOverflow(query.limit)
        return index.nearest(
            center: center, radiusKm: query.radiusKm, mask: query.filter.traitMask, order: query.ordering,
            offset: query.offset, needed: overflow ? .max : needed
        )
    }

    /// The page out of the whole rows of every leading candidate.
    private static func page(
        _ nearest: PositionIndex.Nearest, query: AnimalQuery, rows: [Int64: (animal: Animal, publishedAt: Double)]
    ) -> AnimalPage {
        let window = nearest.window(of: query, rows: rows.mapValues { ($0.animal.id, $0.publishedAt) })
        return AnimalPage(animals: window.compactMap { rows[$0.key]?.animal }, totalCount: nearest.totalCount)
    }

    /// The rows of `keys` (with their distances and stored times) and the data version, in one statement.
    private func rows(
        _ keys: [Int64], of nearest: PositionIndex.Nearest, on connection: PostgresConnection
    ) async throws -> (rows: [Int64: (animal: Animal, publishedAt: Double)], state: (version: Int, lastLogID: Int64)) {
        let distances = Dictionary(uniqueKeysWithValues: nearest.leading.map { ($0.key, $0.distanceKm) })
        // The row's columns first (``animal(from:distanceKm:)`` reads them from the start); without a
        // match the left join still gives the version, beside nulls.
        let result = try await connection.query("""
            SELECT \(unescaped: Self.columns), seq, stats.version, (SELECT coalesce(max(id), 0) FROM \(unescaped: logTable))
            FROM \(unescaped: statsTable) AS stats LEFT JOIN \(unescaped: table) ON seq = ANY(\(keys))
            """, logger: logger)
        var rows: [Int64: (Animal, Double)] = [:]
        var state: (version: Int, lastLogID: Int64) = (0, 0)
        for try await row in result {
            let columns = row.makeRandomAccess()
            state = (try columns[14].decode(Int.self), try columns[15].decode(Int64.self))
            guard columns[13].bytes != nil else { continue }
            let seq = try columns[13].decode(Int64.self)
            rows[seq] = (try Self.animal(from: columns, distanceKm: distances[seq]), try columns[12].decode(Double.self))
        }
        return (rows, state)
    }

    /// A nearby query with a filter or newest first: every pet in the circle that the filter keeps is
    /// read (its id, position and time) and checked with the haversine, then counted and ranked here.
    /// Exact, but it costs the number of matches: the per-cell totals count only unfiltered pets.
    private func nearbyFilteredOrNewest(
        on connection: PostgresConnection, center: GeoCoordinate, query: AnimalQuery
    ) async throws -> AnimalPage {
        let outer = query.radiusKm * 1000 * (1 + Self.relativeSlack) + Self.absoluteSlackMeters
        let rows = try await connection.query("""
            SELECT id, lat, lon, published_at FROM \(unescaped: table)
            WHERE ST_DWithin(location, ST_SetSRID(ST_MakePoint(\(center.longitude), \(center.latitude)), 4326)::geography,
                             \(outer), false)
              AND \(unescaped: query.filter.sqlCondition ?? "TRUE")
            """, logger: logger)
        var matches: [(id: String, distanceKm: Double, publishedAt: Double)] = []
        for try await (id, lat, lon, publishedAt) in rows.decode((String, Double, Double, Double).self) {
            let distance = GreatCircle.distanceKm(lat1: center.latitude, lon1: center.longitude, lat2: lat, lon2: lon)
            if distance <= query.radiusKm { matches.append((id, distance, publishedAt)) }
        }
        if query.ordering == .recent {
            matches.sort { (-$0.publishedAt, $0.id) < (-$1.publishedAt, $1.id) }
        } else {
            matches.sort { ($0.distanceKm, $0.id) < ($1.distanceKm, $1.id) }
        }
        let (end, overflow) = query.offset.addingReportingOverflow(query.limit)
        let window = matches[min(query.offset, matches.count)..<(overflow ? matches.count : min(end, matches.count))]
        guard !window.isEmpty else { return AnimalPage(animals: [], totalCount: matches.count) }
        let page = try await connection.query(
            "SELECT \(unescaped: Self.columns) FROM \(unescaped: table) WHERE id = ANY(\(window.map(\.id)))", logger: logger
        )
        var animals: [String: Animal] = [:]
        for try await row in page {
            let animal = try Self.animal(from: row, distanceKm: nil)
            animals[animal.id] = animal
        }
        return AnimalPage(animals: window.compactMap { entry in
            guard var animal = animals[entry.id] else { return nil }
            animal.distanceKm = entry.distanceKm
            return animal
        }, totalCount: matches.count)
    }

    /// Exact number of pets within `radiusKm`: per-cell totals for cells wholly inside, the haversine for
    /// every pet of a cell on the rim.
    private func count(on connection: PostgresConnection, center: GeoCoordinate, radiusKm: Double) async throws -> Int {
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

// MARK: - Benchmark

extension AnimalStoreBenchmark {
    /// The same queries on PostgreSQL answered without the index: every row's coordinates are read and
    /// checked with the haversine, as ``fullScan(store:centers:radiusKm:)`` does on SQLite.
    public static func fullScan(store: PostgresAnimalStore, centers: [GeoCoordinate], radiusKm: Double = 50) async throws -> Summary {
        try await time(centers) { center in
            try await store.withConnection(timeoutAfterLease: false) { connection in
                var ranking = NearbyRanking<Int>(radiusKm: radiusKm)
                var index = 0
                let rows = try await connection.query("SELECT lat, lon FROM \(unescaped: store.table)", logger: store.logger)
                for try await (lat, lon) in rows.decode((Double, Double).self) {
                    ranking.consider(key: index, distanceKm: GreatCircle.distanceKm(
                        lat1: center.latitude, lon1: center.longitude, lat2: lat, lon2: lon))
                    index += 1
                }
                _ = ranking.leading(20)
                return ranking.matches.count
            }
        }
    }
}
