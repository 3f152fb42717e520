import ArgumentParser
import Hummingbird
import PetServer
import ServiceLifecycle
import UnixSignals

/// `petspot serve`: the pets API over an SQLite file or a PostgreSQL database.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the pets API (GET /api/pets, /api/pets/{id}, /health, /openapi.yaml).",
        discussion: """
            The database is created and migrated on first start; when it is empty it receives \
            \(PetServerConfiguration.defaultDemoPetCount) demo pets. Without --database the file is \
            ./\(PetServerConfiguration.defaultDatabasePath) in the current directory.
            """
    )

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "TCP port (0 picks a free one).")
    var port = 8080

    @Option(help: "SQLite database file, or postgres://USER@HOST:PORT/DATABASE for PostgreSQL with PostGIS (default: ./\(PetServerConfiguration.defaultDatabasePath)).")
    var database = PetServerConfiguration.defaultDatabasePath

    @Option(help: "How many encoded listing pages to keep in memory (all data versions together); 0 switches the response cache off.")
    var responseCacheEntries = PetServerConfiguration.defaultResponseCacheEntries

    @Option(help: "How many bytes of encoded listing pages the response cache holds at most (default 64 MiB); a page larger than half of it is not kept.")
    var responseCacheBytes = PetServerConfiguration.defaultResponseCacheBytes

    @Option(help: ArgumentHelp(
        "How long, in milliseconds, the server may use the data version it read last.",
        discussion: "ETags and the response cache follow it: a change made by another process or replica is seen within this time. 0 reads it on every request."
    ))
    var dataVersionIntervalMs = Int(PetServerConfiguration.defaultDataVersionInterval.components.seconds * 1000)

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard responseCacheEntries >= 0 else {
            throw ValidationError("--response-cache-entries must be 0 or more, not \(responseCacheEntries)")
        }
        guard responseCacheBytes >= 0 else {
            throw ValidationError("--response-cache-bytes must be 0 or more, not \(responseCacheBytes)")
        }
        guard (0...3_600_000).contains(dataVersionIntervalMs) else {
            throw ValidationError("--data-version-interval-ms must be between 0 and 3600000, not \(dataVersionIntervalMs)")
        }
    }

    func run() async throws {
        let configuration = PetServerConfiguration(
            host: host, port: port, database: database,
            responseCacheEntries: responseCacheEntries, responseCacheBytes: responseCacheBytes, dataVersionInterval: .milliseconds(dataVersionIntervalMs)
        )
        let app = try await buildApplication(configuration: configuration)
        // SIGTERM or SIGINT asks for a graceful shutdown; one that takes longer than 10 s becomes
        // cancellation, and a cancellation that takes longer than 5 s more ends the process. Without a
        // bound, a server whose PostgreSQL had restarted under load was seen waiting on its pool for
        // minutes, so an orchestrator's stop never completed.
        var group = ServiceGroupConfiguration(
            services: [.init(service: app)], gracefulShutdownSignals: [.sigterm, .sigint], logger: app.logger
        )
        group.maximumGracefulShutdownDuration = Self.gracefulShutdownLimit
        group.maximumCancellationDuration = .seconds(5)
        try await ServiceGroup(configuration: group).run()
    }

    static let gracefulShutdownLimit = Duration.seconds(10)
}
