import ArgumentParser
import Foundation
import Logging
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PetAPI
import PetServer
import PetSpotDomain

/// `petspot bench`: performance measurements (commands, not tests).
struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure the pets store and API, and the scenario file checker.",
        subcommands: [Store.self, Engine.self, ScenarioCheck.self]
    )

    struct Store: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "store",
            abstract: "Nearby-query median/p99 on SQLite (R*Tree vs full scan), then HTTP requests/s on loopback.",
            discussion: """
                Fills a database with deterministic demo pets (one transaction), times 50 km limit-20 nearby \
                queries centred on demo pet positions, the same queries as a full scan, then serves \
                --http-pets pets on 127.0.0.1 (free port) and runs a bounded request loop against it. \
                Build with -c release for meaningful numbers.
                """
        )

        @Option(help: "Pets in the store benchmark.")
        var pets = 1_000_000

        @Option(help: "Database file for the store benchmark; reused if it already holds --pets pets (default: a temporary file). A postgres:// URL benchmarks PostgreSQL too, on the same pets, after a temporary SQLite file.")
        var database: String?

        @Flag(inversion: .prefixedNo, help: "With a postgres:// --database: CLUSTER the table by location after loading it.")
        var cluster = true

        @Option(help: "Nearby queries to time.")
        var queries = 2_000

        @Option(help: "Full-scan queries to time (each reads every row).")
        var scanQueries = 20

        @Option(help: "Pets in the HTTP benchmark database (0 skips it).")
        var httpPets = 100_000

        @Option(help: "HTTP requests in total.")
        var requests = 4_000

        @Option(help: "Concurrent HTTP clients.")
        var concurrency = 8

        func run() async throws {
            let clock = ContinuousClock()
            let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("petspot-bench-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: temporary) }
            let address = try database.map { try DatabaseAddress($0) }
            var path = temporary.appendingPathComponent("store.sqlite").path
            if case .sqlite(let file) = address { path = file }
            let store = try SQLiteAnimalStore(path: path)
            let existing = try await store.count()
            if existing < pets {
                let pets = pets
                let started = clock.now
                _ = try await ProgressLine.show("inserting demo pets", total: pets) { line in
                    let sequence = CountedSequence(base: DemoPetGenerator().sequence(count: pets), line: line)
                    return try await store.insert(streaming: sequence, skippingExistingIDs: true)
                }
                let elapsed = clock.now - started
                report("inserted \(pets - existing) pets in \(elapsed) (one transaction)")
            }
            report("store: \(try await store.count()) pets in \(path)")
            let centers = AnimalStoreBenchmark.centers(count: queries)
            _ = try await AnimalStoreBenchmark.nearby(store: store, centers: Array(centers.prefix(50)))
            report("nearby (R*Tree + haversine, count capped), 50 km, limit 20: \(try await AnimalStoreBenchmark.nearby(store: store, centers: centers))")
            report("full scan + haversine,        50 km, limit 20: \(try await AnimalStoreBenchmark.fullScan(store: store, centers: Array(centers.prefix(scanQueries))))")
            if case .postgres(let configuration) = address { try await benchmarkPostgres(configuration, centers: centers) }
            if httpPets > 0 { try await benchmarkHTTP(directory: temporary) }
        }

        private func benchmarkHTTP(directory: URL) async throws {
            let path = directory.appendingPathComponent("http.sqlite").path
            // Rounded as the app sends them (departure 6).
            let locations = try AnimalStoreBenchmark.centers(count: 500).map {
                try UserLocation(latitude: $0.latitude, longitude: $0.longitude).rounded(toDecimals: 2)
            }
            let server = try await startPetServer(
                configuration: PetServerConfiguration(host: "127.0.0.1", port: 0, database: path, demoPetsWhenEmpty: httpPets, logLevel: .warning)
            )
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpMaximumConnectionsPerHost = concurrency
            let session = URLSession(configuration: configuration)
            let repository = AnimalRepository(configuration: .init(baseURL: server.baseURL), session: session)
            let load: LoadLoop.Result
            do {
                load = try await LoadLoop.run(requests: requests, clients: concurrency) { index in
                    _ = try await repository.fetchAnimals(near: locations[index % locations.count])
                }
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
            let summary = AnimalStoreBenchmark.Summary(durations: load.durations, matches: [])
            report(String(
                format: "HTTP GET /api/pets?lat&lon (%d pets, %d clients, %d requests): %.0f requests/s, median %.3f ms, p99 %.3f ms",
                httpPets, load.clients, load.durations.count, load.requestsPerSecond, summary.medianMs, summary.p99Ms
            ))
        }
    }
}

/// Writes one line to standard output at once (unbuffered), so results appear while the benchmark runs.
private func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
