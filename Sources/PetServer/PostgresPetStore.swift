import Foundation
import Logging
import PetAPI
import PetSpotDomain
import PostgresNIO

/// The ``PetStore`` for deployments that outgrow one machine: PostgreSQL with PostGIS through a pool of
/// postgres-nio connections, so any number of stateless API replicas can share one database.
///
/// Locations live in a `geography(Point, 4326)` column with a GiST index. A nearby page lets the index
/// find candidates (`ST_DWithin`, a hair wider than the radius) and order them (the KNN operator `<->`,
/// PostGIS's sphere distance); the count adds up per-cell totals (``GeoCell``) as SQLite's does. The
/// exact radius test, the distances reported and the order of ties use the same haversine
/// (``GreatCircle``) as ``SQLitePetStore``, so both stores give identical answers.
///
/// Use it inside ``withStore(_:logger:_:)``, or build it with ``init(migrating:logger:)`` and run its
/// ``client`` as a service (``buildApplication(configuration:onServerRunning:)`` does): the pool serves
/// queries only while its client runs.
public struct PostgresPetStore: PetStore {
    public let configuration: Configuration
    /// The connection pool; a swift-service-lifecycle `Service` that must run while the store is used.
    public let client: PostgresClient
    let logger: Logger

    /// The schema-qualified table of pets.
    var table: String { "\"\(configuration.schema)\".pet" }
    /// The schema-qualified table of pets per ``GeoCell``.
    var cellTable: String { "\"\(configuration.schema)\".pet_cell" }

    static let columns =
        "id, name, species, breed, sex, age_months, description, photo_url, shelter_name, shelter_city, lat, lon, published_at"

    /// Connects once to check the server and PostGIS, creates or upgrades the table, and prepares the pool
    /// (which connects once its ``client`` runs).
    /// - Throws: ``PostgresPetStoreError`` saying whether the server is unreachable, refused the session,
    ///   lacks PostGIS, or the migration failed.
    public init(migrating configuration: Configuration, logger: Logger = PetServerConfiguration.logger()) async throws {
        var quiet = logger
        // postgres-nio logs query bindings (which may be someone's coordinates) below this level.
        quiet.logLevel = max(logger.logLevel, .notice)
        try await PostgresMigration.run(configuration, logger: quiet)
        self.configuration = configuration
        self.client = PostgresClient(configuration: configuration.clientConfiguration, backgroundLogger: quiet)
        self.logger = quiet
    }

    /// Opens the store (see ``init(migrating:logger:)``), runs its pool beside `body`, and closes the
    /// pool on every way out of `body`, a thrown error included.
    public static func withStore<Result: Sendable>(
        _ configuration: Configuration,
        logger: Logger = PetServerConfiguration.logger(),
        _ body: (PostgresPetStore) async throws -> Result
    ) async throws -> Result {
        let store = try await PostgresPetStore(migrating: configuration, logger: logger)
        return try await withThrowingTaskGroup(of: Void.self, returning: Result.self) { group in
            group.addTask { await store.client.run() }
            defer { group.cancelAll() }
            return try await body(store)
        }
    }

    public func count() async throws -> Int {
        try await withConnection { connection in
            let rows = try await connection.query("SELECT count(*) FROM \(unescaped: table)", logger: logger)
            for try await total in rows.decode(Int.self) { return total }
            return 0
        }
    }

    public func animal(id: String) async throws -> Animal? {
        try await withConnection { connection in
            let rows = try await connection.query(
                "SELECT \(unescaped: Self.columns) FROM \(unescaped: table) WHERE id = \(id)", logger: logger
            )
            for try await row in rows { return try Self.animal(from: row, distanceKm: nil) }
            return nil
        }
    }

    public func animals(matching query: PetQuery) async throws -> PetPage {
        try await withConnection { connection in
            // One snapshot for the count and the page, as SQLite's read transaction gives.
            try await Self.transaction(on: connection, begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger) {
                if let center = query.center {
                    try await nearby(on: connection, center: center, query: query)
                } else {
                    try await newest(on: connection, query: query)
                }
            }
        }
    }

    private func newest(on connection: PostgresConnection, query: PetQuery) async throws -> PetPage {
        var total = 0
        for try await count in try await connection.query("SELECT count(*) FROM \(unescaped: table)", logger: logger).decode(Int.self) {
            total = count
        }
        guard query.offset < total else { return PetPage(animals: [], totalCount: total) }
        let rows = try await connection.query("""
            SELECT \(unescaped: Self.columns) FROM \(unescaped: table)
            ORDER BY published_at DESC, id LIMIT \(query.limit) OFFSET \(query.offset)
            """, logger: logger)
        var animals: [Animal] = []
        for try await row in rows { animals.append(try Self.animal(from: row, distanceKm: nil)) }
        return PetPage(animals: animals, totalCount: total)
    }

    /// Runs `body` on a pooled connection. Fails with ``PostgresPetStoreError/timedOut(url:after:)`` when
    /// it takes longer than the operation timeout, or with `timeoutAfterLease: false` (bulk loads) only
    /// when no connection could be had in time: postgres-nio's pool would wait for the server forever.
    /// Statements are bounded by the server's `statement_timeout` either way.
    func withConnection<Result: Sendable>(
        timeoutAfterLease: Bool = true,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let timeout = configuration.operationTimeout
        let url = configuration.displayURL
        let lease = LeaseSignal()
        return try await withThrowingTaskGroup(of: Result?.self) { group in
            group.addTask { [client] in
                try await client.withConnection { connection in
                    await lease.markLeased()
                    return try await body(connection)
                }
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                let leased = await lease.isLeased
                if timeoutAfterLease || !leased {
                    throw PostgresPetStoreError.timedOut(url: url, after: timeout)
                }
                return nil
            }
            defer { group.cancelAll() }
            while let next = try await group.next() {
                if let result = next { return result }
            }
            throw CancellationError()
        }
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
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }

    /// Reads an animal from a row of ``columns`` (in that order).
    static func animal(from row: PostgresRow, distanceKm: Double?) throws -> Animal {
        let (id, name, species, breed, sex, ageMonths, description, photo, shelterName, shelterCity, lat, lon, published) =
            try row.decode((String, String, String, String, String, Int, String, String?, String, String, Double, Double, Double).self)
        return try AnimalDTO(
            id: id, name: name, species: species, breed: breed, sex: sex, ageMonths: ageMonths,
            description: description, photoURL: photo,
            shelter: .init(name: shelterName, city: shelterCity), location: .init(lat: lat, lon: lon),
            publishedAt: Date(timeIntervalSince1970: published), distanceKm: distanceKm
        ).storedAnimal()
    }
}

/// Whether an operation has got its connection yet.
private actor LeaseSignal {
    private(set) var isLeased = false

    func markLeased() {
        isLeased = true
    }
}
