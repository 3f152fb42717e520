import ArgumentParser
import Hummingbird
import PetServer

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

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
    }

    func run() async throws {
        let configuration = PetServerConfiguration(host: host, port: port, database: database)
        try await buildApplication(configuration: configuration).runService()
    }
}
