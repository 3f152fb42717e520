import ArgumentParser
import Foundation
import PetServer

/// `petspot places`: the gazetteer `GET /api/places` answers from.
struct PlacesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "places",
        abstract: "Manage the places a person can choose instead of sharing their location (GET /api/places).",
        subcommands: [Import.self]
    )

    /// `petspot places import FILE`: replaces the stored places by a gazetteer file's.
    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Replace the stored places by those of a gazetteer file.",
            discussion: """
                The file is what scripts/fetch-places.sh writes: a header line, then one place per line, \
                tab-separated: id, name, region, country, lat, lon, population, postalCode, label. Every line \
                is checked first and the places are replaced in one transaction: one bad line imports nothing. \
                `petspot serve` loads the bundled file into a database that holds no place; this loads a newer \
                one (servers answer from it at once; clients may keep an answer for an hour).
                """
        )

        @Argument(help: "The gazetteer file (tab-separated, as scripts/fetch-places.sh writes it).")
        var file: String

        @Option(help: "SQLite database file, or postgres://USER@HOST:PORT/DATABASE for PostgreSQL with PostGIS; a relative path is in the current directory.")
        var database = PetServerConfiguration.defaultDatabasePath

        func run() async throws {
            let data = try CommandError.read(file)
            do {
                let address = try DatabaseAddress(database)
                let file = file
                let stored = try await ProgressLine.show("importing places from \(file)") { line in
                    line.phase("checking the lines")
                    let places = try GazetteerFile.parse(data)
                    line.phase("writing \(places.count) places into \(address)")
                    return try await address.withStore { try await $0.replacePlaces(with: places) }
                }
                print("imported \(stored) places into \(address), replacing those stored before")
            } catch let error as GazetteerFileError {
                throw CommandError("\(file): \(error); nothing was imported")
            } catch {
                guard let failure = StoreFailure.describe(error, database: database) else { throw error }
                throw CommandError("\(failure); nothing was imported")
            }
        }
    }
}
