import Foundation

/// The scenario files shipped with the runner (`Scenarios/`): one per acceptance scenario of the spec,
/// Paint My Town's guide and walks, and the edge cases.
public enum BundledScenarios {
    /// The bundled scenario files in the order a newcomer meets them: the spec's user stories (`us…`),
    /// then Paint My Town's (`"app": "paintmytown"`), then PetSpot's edge cases and the rest; by name
    /// within each.
    public static var files: [URL] {
        guard let directory = Bundle.module.url(forResource: "Scenarios", withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return [] }
        let ranked = names.filter { $0.hasSuffix(".json") }.map { name in
            let url = directory.appendingPathComponent(name)
            return (rank: rank(name, url), name: name, url: url)
        }
        return ranked.sorted { ($0.rank, $0.name) < ($1.rank, $1.name) }.map(\.url)
    }

    private static func rank(_ name: String, _ url: URL) -> Int {
        if name.hasPrefix("us") { return 0 }
        // A file that does not parse sorts with the rest; playing it says what is wrong with it.
        let app = (try? Data(contentsOf: url)).flatMap { try? Scenario.parse($0) }?.app
        return app == .paintmytown ? 1 : 2
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
