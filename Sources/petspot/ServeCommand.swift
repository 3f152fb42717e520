import ArgumentParser
import Foundation
import Hummingbird
import Logging
import PetAPI
import PetServer
import ServiceLifecycle
import UnixSignals

/// `petspot serve`: the pets API over an SQLite file or a PostgreSQL database.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the pets API (GET /api/pets, /api/pets/{id}, /api/places, /api/places/{id}, /health, /openapi.yaml).",
        discussion: """
            The database is created and migrated on first start; when it is empty it receives \
            \(PetServerConfiguration.defaultDemoPetCount) demo pets, and when it holds no place, the \
            bundled gazetteer (GeoNames cities of 1,000 inhabitants or more and US ZIP codes; \
            `petspot places import FILE` loads a newer one).
            """
    )

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "TCP port (0 picks a free one).")
    var port = 8080

    @Option(help: "SQLite database file, or postgres://USER@HOST:PORT/DATABASE for PostgreSQL with PostGIS; a relative path is in the current directory.")
    var database = PetServerConfiguration.defaultDatabasePath

    @Option(help: "How many encoded listing pages to keep in memory (all data versions together); 0 switches the response cache off.")
    var responseCacheEntries = PetServerConfiguration.defaultResponseCacheEntries

    @Option(help: "How many bytes of encoded listing pages the response cache holds at most (64 MiB = 67108864); a page larger than half of it is not kept.")
    var responseCacheBytes = PetServerConfiguration.defaultResponseCacheBytes

    @Option(help: ArgumentHelp(
        "How long, in milliseconds, the server may use the data version it read last.",
        discussion: "ETags and the response cache follow it: a change made by another process or replica is seen within this time. 0 reads it on every request."
    ))
    var dataVersionIntervalMs = Int(PetServerConfiguration.defaultDataVersionInterval.components.seconds * 1000)

    @Option(help: ArgumentHelp(
        "Where counting stops for a nearby or filtered listing.",
        discussion: "Above it, pagination.totalCount is this number and pagination.totalCountIsExact is false. The listing without coordinates or filter is always counted exactly."
    ))
    var countCap = AnimalPage.defaultCountCap

    @Option(name: .customLong("idle-timeout-s"), help: ArgumentHelp(
        "How long, in seconds, a connection may wait for its next request before the server closes it.",
        discussion: "Counted from the connection's opening and from each answer to the next request's first byte."
    ))
    var idleTimeoutSeconds = Double(ConnectionLimits.defaultIdleTimeout.components.seconds)

    @Option(name: .customLong("request-timeout-s"), help: ArgumentHelp(
        "How long, in seconds, a request may take to arrive, from its first byte to its last.",
        discussion: "A connection whose request arrives more slowly is closed without an answer."
    ))
    var requestTimeoutSeconds = Double(ConnectionLimits.defaultRequestTimeout.components.seconds)

    @Option(help: ArgumentHelp(
        "How many client connections the server holds at once.",
        discussion: "By default the open-file limit (which the server first raises to its hard limit) less a quarter of it, at most 1024, kept for the database and the log. A connection beyond it closes an idle one (or else one whose request is still arriving) to make room, or is closed itself when every connection is being answered; a warning says so at most every 10 s."
    ))
    var maxConnections: Int?

    @Flag(inversion: .prefixedNo, help: "Load the bundled gazetteer into a database that holds no place (--no-places leaves it empty: GET /api/places then finds nothing).")
    var places = true

    @Option(help: ArgumentHelp(
        "The least severe level logged.",
        discussion: "debug adds a line per listing or nearby query (its radius and counts, never its coordinates)."
    ))
    var logLevel = Logger.Level.info

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard responseCacheEntries >= 0 else {
            throw ValidationError("--response-cache-entries must be 0 or more, not \(responseCacheEntries)")
        }
        guard responseCacheBytes >= 0 else {
            throw ValidationError("--response-cache-bytes must be 0 or more, not \(responseCacheBytes)")
        }
        // At least the largest page: a page never holds more pets than its count.
        let least = AnimalQuery.limitRange.upperBound
        guard (least...1_000_000).contains(countCap) else {
            throw ValidationError("--count-cap must be between \(least) and 1000000, not \(countCap)")
        }
        guard (0...3_600_000).contains(dataVersionIntervalMs) else {
            throw ValidationError("--data-version-interval-ms must be between 0 and 3600000, not \(dataVersionIntervalMs)")
        }
        for (name, seconds) in [("--idle-timeout-s", idleTimeoutSeconds), ("--request-timeout-s", requestTimeoutSeconds)] {
            guard seconds.isFinite, seconds >= 0.01, seconds <= 3600 else {
                throw ValidationError("\(name) must be between 0.01 and 3600 seconds, not \(seconds)")
            }
        }
        if let maxConnections {
            let limit = ConnectionLimits.raiseOpenFileLimit()
            let most = ConnectionLimits.defaultMaximumConnections(openFileLimit: limit)
            guard (1...most).contains(maxConnections) else {
                throw ValidationError(
                    "--max-connections must be between 1 and \(most) (the open-file limit \(limit) less \(limit - most) kept for the database and the log), not \(maxConnections)"
                )
            }
        }
    }

    func run() async throws {
        let openFileLimit = ConnectionLimits.raiseOpenFileLimit()
        let limits = ConnectionLimits(
            idleTimeout: .milliseconds(Int64((idleTimeoutSeconds * 1000).rounded())),
            requestTimeout: .milliseconds(Int64((requestTimeoutSeconds * 1000).rounded())),
            maximumConnections: maxConnections ?? ConnectionLimits.defaultMaximumConnections(openFileLimit: openFileLimit)
        )
        let configuration = PetServerConfiguration(
            host: host, port: port, database: database, logLevel: logLevel,
            responseCacheEntries: responseCacheEntries, responseCacheBytes: responseCacheBytes, dataVersionInterval: .milliseconds(dataVersionIntervalMs),
            countCap: countCap, connectionLimits: limits, placesWhenEmpty: places ? GazetteerFile.bundled : nil
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

extension Logger.Level: @retroactive ExpressibleByArgument {}
