import ArgumentParser
import PetServer

/// `petspot seed`: adds deterministic demo pets to a database.
struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Make sure the first N deterministic demo pets (ids demo-000001…) are in a database; one transaction."
    )

    @Option(name: .customLong("demo"), help: "How many demo pets to add.")
    var count: Int

    @Option(help: "SQLite database file, or postgres://USER@HOST:PORT/DATABASE for PostgreSQL with PostGIS (default: ./\(PetServerConfiguration.defaultDatabasePath)).")
    var database = PetServerConfiguration.defaultDatabasePath

    func validate() throws {
        guard count >= 1 else { throw ValidationError("--demo must be at least 1") }
    }

    func run() async throws {
        let address = try DatabaseAddress(database)
        let (added, total): (Int, Int)
        do {
            (added, total) = try await address.withStore { store in
                let added = try await store.insert(streaming: DemoPetGenerator().sequence(count: count), skippingExistingIDs: true)
                return (added, try await store.count())
            }
        } catch {
            // One transaction: when the database fails, none of the demo pets were added.
            guard let failure = StoreFailure.describe(error, database: database) else { throw error }
            throw CommandError("\(failure); no demo pets were added")
        }
        print("added \(added) of \(count) demo pets to \(address) (the rest were there already); it holds \(total)")
    }
}
