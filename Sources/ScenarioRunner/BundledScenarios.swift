import Foundation

/// The scenario files shipped with the runner (`Scenarios/`): one per acceptance scenario of the spec,
/// Paint My Town's guide and walks, and the edge cases.
public enum BundledScenarios {
    /// The bundled scenario files in the order a newcomer meets them: the spec's user stories (`us…`),
    /// then Paint My Town's guide and walks, then the edge cases and the rest; by name within each.
    public static var files: [URL] {
        guard let directory = Bundle.module.url(forResource: "Scenarios", withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".json") }
            .sorted { (rank($0), $0) < (rank($1), $1) }
            .map { directory.appendingPathComponent($0) }
    }

    private static func rank(_ name: String) -> Int {
        if name.hasPrefix("us") { return 0 }
        if name.hasPrefix("guide-") { return 1 }
        if name.hasPrefix("walk-") { return 2 }
        return 3
    }

    /// Every bundled scenario, parsed.
    public static func all() throws -> [Scenario] {
        try files.map { url in
            do {
                return try Scenario.parse(Data(contentsOf: url))
            } catch let error as ScenarioFileError {
                throw ScenarioFileError(path: "\(url.lastPathComponent): \(error.path)", message: error.message)
            }
        }
    }
}
