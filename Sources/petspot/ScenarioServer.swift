import ArgumentParser
import Foundation
import Logging
import PetServer
import ScenarioRunner

/// The listing server that `run` and `demo` play scenarios against.
enum ScenarioServer {
    /// `--server`: an http(s) URL with a host, or a usage error naming what was given.
    static func url(_ server: String?) throws -> URL? {
        guard let server else { return nil }
        guard let url = URL(string: server), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ValidationError("--server must be an http(s) URL such as http://127.0.0.1:8080, not \"\(server)\"")
        }
        return url
    }

    /// Demo pets in the temporary database (the same deterministic set on every run).
    static let demoPetCount = 500

    /// Plays `scenarios` against the server at `serverURL`, or, when there is none, against one
    /// started in this process on a temporary SQLite database seeded with ``demoPetCount`` demo pets.
    @MainActor
    static func run(_ scenarios: [Scenario], serverURL: URL?) async throws -> [ScenarioRun.Outcome] {
        try await withServer(serverURL, places: scenarios.contains(where: \.searchesPlaces)) { url in
            await ScenarioHost.run(scenarios, serverURL: url)
        }
    }

    /// Calls `body` with `serverURL`, or with the URL of a server started in this process on a
    /// temporary SQLite database seeded with ``demoPetCount`` demo pets, stopped and removed after.
    /// With `places`, it also serves the sample gazetteer (``GazetteerFile/sample``): only scenarios
    /// that search places need it, and a run without it starts sooner.
    static func withServer<T>(
        _ serverURL: URL?,
        places: Bool = true,
        isolation: isolated (any Actor)? = #isolation,
        _ body: (URL) async throws -> T
    ) async throws -> T {
        if let serverURL {
            return try await body(serverURL)
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
            logLevel: .critical,
            placesWhenEmpty: places ? GazetteerFile.sample : nil
        ))
        do {
            let result = try await body(server.baseURL)
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }
}
