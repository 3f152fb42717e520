import ArgumentParser
import Foundation
import Localization
import ScenarioRunner

/// `petspot demo`: every user story of the spec, played and told as a storyboard.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Play every user story and edge case on the simulated iPhone and tell what the person sees.",
        discussion: """
            Runs the bundled scenarios (Scenarios/) against a server started in this process on a \
            temporary database with \(ScenarioServer.demoPetCount) demo pets (or --server), prints each \
            as a storyboard, then a table: the scenario, whether the listing came with location, and \
            the virtual time to the first listing.

            --language tells it in another language, with that language's numbers and the \
            locale's units: \(LanguageOption.supportedList). A region may follow the language and \
            decides the units: where roads are signed in miles (en-US, en-GB, es-US, …) distances are \
            in miles; with a language alone or any other region, in kilometres.
            """
    )

    @Option(help: "Base URL of a running pets server instead of the in-process one.")
    var server: String?

    @Option(help: "Play only the scenarios whose file name contains this text (e.g. us3).")
    var only: String?

    @Option(help: LanguageOption.help)
    var language: String = LanguageOption.defaultTag

    func validate() throws {
        _ = try LanguageOption.localizer(language)
    }

    func run() async throws {
        let localizer = try LanguageOption.localizer(language)
        let files = BundledScenarios.files.filter { only.map($0.lastPathComponent.contains) ?? true }
        guard !files.isEmpty else {
            throw CommandError(only.map { "no bundled scenario matches \"\($0)\"" } ?? "no bundled scenarios found", exitCode: 2)
        }
        let scenarios = try files.map { try ScenarioFile.load($0.path) }
        let outcomes = try await ScenarioServer.run(scenarios, serverURL: server.flatMap(URL.init(string:)))
        let labels = files.map { $0.deletingPathExtension().lastPathComponent }
        for (scenario, outcome) in zip(scenarios, outcomes) {
            print(Storyboard.render(scenario, outcome, localizer: localizer))
        }
        print("")
        print(Storyboard.table(Array(zip(labels, outcomes)), localizer: localizer))
        if let failed = zip(scenarios, outcomes).first(where: { $0.1.failure != nil }) {
            throw CommandError("\(failed.0.name): \(failed.1.failure.map(String.init(describing:)) ?? "")", exitCode: 2)
        }
    }
}
