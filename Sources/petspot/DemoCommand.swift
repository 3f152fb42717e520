import ArgumentParser
import Foundation
import ScenarioRunner

/// `petspot demo`: every user story of the spec, played and told as a storyboard.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Play every user story and edge case on the simulated iPhone and tell what the person sees.",
        discussion: """
            Runs the bundled scenarios (Scenarios/) against a server started in this process on a \
            temporary database with \(ScenarioHost.demoPetCount) demo pets (or --server), prints each \
            as a storyboard, then a table: the scenario, whether the listing came with location, and \
            the virtual time to the first listing.
            """
    )

    @Option(help: "Base URL of a running pets server instead of the in-process one.")
    var server: String?

    @Option(help: "Play only the scenarios whose file name contains this text (e.g. us3).")
    var only: String?

    func run() async throws {
        let files = BundledScenarios.files.filter { only.map($0.lastPathComponent.contains) ?? true }
        guard !files.isEmpty else {
            throw CommandError(only.map { "no bundled scenario matches \"\($0)\"" } ?? "no bundled scenarios found", exitCode: 2)
        }
        let scenarios = try files.map { try ScenarioFile.load($0.path) }
        let outcomes = try await ScenarioHost.run(scenarios, serverURL: server.flatMap(URL.init(string:)))
        for (scenario, outcome) in zip(scenarios, outcomes) {
            print(Storyboard.render(scenario, outcome))
        }
        print("")
        let labels = files.map { $0.deletingPathExtension().lastPathComponent }
        print(Storyboard.table(Array(zip(labels, outcomes))))
        if let failed = zip(scenarios, outcomes).first(where: { $0.1.failure != nil }) {
            throw CommandError("\(failed.0.name): \(failed.1.failure.map(String.init(describing:)) ?? "")", exitCode: 2)
        }
    }
}
