import Hummingbird
import Logging
import NIOCore
import PetSpotDomain

/// Opens (migrating) the SQLite database of `configuration`, seeds demo animals into it when empty, and
/// builds the application.
public func buildApplication(configuration: PetServerConfiguration) async throws -> some ApplicationProtocol {
    let store = try await openSeededStore(configuration: configuration)
    return buildApplication(configuration: configuration, store: store)
}

/// Builds the application over any store. `onServerRunning` receives the bound port (useful with port 0).
public func buildApplication(
    configuration: PetServerConfiguration,
    store: any PetStore,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    var logger = Logger(label: "PetServer")
    logger.logLevel = configuration.logLevel
    return Application(
        router: buildRouter(store: store),
        configuration: ApplicationConfiguration(
            address: .hostname(configuration.host, port: configuration.port),
            serverName: "PetSpot"
        ),
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: logger
    )
}

/// The SQLite store of `configuration`, with demo animals added when it was empty.
public func openSeededStore(configuration: PetServerConfiguration) async throws -> SQLitePetStore {
    let store = try SQLitePetStore(path: configuration.databasePath)
    if configuration.demoPetsWhenEmpty > 0, try await store.count() == 0 {
        try await store.insert(DemoPetGenerator().animals(count: configuration.demoPetsWhenEmpty))
        var logger = Logger(label: "PetServer")
        logger.logLevel = configuration.logLevel
        logger.info("seeded demo pets", metadata: ["count": "\(configuration.demoPetsWhenEmpty)"])
    }
    return store
}
