import Foundation

/// The scenario files shipped with the runner (`Scenarios/`), one per acceptance scenario of the spec
/// and per edge case, in file-name order.
public enum BundledScenarios {
    /// The bundled scenario files, sorted by name.
    public static var files: [URL] {
        guard let directory = Bundle.module.url(forResource: "Scenarios", withExtension: nil),
            let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path)
        else { return [] }
        return names.filter { $0.hasSuffix(".json") }.sorted().map { directory.appendingPathComponent($0) }
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
