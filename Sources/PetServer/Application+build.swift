import Foundation
import Hummingbird
import Logging
import NIOCore
import PetSpotDomain
import ServiceLifecycle

/// The pets server: opens the store `configuration.database` names (an SQLite file, or a `postgres://`
/// URL), migrating it, and builds the application over it. This is the one way to start the server:
/// `petspot serve`, in-process servers (``startPetServer(configuration:)``) and tests all come here.
///
/// The PostgreSQL connection pool is one of the application's services, so the service group runs it
/// beside the HTTP server and closes it on every way out — a graceful shutdown, a signal or an error.
/// An empty store receives `configuration.demoPetsWhenEmpty` demo pets before the server accepts
/// connections. `onServerRunning` receives the bound port (useful with port 0).
public func buildApplication(
    configuration: PetServerConfiguration,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    let logger = configuration.makeLogger()
    let database = try DatabaseAddress(configuration.database)
    let store: any BulkLoadingAnimalStore & PlaceStore
    var services: [any Service] = []
    switch database {
    case .sqlite(let path):
        store = try SQLiteAnimalStore(path: path, countCap: configuration.countCap)
    case .postgres(var postgres):
        postgres.countCap = configuration.countCap
        let opened = try await PostgresAnimalStore(migrating: postgres, logger: logger)
        store = opened
        services.append(opened.client)
    }
    var app = Application(
        router: buildRouter(
            store: store,
            versions: DataVersionMonitor(store: store, interval: configuration.dataVersionInterval, clock: ContinuousClock()),
            cache: ResponseCache(capacity: configuration.responseCacheEntries, byteCapacity: configuration.responseCacheBytes)
        ),
        server: .boundedHTTP1(
            limits: configuration.connectionLimits,
            registry: ConnectionRegistry(maximum: configuration.connectionLimits.maximumConnections, logger: logger)
        ),
        configuration: ApplicationConfiguration(
            address: .hostname(configuration.host, port: configuration.port),
            serverName: "PetSpot",
            // Linux caps it at net.core.somaxconn. A deep queue lets a client connect while the server
            // is accepting a flood of connections (each then admitted or closed at once).
            backlog: 4096
        ),
        services: services,
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: logger
    )
    let demoPets = configuration.demoPetsWhenEmpty
    let placesFile = configuration.placesWhenEmpty
    app.beforeServerStarts {
        if let postgres = store as? PostgresAnimalStore, postgres.isReadOnly {
            logger.info("read-only database (a standby?): serving what the primary writes, seeding nothing")
            return
        }
        let added = try await store.addDemoPetsIfEmpty(count: demoPets)
        if added > 0 { logger.info("seeded demo pets", metadata: ["count": "\(added)"]) }
        if let file = placesFile, try await store.placeCount() == 0 {
            let places = try GazetteerFile.parse(try Data(contentsOf: file))
            let stored = try await store.replacePlaces(with: places)
            logger.info("loaded places", metadata: ["count": "\(stored)", "file": "\(file.lastPathComponent)"])
        }
    }
    return app
}
