import ConcurrencyExtras
import Foundation
import Logging
import PetServer

/// Runs scenarios against a listing server: a given one, or one started in this process on a
/// temporary SQLite database seeded with the demo pets.
public enum ScenarioHost {
    /// Demo pets in the temporary database (the same deterministic set on every run).
    public static let demoPetCount = 500

    /// Runs each scenario in turn and returns their outcomes in order.
    ///
    /// It routes every task of the process through the main serial executor for the duration, so
    /// that work ready at the same virtual moment runs in one fixed order: meant for a process that
    /// does nothing else, such as `petspot run` and `petspot demo`.
    @MainActor
    public static func run(_ scenarios: [Scenario], serverURL: URL?) async throws -> [ScenarioRun.Outcome] {
        if let serverURL {
            return await runSerially(scenarios, serverURL: serverURL)
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("petspot-scenario-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await startPetServer(configuration: PetServerConfiguration(
            host: "127.0.0.1",
            port: 0,
            database: directory.appendingPathComponent("pets.sqlite").path,
            demoPetsWhenEmpty: demoPetCount,
            logLevel: .critical
        ))
        let outcomes = await runSerially(scenarios, serverURL: server.baseURL)
        await server.stop()
        return outcomes
    }

    @MainActor
    private static func runSerially(_ scenarios: [Scenario], serverURL: URL) async -> [ScenarioRun.Outcome] {
        var outcomes: [ScenarioRun.Outcome] = []
        await withMainSerialExecutor {
            for scenario in scenarios {
                outcomes.append(await ScenarioRun.run(scenario, serverURL: serverURL))
            }
        }
        return outcomes
    }
}
