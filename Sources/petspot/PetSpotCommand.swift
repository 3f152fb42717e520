import ArgumentParser

@main
struct PetSpotCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "petspot",
        abstract: "PetSpot: the pet-adoption startup screen, its simulated iPhone and its listing server.",
        subcommands: [DemoCommand.self, RunCommand.self, ServeCommand.self, SeedCommand.self, ImportCommand.self, BenchCommand.self, CheckPlistCommand.self]
    )
}
