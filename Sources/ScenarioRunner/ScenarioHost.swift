import ConcurrencyExtras
import Foundation

/// Runs scenarios against a listing server that someone else started (`petspot run` and `petspot
/// demo` start one in their process unless given `--server`).
public enum ScenarioHost {
    /// Runs each scenario in turn against the server at `serverURL` and returns their outcomes in order.
    ///
    /// It routes every task of the process through the main serial executor for the duration, so
    /// that work ready at the same virtual moment runs in one fixed order: meant for a process that
    /// does nothing else, such as `petspot run` and `petspot demo`.
    @MainActor
    public static func run(_ scenarios: [Scenario], serverURL: URL) async -> [ScenarioRun.Outcome] {
        var outcomes: [ScenarioRun.Outcome] = []
        await withMainSerialExecutor {
            for scenario in scenarios {
                outcomes.append(await ScenarioRun.run(scenario, serverURL: serverURL))
            }
        }
        return outcomes
    }
}
