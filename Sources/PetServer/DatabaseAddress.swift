import Logging
import PetSpotDomain

/// A ``AnimalStore`` that the command-line tool also fills in bulk.
public protocol BulkLoadingAnimalStore: AnimalStore {
    /// Inserts a long sequence in one transaction; see ``SQLiteAnimalStore/insert(streaming:skippingExistingIDs:)``.
    @discardableResult
    func insert<Animals: Sequence & Sendable>(
        streaming animals: Animals, skippingExistingIDs: Bool
    ) async throws -> Int where Animals.Element == Animal
}

extension BulkLoadingAnimalStore {
    /// Adds `count` demo pets when the store holds none; returns how many were added.
    func addDemoPetsIfEmpty(count: Int) async throws -> Int {
        guard count > 0, try await self.count() == 0 else { return 0 }
        return try await insert(streaming: DemoPetGenerator().sequence(count: count), skippingExistingIDs: true)
    }
}

extension SQLiteAnimalStore: BulkLoadingAnimalStore {}
extension PostgresAnimalStore: BulkLoadingAnimalStore {}

/// Which database a `--database` value names: a `postgres://` (or `postgresql://`) URL selects
/// ``PostgresAnimalStore``; anything else is the path of an SQLite file.
public enum DatabaseAddress: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresAnimalStore.Configuration)

    /// - Throws: ``PostgresAnimalStoreError/invalidURL(_:reason:)`` for a malformed PostgreSQL URL.
    public init(_ database: String) throws(PostgresAnimalStoreError) {
        let lowered = database.lowercased()
        if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") {
            self = .postgres(try PostgresAnimalStore.Configuration(url: database))
        } else {
            self = .sqlite(path: database)
        }
    }

    /// The file path, or the URL without its password.
    public var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let configuration): configuration.displayURL
        }
    }

    /// Opens the store to write into it (creating and migrating it if needed; a read-only PostgreSQL
    /// database, a standby, is refused with ``PostgresAnimalStoreError/readOnly(url:)``), runs `body`
    /// with it, and closes it on every way out of `body`, a thrown error included.
    public func withStore<Result: Sendable>(
        logger: Logger = PetServerConfiguration.logger(),
        _ body: (any BulkLoadingAnimalStore & PlaceStore) async throws -> Result
    ) async throws -> Result {
        switch self {
        case .sqlite(let path):
            // The file closes when the last reference to the store goes, at the end of this scope.
            return try await body(try SQLiteAnimalStore(path: path))
        case .postgres(var configuration):
            configuration.forWriting = true
            return try await PostgresAnimalStore.withStore(configuration, logger: logger) { try await body($0) }
        }
    }
}
