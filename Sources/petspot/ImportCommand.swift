import ArgumentParser
import Foundation
import PetServer

/// `petspot import`: loads pets from a JSON file in the API's animal shape.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import pets from a JSON file (an array of animals as GET /api/pets returns them).",
        discussion: """
            All records are checked first and written in one transaction: one bad record imports nothing. \
            A pet whose id is stored already is replaced when any field differs. A record with "status": \
            "adopted" or "removed" takes its pet out of every listing (GET /api/pets/{id} then answers 410). \
            With --sync the file is the shelter's whole feed: stored pets it does not name are removed.
            """
    )

    @Argument(help: "JSON file: an array of animals, or a {\"animals\": [...]} body.")
    var file: String

    @Option(help: "SQLite database file, or postgres://USER@HOST:PORT/DATABASE for PostgreSQL with PostGIS; a relative path is in the current directory.")
    var database = PetServerConfiguration.defaultDatabasePath

    @Flag(help: "The file is the whole feed: remove every stored pet it does not name.")
    var sync = false

    func run() async throws {
        let data = try CommandError.read(file)
        do {
            let address = try DatabaseAddress(database)
            let sync = sync
            let (feed, summary) = try await ProgressLine.show("importing \(file)") { line in
                line.phase("checking the records")
                let feed = try AnimalImporter.parseFeed(data)
                if sync { try AnimalImporter.checkWholeFeed(data, records: feed.changes.count) }
                line.phase("writing \(feed.changes.count) records into \(address)")
                let summary = try await address.withStore { try await AnimalImporter.importPets(feed.changes, into: $0, sync: sync) }
                return (feed, summary)
            }
            print("imported \(feed.changes.count) records into \(address): \(summary)")
            if !feed.ignoredFields.isEmpty {
                print("ignored fields no animal has: \(feed.ignoredFields.joined(separator: ", "))")
            }
        } catch let error as AnimalImportError {
            throw CommandError("\(file): \(error); nothing was imported")
        } catch {
            // The import is one transaction: when the database fails, nothing of the file is in it.
            guard let failure = StoreFailure.describe(error, database: database) else { throw error }
            throw CommandError("\(failure); nothing was imported")
        }
    }
}
