import ArgumentParser
import Foundation
import PetAPI
import PetServer
import PetSpotDomain

extension BenchCommand {
    /// `petspot bench engine`: what the store itself answers, without HTTP, for the same requests
    /// `scripts/bench-http.sh` sends: the bound an HTTP kind's throughput is measured against.
    struct Engine: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "engine",
            abstract: "Run the API's listing queries against the store in process (SQLite), or write them as pgbench scripts (PostgreSQL).",
            discussion: """
                --paths names a file of GET /api/pets paths, one per line (as scripts/bench-http.sh sends them). \
                SQLite: --requests queries over --concurrency tasks, each the query the server would run for its \
                path, cycling through the file; prints one line, "engine <requests/s> <p50 ms> <p99 ms>". \
                PostgreSQL: writes into --pgbench-dir one pgbench script per path holding the exact statement the \
                server sends (its binds as literals), for `pgbench -f` to run with the same concurrency.
                """
        )

        @Option(help: "SQLite database file, or a postgres:// URL.")
        var database: String

        @Option(help: "File of GET /api/pets paths, one per line.")
        var paths: String

        @Option(help: "Concurrent tasks (SQLite).")
        var concurrency = 16

        @Option(help: "Queries in all (SQLite).")
        var requests = 20_000

        @Option(help: "Directory to write the pgbench scripts into (PostgreSQL).")
        var pgbenchDir: String?

        func validate() throws {
            guard concurrency >= 1 else { throw ValidationError("--concurrency must be 1 or more, not \(concurrency)") }
            guard requests >= 1 else { throw ValidationError("--requests must be 1 or more, not \(requests)") }
        }

        func run() async throws {
            let queries = try Self.queries(inFile: paths)
            switch try DatabaseAddress(database) {
            case .sqlite(let path):
                let store = try SQLiteAnimalStore(path: path)
                for query in queries.prefix(50) { _ = try await store.snapshot(matching: query) }  // warm the file's pages
                let load = try await LoadLoop.run(requests: requests, clients: concurrency) { index in
                    _ = try await store.snapshot(matching: queries[index % queries.count])
                }
                let summary = AnimalStoreBenchmark.Summary(durations: load.durations, matches: [])
                print(String(format: "engine %.1f %.3f %.3f", load.requestsPerSecond, summary.medianMs, summary.p99Ms))
            case .postgres(let configuration):
                guard let pgbenchDir else { throw ValidationError("a postgres:// --database needs --pgbench-dir") }
                try FileManager.default.createDirectory(atPath: pgbenchDir, withIntermediateDirectories: true)
                try await PostgresAnimalStore.withStore(configuration) { store in
                    for (index, query) in queries.enumerated() {
                        guard let sql = store.statementText(for: query) else {
                            throw ValidationError("\(paths): line \(index + 1) has no coordinates; only nearby queries are written")
                        }
                        let file = URL(fileURLWithPath: pgbenchDir).appendingPathComponent(String(format: "q%05d.sql", index))
                        // pgbench reads one statement per line unless it ends with a semicolon: one line.
                        try Data((sql.split(whereSeparator: \.isNewline).joined(separator: " ") + ";\n").utf8).write(to: file)
                    }
                }
                print("wrote \(queries.count) pgbench scripts into \(pgbenchDir)")
            }
        }

        /// The queries of a file of `/api/pets?…` paths, parsed as the server parses them.
        static func queries(inFile path: String) throws -> [AnimalQuery] {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            var queries: [AnimalQuery] = []
            for (index, line) in text.split(whereSeparator: \.isNewline).enumerated() {
                guard let components = URLComponents(string: String(line)) else {
                    throw ValidationError("\(path): line \(index + 1) is not a path with a query")
                }
                let items = (components.queryItems ?? []).map { (name: $0.name, value: $0.value ?? "") }
                do {
                    queries.append(try AnimalQuery.parse(items))
                } catch {
                    throw ValidationError("\(path): line \(index + 1): \(error.message)")
                }
            }
            guard !queries.isEmpty else { throw ValidationError("\(path) holds no path") }
            return queries
        }
    }
}
