import ArgumentParser
import Foundation
import Localization
import ScenarioRunner

/// `petspot run`: one scenario, played against the real app on the simulated iPhone.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Play a scenario file: the real app on a simulated iPhone, against the real server.",
        discussion: """
            The app's view model and location service run on a simulated iPhone on virtual time; \
            listings come over real HTTP from --server, or from a server started in this process on a \
            temporary SQLite database with \(ScenarioServer.demoPetCount) demo pets. The same file \
            prints the same log on every run. The file format is described in docs/scenarios.md.

            With --language the run is told as a storyboard in that language (what the person sees, \
            with the locale's numbers and units) instead of the event log. With --json the event log \
            is printed whatever --language says (an unknown tag is still refused): the log, text or \
            JSON, never depends on the language.

            Exit status: 0 when every step happened, 2 when the file is invalid or a step could not \
            happen at its moment (the log up to that step is still printed).
            """
    )

    @Option(help: "Scenario file (JSON).")
    var scenario: String

    @Option(help: "Base URL of a running pets server, e.g. http://127.0.0.1:8080.")
    var server: String?

    @Flag(help: "Print JSON Lines instead of text.")
    var json = false

    @Option(help: LanguageOption.help)
    var language: String?

    @Option(help: "Play on this iOS version instead of the file's device.iosVersion (17: the classic location manager; 18, 26: service sessions and live updates).")
    var iosVersion: Int?

    func validate() throws {
        if let language { _ = try LanguageOption.localizer(language) }
        if let iosVersion, !Scenario.Device.iosVersions.contains(iosVersion) {
            throw ValidationError("--ios-version \(iosVersion) is not simulated; use one of \(Scenario.Device.iosVersions.map(String.init).joined(separator: ", "))")
        }
        _ = try ScenarioServer.url(server)
    }

    func run() async throws {
        var parsed = try ScenarioFile.load(scenario)
        if let iosVersion { parsed.device.iosVersion = iosVersion }
        let serverURL = server.flatMap(URL.init(string:))
        guard let outcome = try await ScenarioServer.run([parsed], serverURL: serverURL).first else { return }
        if let language, !json {
            print(Storyboard.render(parsed, outcome, localizer: try LanguageOption.localizer(language)))
        } else {
            for line in outcome.lines { print(json ? line.jsonLine : line.textLine) }
        }
        if let failure = outcome.failure {
            throw CommandError("\(scenario): \(failure)", exitCode: 2)
        }
    }
}

/// Reading scenario files, with errors that say which file and where in it.
enum ScenarioFile {
    static func load(_ path: String) throws(CommandError) -> Scenario {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CommandError("cannot read scenario file \(path): \(error.localizedDescription)", exitCode: 2)
        }
        do {
            return try Scenario.parse(data)
        } catch {
            throw CommandError("\(path): \(error)", exitCode: 2)
        }
    }
}

/// `--language`: the language of a storyboard.
enum LanguageOption {
    static let defaultTag = "en"

    static var supportedList: String { AppLanguage.allCases.map(\.rawValue).joined(separator: ", ") }

    static var help: ArgumentHelp {
        ArgumentHelp(
            "Language of the storyboard, with a region for units: \(supportedList), e.g. de, en-US, pt-BR.",
            valueName: "tag"
        )
    }

    static func localizer(_ tag: String) throws -> Localizer {
        do {
            return try Localizer(tag: tag)
        } catch {
            throw ValidationError("--language: \(error)")
        }
    }
}
