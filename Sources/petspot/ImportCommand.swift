import ArgumentParser
import Foundation
import PetServer

/// `petspot import`: loads pets from a JSON file in the API's animal shape.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import pets from a JSON file (an array of animals as GET /api/pets returns them).",
        discussion: "All records are checked first and written in one transaction: one bad record imports nothing."
    )

    @Argument(help: "JSON file: an array of animals, or a {\"animals\": [...]} body.")
    var file: String

    @Option(help: "SQLite database file, or postgres://USER@HOST:PORT/DATABASE for PostgreSQL with PostGIS (default: ./\(PetServerConfiguration.defaultDatabasePath)).")
    var database = PetServerConfiguration.defaultDatabasePath

    func run() async throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            throw CommandError("cannot read \(file): \(error.localizedDescription)")
        }
        do {
            let animals = try AnimalImporter.parse(data)
            let address = try DatabaseAddress(database)
            let imported = try await address.withStore { try await AnimalImporter.importPets(animals, into: $0) }
            print("imported \(imported) pets into \(address)")
        } catch let error as AnimalImportError {
            throw CommandError("\(file): \(error); nothing was imported")
        }
    }
}
