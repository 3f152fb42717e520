import Logging
import PetSpotDomain

/// A ``PetStore`` the command-line tool opens, fills in bulk and closes.
public protocol ManagedPetStore: PetStore {
    /// Inserts a long sequence in one transaction; see ``SQLitePetStore/insert(streaming:skippingExistingIDs:)``.
    @discardableResult
    func insert<Animals: Sequence & Sendable>(
        streaming animals: Animals, skippingExistingIDs: Bool
    ) async throws -> Int where Animals.Element == Animal

    /// Releases connections and background work; the store answers nothing afterwards.
    func shutdown() async
}

extension SQLitePetStore: ManagedPetStore {
    /// Nothing to do: the database file closes when the last copy of the store goes away.
    public func shutdown() async {}
}

extension PostgresPetStore: ManagedPetStore {}

/// Which store a `--database` value names: a `postgres://` (or `postgresql://`) URL selects
/// ``PostgresPetStore``; anything else is the path of an SQLite file.
public enum PetStoreLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresPetStore.Configuration)

    /// - Throws: ``PostgresPetStoreError/invalidURL(_:reason:)`` for a malformed PostgreSQL URL.
    public init(_ database: String) throws(PostgresPetStoreError) {
        let lowered = database.lowercased()
        if lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") {
            self = .postgres(try PostgresPetStore.Configuration(url: database))
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

    /// Opens (creating and migrating if needed) the store.
    public func open(logger: Logger = Logger(label: "PetServer")) async throws -> any ManagedPetStore {
        switch self {
        case .sqlite(let path): try SQLitePetStore(path: path)
        case .postgres(let configuration): try await PostgresPetStore.open(configuration, logger: logger)
        }
    }
}

/// The store named by `configuration.databasePath` (a file or a `postgres://` URL), with
/// `demoPetsWhenEmpty` demo animals added when it was empty.
public func openSeededPetStore(configuration: PetServerConfiguration) async throws -> any ManagedPetStore {
    let location = try PetStoreLocation(configuration.databasePath)
    guard case .postgres = location else { return try await openSeededStore(configuration: configuration) }
    var logger = Logger(label: "PetServer")
    logger.logLevel = configuration.logLevel
    let store = try await location.open(logger: logger)
    do {
        if configuration.demoPetsWhenEmpty > 0, try await store.count() == 0 {
            let added = try await store.insert(
                streaming: DemoPetGenerator().sequence(count: configuration.demoPetsWhenEmpty), skippingExistingIDs: true
            )
            logger.info("seeded demo pets", metadata: ["count": "\(added)"])
        }
    } catch {
        await store.shutdown()
        throw error
    }
    return store
}
