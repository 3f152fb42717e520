import ArgumentParser
import PetServer

/// `petspot seed`: adds deterministic demo pets to a database.
struct SeedCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seed",
        abstract: "Make sure the first N deterministic demo pets (ids demo-000001…) are in a database; one transaction."
    )

    /// More than anyone needs to try the listing or measure it (`bench store` uses a million), and few
    /// enough that a typo cannot fill the disk.
    static let maximumCount = 10_000_000

    // Unconditional: `--demo -5` is a count to refuse by name, not a missing value.
    @Option(name: .customLong("demo"), parsing: .unconditional, help: "How many demo pets to add (1 to 10,000,000).")
    var count: Int

    @Option(help: "SQLite database file, or postgres://USER@HOST:PORT/DATABASE for PostgreSQL with PostGIS; a relative path is in the current directory.")
    var database = PetServerConfiguration.defaultDatabasePath

    func validate() throws {
        guard count >= 1 else { throw ValidationError("--demo must be at least 1, got \(count)") }
        guard count <= Self.maximumCount else {
            throw ValidationError("--demo must be at most \(Self.maximumCount.grouped), got \(count); nothing was written")
        }
    }

    func run() async throws {
        let address = try DatabaseAddress(database)
        let (added, total): (Int, Int)
        do {
            let count = count
            (added, total) = try await ProgressLine.show("seeding demo pets", total: count) { line in
                try await address.withStore { store in
                    let pets = CountedSequence(base: DemoPetGenerator().sequence(count: count), line: line)
                    let added = try await store.insert(streaming: pets, skippingExistingIDs: true)
                    return (added, try await store.count())
                }
            }
        } catch {
            // One transaction: when the database fails, none of the demo pets were added.
            guard let failure = StoreFailure.describe(error, database: database) else { throw error }
            throw CommandError("\(failure); no demo pets were added")
        }
        print("added \(added) of \(count) demo pets to \(address) (the rest were there already); it holds \(total)")
    }
}
