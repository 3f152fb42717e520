import ArgumentParser
import Foundation

@main
struct PetSpotCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "petspot",
        abstract: "PetSpot: the pet-adoption startup screen, its simulated iPhone and its listing server.",
        subcommands: [DemoCommand.self, RunCommand.self, ExploreCommand.self, AppiumCommand.self, ServeCommand.self, SeedCommand.self, ImportCommand.self, PlacesCommand.self, BenchCommand.self, CheckPlistCommand.self]
    )

    /// Runs the chosen command; the one place the tool exits with a failure status (see ``CommandError``).
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as CommandError {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            exit(withError: ExitCode(error.exitCode))
        } catch {
            exit(withError: error)
        }
    }
}
