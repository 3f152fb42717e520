import AsyncSupport
import Foundation
import Logging
import PetAPI
import PetSpotDomain
import PostgresNIO
import Synchronization

/// The ``AnimalStore`` for deployments that outgrow one machine: PostgreSQL with PostGIS through a pool of
/// postgres-nio connections, so any number of stateless API replicas can share one database, or read
/// from its streaming standbys (`docs/scaling.md`).
///
/// Locations live in a `geography(Point, 4326)` column with a GiST index; PostGIS answers a nearby page
/// itself: `ST_DWithin` on the sphere for the radius, the KNN operator `<->` (the sphere distance) for
/// the order, in one statement with the capped count and the data version (see
/// ``nearby(on:center:query:)``).
///
/// Use it inside ``withStore(_:logger:_:)``; the server (``buildApplication(configuration:onServerRunning:)``)
/// runs its pool as one of the application's services. The pool serves queries only while it runs.
public struct PostgresAnimalStore: AnimalStore {
    public let configuration: Configuration
    /// The connection pool; a swift-service-lifecycle `Service` that must run while the store is used.
    let client: PostgresClient
    let logger: Logger
    /// Whether the database refused writes when the store opened: a hot standby (or a read-only
    /// database), which this store reads but never migrates or seeds.
    public let isReadOnly: Bool

    /// The schema-qualified table of pets.
    var table: String { "\"\(configuration.schema)\".pet" }
    /// The schema-qualified one-row table of the pet count and data version.
    private var statsTable: String { "\"\(configuration.schema)\".pet_stats" }
    /// The schema-qualified table of pets that left the listings, and why.
    private var goneTable: String { "\"\(configuration.schema)\".pet_gone" }

    static let columns =
        "id, name, species, breed, sex, age_months, description, photo_url, shelter_name, shelter_city, lat, lon, published_at"

    /// Connects once to check the server and PostGIS, creates or upgrades the table (on a standby:
    /// waits until the primary has), and prepares the pool (which connects once its ``client`` runs).
    /// - Throws: ``PostgresAnimalStoreError`` saying whether the server is unreachable, refused the session,
    ///   lacks PostGIS, or the migration failed.
    init(migrating configuration: Configuration, logger: Logger = PetServerConfiguration.logger()) async throws {
        var quiet = logger
        // postgres-nio logs query bindings (which may be someone's coordinates) below this level.
        quiet.logLevel = max(logger.logLevel, .notice)
        isReadOnly = try await PostgresMigration.run(configuration, logger: quiet, progress: logger)
        self.configuration = configuration
        self.client = PostgresClient(configuration: configuration.clientConfiguration, backgroundLogger: quiet)
        self.logger = quiet
    }

    /// Opens the store (see ``init(migrating:logger:)``), runs its pool beside `body`, and closes the
    /// pool on every way out of `body`, a thrown error included.
    public static func withStore<Result: Sendable>(
        _ configuration: Configuration,
        logger: Logger = PetServerConfiguration.logger(),
        _ body: (PostgresAnimalStore) async throws -> Result
    ) async throws -> Result {
        let store = try await PostgresAnimalStore(migrating: configuration, logger: logger)
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
                try validateWithdrawnID(id, index: index)
                withdrawn.append((id, why))
            }
        }
        return try await withConnection(bounded: false) { [listed, withdrawn] connection in
            try await Self.transaction(on: connection, logger: logger) {
                // An import as long as its feed: not bounded by the statement timeout meant for requests.
                try await connection.query("SET LOCAL statement_timeout = 0", logger: logger)
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
                return summary
            }
        }
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
        // One statement each: one snapshot (the version, the count and the page agree) and one round trip.
        try await withConnection { connection in
            if let center = query.center { return try await nearby(on: connection, center: center, query: query) }
            return try await newest(on: connection, query: query)
        }
    }

    /// `SELECT count(*)` of the rows `from` gives, counting no further than one past the cap: the
    /// caller reads a count above the cap as "more than the cap".
    private func capped(_ from: String) -> String {
        "(SELECT count(*) FROM (SELECT 1 FROM \(from) LIMIT \(configuration.countCap + 1)) AS counted)"
    }

    /// The count as a page reports it: the cap, not exact, when the capped count went past it.
    private func reported(_ counted: Int, exact: Bool = false) -> (Int, Bool) {
        exact || counted <= configuration.countCap ? (counted, true) : (configuration.countCap, false)
    }

    /// The listing without coordinates, in one statement: the version, the count and the page. A
    /// filter is checked row by row along the newest-first index and counted up to the cap.
    private func newest(on connection: PostgresConnection, query: AnimalQuery) async throws -> AnimalSnapshot {
        let condition = query.filter.sqlCondition ?? "TRUE"
        // Text of ours only (column names, enum values, numbers): nothing from the request.
        let total = query.filter.keepsAll ? "stats.pets" : capped("\(table) WHERE \(condition)")
        // The page's columns first (``animal(from:distanceKm:)`` reads them from the start), then the
        // version and the count: a page without rows still gives one row, of nulls and those two. One
        // row more than the page, to know whether another follows. After a cursor the index is entered
        // at its time: rows of that time up to its id are skipped, never counted past.
        let rows: PostgresRowSequence
        if let cursor = query.cursor {
            rows = try await connection.query("""
                SELECT page.*, stats.version, \(unescaped: total) FROM \(unescaped: statsTable) AS stats LEFT JOIN LATERAL (
                    SELECT \(unescaped: Self.columns) FROM \(unescaped: table)
                    WHERE published_at <= \(cursor.publishedAt) AND NOT (published_at = \(cursor.publishedAt) AND id <= \(cursor.id))
                      AND \(unescaped: condition)
                    ORDER BY published_at DESC, id LIMIT \(query.limit + 1)) AS page ON true
                ORDER BY page.published_at DESC, page.id
                """, logger: logger)
        } else {
            rows = try await connection.query("""
                SELECT page.*, stats.version, \(unescaped: total) FROM \(unescaped: statsTable) AS stats LEFT JOIN LATERAL (
                    SELECT \(unescaped: Self.columns) FROM \(unescaped: table) WHERE \(unescaped: condition)
                    ORDER BY published_at DESC, id LIMIT \(query.limit + 1) OFFSET \(query.offset)) AS page ON true
                ORDER BY page.published_at DESC, page.id
                """, logger: logger)
        }
        var animals: [Animal] = []
        var lastPosition: AnimalCursor?
        var hasMore = false
        var version = 0
        var counted = 0
        for try await row in rows {
            let columns = row.makeRandomAccess()
            version = try columns[13].decode(Int.self)
            counted = try columns[14].decode(Int.self)
            guard columns[0].bytes != nil else { continue }  // no page row
            if animals.count == query.limit {
                hasMore = true
                continue
            }
            animals.append(try Self.animal(from: columns, distanceKm: nil))
            // Where the next page would start: the stored time exactly, not one that went through Date.
            lastPosition = AnimalCursor(publishedAt: try columns[12].decode(Double.self), id: try columns[0].decode(String.self))
        }
        let (totalCount, exact) = reported(counted, exact: query.filter.keepsAll)
        let page = AnimalPage(animals: animals, totalCount: totalCount, totalCountIsExact: exact, nextCursor: hasMore ? lastPosition : nil)
        return AnimalSnapshot(page: page, dataVersion: version)
    }

    /// Runs `body` on a pooled connection, and fails with ``PostgresAnimalStoreError/timedOut(url:after:)``
    /// when it takes longer than the operation timeout; with `bounded: false` (bulk loads) only when no
    /// connection could be had in time (postgres-nio's pool would wait for the server forever). Ends
    /// when the calling task is cancelled.
    ///
    /// Its timing is structured: the deadline, the grace period and the caller's wait are one task
    /// group, and a result the work returns before the caller gives up is the truth. A statement is
    /// ended by the server's `statement_timeout`, the operation timeout
    /// (``Configuration/startupParameters``); one still running a grace period later, or when the
    /// caller is cancelled (a server shutting down), has its connection closed. Bulk loads lift the
    /// statement timeout in their own transaction and are never cut.
    ///
    /// The trap, and the one task not structured: postgres-nio neither stops waiting for a query's
    /// answer nor sends PostgreSQL a cancel request when its task is cancelled, and a query sent on a
    /// connection that has just closed is never answered (vapor/postgres-nio#274). Awaited in a task
    /// group, such a query held its request for ever and the server's shutdown past its limit (the
    /// PostgreSQL and standby restarts of `scripts/faults.sh`). So the postgres-nio call runs in a task
    /// of its own, which the caller stops awaiting once the connection under it is closed; it ends when
    /// postgres-nio lets it, holding no open connection.
    func withConnection<Result: Sendable>(
        bounded: Bool = true,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let timeout = configuration.operationTimeout
        let grace = configuration.abandonedStatementGrace ?? .seconds(2)
        let url = configuration.displayURL
        let timedOut = PostgresAnimalStoreError.timedOut(url: url, after: timeout)
        let held = HeldConnection()
        let outcome = Waiters<Swift.Result<Result, any Error>>()
        let ticket = outcome.join()
        let work = Task { [client] in
            do {
                let result = try await client.withConnection { connection in
                    // A caller that gave up before a connection was free gets nothing done late.
                    guard held.hold(connection) else { throw CancellationError() }
                    if !bounded {
                        // A bulk load is never cut, so a statement postgres-nio never answers (sent
                        // after the server closed the connection, between two of its statements)
                        // must not hold it: a second after the close, it fails.
                        connection.closeFuture.whenComplete { _ in
                            connection.eventLoop.scheduleTask(in: .seconds(1)) {
                                outcome.resume(ticket, returning: .failure(PostgresAnimalStoreError.unreachable(
                                    url: url, reason: "the connection closed during a bulk load"
                                )))
                            }
                        }
                    }
                    let result: Swift.Result<Result, any Error>
                    do { result = .success(try await body(connection)) } catch { result = .failure(error) }
                    // Being closed: given back to the pool only once closed, so the pool learns of it first.
                    if held.release() { _ = try? await connection.closeFuture.get() }
                    return try result.get()
                }
                outcome.resume(ticket, returning: .success(result))
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "57014" {
                // The server's statement_timeout ended it: the same timeout, said the same way.
                outcome.resume(ticket, returning: .failure(timedOut))
            } catch {
                outcome.resume(ticket, returning: .failure(error))
            }
        }
        let result = await withTaskGroup(of: Swift.Result<Result, any Error>?.self) { group in
            group.addTask { await outcome.wait(ticket, cancelled: .failure(CancellationError())) }
            group.addTask {
                guard (try? await Task.sleep(for: timeout)) != nil else { return nil }
                if held.abandonUnlessHeld() {
                    // Still waiting for a connection: the wait ends.
                    outcome.resume(ticket, returning: .failure(timedOut))
                } else if bounded {
                    // A statement past its deadline: the server's timeout ends it, or, a grace period
                    // later, the close of its connection does.
                    guard (try? await Task.sleep(for: grace)) != nil else { return nil }
                    held.close()
                    // The close fails the statement and gives the connection back (closed) to the
                    // pool, which then serves the next lease; a statement postgres-nio never answers
                    // is given up on a second later.
                    guard (try? await Task.sleep(for: .seconds(1))) != nil else { return nil }
                    outcome.resume(ticket, returning: .failure(timedOut))
                }
                return nil
            }
            defer { group.cancelAll() }
            while let next = await group.next() {
                if let next { return next }
            }
            return .failure(CancellationError())
        }
        if case .failure = result {
            // Given up on (the deadline, or the caller cancelled): nothing more is done for it.
            let closedByUs = held.close()
            work.cancel()
            // A statement failed by the close of its connection at its deadline: the timeout.
            if closedByUs, !Task.isCancelled { throw timedOut }
        }
        return try result.get()
    }

    /// The connection one ``withConnection(bounded:_:)`` holds, whether its caller gave up before it
    /// had one, and whether it is being closed. One lock orders the work giving the connection back
    /// and the closer taking it: a connection the pool got back open is never closed.
    private final class HeldConnection: Sendable {
        private struct State {
            var connection: PostgresConnection?
            var leased = false
            var abandoned = false
            var closing = false
        }

        private let state = Mutex(State())

        /// The work holds `connection` now; false when its caller has already given up.
        func hold(_ connection: PostgresConnection) -> Bool {
            state.withLock { state in
                guard !state.abandoned else { return false }
                state.connection = connection
                state.leased = true
                return true
            }
        }

        /// The caller gives up unless the work got its connection; true when it gave up.
        func abandonUnlessHeld() -> Bool {
            state.withLock { state in
                guard !state.leased else { return false }
                state.abandoned = true
                return true
            }
        }

        /// The work is done with its connection; true when it is being closed.
        func release() -> Bool {
            state.withLock { state in
                state.connection = nil
                return state.closing
            }
        }

        /// Closes the connection, when the work still holds it; afterwards no late work starts.
        /// - Returns: whether the connection was closed by this holder, now or earlier.
        @discardableResult
        func close() -> Bool {
            let (connection, closed) = state.withLock { state -> (PostgresConnection?, Bool) in
                state.abandoned = true
                guard let connection = state.connection, !state.closing else { return (nil, state.closing) }
                state.closing = true
                return (connection, true)
            }
            connection?.close().whenComplete { _ in }
            return closed
        }
    }

    /// Runs `body` between `begin` and `COMMIT`, rolling back when it throws; rethrows `body`'s own error.
    static func transaction<Result>(
        on connection: PostgresConnection,
        begin: String = "BEGIN",
        logger: Logger,
        _ body: () async throws -> Result
    ) async throws -> Result {
        try Task.checkCancellation()
        try await connection.query(PostgresQuery(unsafeSQL: begin), logger: logger)
        do {
            let result = try await body()
            // A caller gone at its deadline: nothing more is sent but the rollback.
            try Task.checkCancellation()
            try await connection.query("COMMIT", logger: logger)
            return result
        } catch {
            // Only on a session that is still there: after an error of the connection (the server
            // went away, or it is closing) postgres-nio may never answer another statement, and
            // the task would wait for ever; the server rolls the transaction back with the session.
            let psql = error as? PSQLError
            let fatal = ["FATAL", "PANIC"].contains(psql?.serverInfo?[.severity] ?? "")
            let lost: [PSQLError.Code] = [.connectionError, .serverClosedConnection, .uncleanShutdown, .clientClosedConnection]
            let connectionFailed = psql.map { lost.contains($0.code) || fatal } ?? false
            if !connectionFailed, !connection.isClosed { _ = try? await connection.query("ROLLBACK", logger: logger) }
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
        let added = try await withConnection(bounded: false) { connection in
            try await Self.transaction(on: connection, logger: logger) {
                // A load as long as its pets: not bounded by the statement timeout meant for requests.
                try await connection.query("SET LOCAL statement_timeout = 0", logger: logger)
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
                // The triggers have counted the rows and moved the data version.
                return added
            }
        }
        if added >= Self.analyzeAfter {
            // Fresh statistics right after a bulk load, so the planner picks the location index at once.
            try await withConnection(bounded: false) { connection in
                try await Self.transaction(on: connection, logger: logger) {
                    try await connection.query("SET LOCAL statement_timeout = 0", logger: logger)
                    try await connection.query("ANALYZE \(unescaped: table)", logger: logger)
                }
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
            let detail = Array((error.serverInfo?[.detail] ?? "").utf8)
            let index = ids.indices.first { detail == Array("Key (id)=(\(ids[$0])) already exists.".utf8) } ?? 0
            throw AnimalStoreError.duplicateID(index: start + index, id: ids[index])
        }
    }

    /// Rewrites the table in the order of the location index, so that pets near each other share disk
    /// pages and a nearby query reads a few hundred pages instead of one per pet. A one-off step for an
    /// operator after a large import: it locks the table against reads while it runs, and later inserts
    /// are not kept in that order.
    public func clusterByLocation() async throws {
        try await withConnection(bounded: false) { connection in
            try await Self.transaction(on: connection, logger: logger) {
                try await connection.query("SET LOCAL statement_timeout = 0", logger: logger)
                try await connection.query("CLUSTER \(unescaped: table) USING pet_location", logger: logger)
                try await connection.query("ANALYZE \(unescaped: table)", logger: logger)
            }
        }
    }

    /// The first position in `ids` whose id is stored already or repeats an earlier one of `ids`,
    /// compared as bytes (a `Set<String>` would take `é` and `e` + U+0301 for one id).
    private func firstTakenID(_ ids: [String], on connection: PostgresConnection) async throws -> Int? {
        var seen = Set<[UInt8]>()
        let repeated = ids.indices.first { !seen.insert(Array(ids[$0].utf8)).inserted }
        var stored = Set<[UInt8]>()
        for try await id in try await connection.query(
            "SELECT id FROM \(unescaped: table) WHERE id = ANY(\(ids))", logger: logger
        ).decode(String.self) {
            stored.insert(Array(id.utf8))
        }
        let taken = ids.indices.first { stored.contains(Array(ids[$0].utf8)) }
        return [repeated, taken].compactMap { $0 }.min()
    }
}

// MARK: - Nearby

extension PostgresAnimalStore {
    /// A nearby page, its capped count and the data version, in one statement.
    ///
    /// Nearest first, the order is PostGIS's KNN: the GiST index hands out rows by `<->` (the sphere
    /// distance) and the scan stops after the page. PostgreSQL cannot add the tie-break by id to that
    /// order (it sorts every match instead), so the statement first finds the distance of the page's
    /// last pet (`edge`, `OFFSET needed - 1` along the index), then reads every pet no farther than
    /// that, a page and its ties, ordered by (distance, id). Newest first, every pet in the circle is
    /// sorted by time: no index orders both.
    ///
    /// The trap: near a pole PostGIS's KNN is not to be trusted — its boxes' distance bound is not a
    /// bound there, and it may fail with "index returned tuples in wrong order" or, where no row
    /// shows it, hand rows out of order. A circle within ``polarMarginDegrees`` of a pole is ordered
    /// by computed distances (few pets live there, so the sort is small); elsewhere the error, if it
    /// ever comes, reruns the statement so.
    private func nearby(on connection: PostgresConnection, center: GeoCoordinate, query: AnimalQuery) async throws -> AnimalSnapshot {
        let reachesPole = abs(center.latitude) + query.radiusKm / Self.kilometresPerDegree >= 90 - Self.polarMarginDegrees
        do {
            return try await nearby(on: connection, center: center, query: query, indexOrder: !reachesPole)
        } catch let error as PSQLError where error.serverInfo?[.message]?.contains("index returned tuples in wrong order") == true {
            return try await nearby(on: connection, center: center, query: query, indexOrder: false)
        }
    }

    private func nearby(
        on connection: PostgresConnection, center: GeoCoordinate, query: AnimalQuery, indexOrder: Bool
    ) async throws -> AnimalSnapshot {
        let rows = try await connection.query(nearbyQuery(center: center, query: query, indexOrder: indexOrder), logger: logger)
        var animals: [Animal] = []
        var version = 0
        var counted = 0
        for try await row in rows {
            let columns = row.makeRandomAccess()
            version = try columns[14].decode(Int.self)
            counted = try columns[15].decode(Int.self)
            guard columns[0].bytes != nil else { continue }  // no page row
            animals.append(try Self.animal(from: columns, distanceKm: try columns[13].decode(Double.self) / 1000))
        }
        let (totalCount, exact) = reported(counted)
        return AnimalSnapshot(page: AnimalPage(animals: animals, totalCount: totalCount, totalCountIsExact: exact), dataVersion: version)
    }

    /// How near a pole (in degrees of latitude) a circle must come for its order to be computed.
    static let polarMarginDegrees = 1.0
    /// A degree of latitude, rounded down: a circle's reach in latitude is never underestimated.
    static let kilometresPerDegree = 111.0

    /// The statement ``snapshot(matching:)`` sends for a nearby `query`, its binds written as
    /// literals (for `petspot bench engine`'s pgbench scripts); nil without coordinates.
    public func statementText(for query: AnimalQuery) -> String? {
        guard let center = query.center else { return nil }
        // Only three binds: `$1` never begins `$10`.
        return nearbyQuery(center: center, query: query).sql
            .replacingOccurrences(of: "$1", with: "\(GreatCircle.canonicalLongitude(latitude: center.latitude, longitude: center.longitude))::float8")
            .replacingOccurrences(of: "$2", with: "\(center.latitude)::float8")
            .replacingOccurrences(of: "$3", with: "\(query.radiusKm * 1000)::float8")
    }

    /// The one statement of a nearby query: the page's columns and its distance in metres, the data
    /// version and the capped count (a page without rows still gives one row, of nulls and those two).
    func nearbyQuery(center: GeoCoordinate, query: AnimalQuery, indexOrder: Bool = true) -> PostgresQuery {
        // Only numbers and text of ours go into the SQL text: the point and the radius are binds.
        let point = "ST_SetSRID(ST_MakePoint($1, $2), 4326)::geography"
        let radius = "$3"
        let condition = query.filter.sqlCondition ?? "TRUE"
        let inCircle = "ST_DWithin(location, \(point), \(radius), false) AND \(condition)"
        let distance = indexOrder ? "location <-> \(point)" : "(location <-> \(point)) + 0"
        // Pages end at the cap, as the count does: a deeper one would sort every pet in the circle.
        let beyondCap = query.offset >= configuration.countCap
        let needed = beyondCap ? 1 : query.offset + query.limit  // at most the cap and a page: no overflow
        let pageSQL: String
        if beyondCap {
            pageSQL = "SELECT \(Self.columns), 0::float8 AS d FROM \(table) WHERE false"
        } else if query.ordering == .recent {
            pageSQL = """
                SELECT \(Self.columns), \(distance) AS d FROM \(table) WHERE \(inCircle)
                ORDER BY published_at DESC, id LIMIT \(query.limit) OFFSET \(query.offset)
                """
        } else {
            // The edge's distance, widened by a millionth for the index's search: the exact test is `<->`.
            pageSQL = """
                SELECT \(Self.columns), \(distance) AS d FROM \(table)
                WHERE ST_DWithin(location, \(point), least(\(radius), coalesce((SELECT d FROM edge) * 1.000001 + 0.001, \(radius))), false)
                  AND \(inCircle) AND \(distance) <= coalesce((SELECT d FROM edge), 'Infinity')
                ORDER BY d, id LIMIT \(query.limit) OFFSET \(query.offset)
                """
        }
        let edge = beyondCap || query.ordering == .recent ? "SELECT NULL::float8 AS d WHERE false" : """
            SELECT \(distance) AS d FROM \(table) WHERE \(inCircle) ORDER BY \(distance) OFFSET \(needed - 1) LIMIT 1
            """
        let order = query.ordering == .recent ? "page.published_at DESC, page.id" : "page.d, page.id"
        var binds = PostgresBindings()
        // As GreatCircle measures: one spelling of a point, so that pets at it tie exactly.
        binds.append(GreatCircle.canonicalLongitude(latitude: center.latitude, longitude: center.longitude))
        binds.append(center.latitude)
        binds.append(query.radiusKm * 1000)
        return PostgresQuery(unsafeSQL: """
            WITH edge AS (\(edge))
            SELECT page.*, stats.version, \(capped("\(table) WHERE \(inCircle)"))
            FROM \(statsTable) AS stats LEFT JOIN LATERAL (\(pageSQL)) AS page ON true
            ORDER BY \(order)
            """, binds: binds)
    }
}
