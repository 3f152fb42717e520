import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Logging
import PetAPI
@testable import PetServer
import PetSpotDomain
import PostgresNIO
import Synchronization
import Testing

/// The standby `scripts/with-postgres.sh --standby` starts beside the test cluster.
enum PostgresTestStandby {
    static var url: String? {
        ProcessInfo.processInfo.environment["PETSPOT_POSTGRES_STANDBY_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }
    /// On CI a missing standby is a failure, as a missing primary is.
    static var shouldRun: Bool { url != nil || PostgresTestDatabase.isCI }
    static let skipMessage: Comment = "standby tests skipped: run `scripts/with-postgres.sh --standby swift test`"
}

/// `petspot serve` on a streaming hot standby of the test cluster (`scripts/with-postgres.sh --standby`):
/// it reads what the primary writes, once replayed, and never writes itself. Serialized: two of the
/// tests restart the standby, which ends every session on it.
@Suite(.serialized, .enabled(if: PostgresTestStandby.shouldRun, PostgresTestStandby.skipMessage), .timeLimit(.minutes(1)))
struct PostgresStandbyTests {
    struct NoStandby: Error, CustomStringConvertible {
        var description: String { "PETSPOT_POSTGRES_STANDBY_URL is not set: run the tests under `scripts/with-postgres.sh --standby`" }
    }

    /// Returns once the standby has applied every transaction the primary committed before the call:
    /// a write committed with `synchronous_commit = remote_apply` (the cluster lists the standby as
    /// synchronous) waits for the standby's replay, which is in commit order.
    private static func replayed(schema: String) async throws {
        try await PostgresTestDatabase.execute([
            "BEGIN", "SET LOCAL synchronous_commit = remote_apply",
            #"UPDATE "\#(schema)".pet_stats SET pets = pets"#, "COMMIT",
        ])
    }

    /// The store contract, read from the standby: every write goes to the primary and is replayed
    /// before the next read, which the standby answers from its own snapshot.
    @Test(arguments: AnimalStoreContract.allCases)
    func givenAStandbyOfTheStore_whenContractCaseRunsReadingFromIt_thenItHolds(_ contractCase: AnimalStoreContract) async throws {
        guard let url = PostgresTestStandby.url else { throw NoStandby() }
        try await PostgresTestDatabase.withFreshStore { primary async throws in
            var configuration = try PostgresAnimalStore.Configuration(url: url)
            configuration.schema = primary.configuration.schema
            try await Self.replayed(schema: configuration.schema)
            try await PostgresAnimalStore.withStore(configuration) { standby in
                try await contractCase.run(on: ReadFromStandby(primary: primary, standby: standby))
            }
        }
    }

    /// A server on the standby for `schema`, reading the data version on every request.
    private static func standbyServer(schema: String) async throws -> RunningPetServer {
        guard let url = PostgresTestStandby.url else { throw NoStandby() }
        return try await startPetServer(configuration: PetServerConfiguration(
            port: 0, database: url + (url.contains("?") ? "&" : "?") + "schema=\(schema)", logLevel: .error,
            dataVersionInterval: .zero
        ))
    }

    private static func get(_ url: URL, ifNoneMatch: String? = nil) async throws -> (status: Int, etag: String?, body: Data, retryAfter: String?) {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
        if let ifNoneMatch { request.setValue(ifNoneMatch, forHTTPHeaderField: "If-None-Match") }
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, http.value(forHTTPHeaderField: "ETag"), data, http.value(forHTTPHeaderField: "Retry-After"))
    }

    private static func ids(_ body: Data) throws -> [String] {
        try PetAPICoding.makeDecoder().decode(AnimalListResponse.self, from: body).animals.map(\.id)
    }

    @Test func givenAServerOnTheStandby_whenThePrimaryImports_thenTheListingShowsItAfterReplayWithANewETag() async throws {
        try await PostgresTestDatabase.withFreshStore { primary async throws in
            let schema = primary.configuration.schema
            try await primary.insert([try AnimalFixtures.animal("first", lat: 52.231, lon: 21.01)])
            try await Self.replayed(schema: schema)
            // Demo pets are due to an empty store, but a standby server seeds nothing.
            let server = try await Self.standbyServer(schema: schema)
            do {
                let listing = server.baseURL.appending(path: "api/pets")
                let before = try await Self.get(listing)
                #expect(before.status == 200)
                #expect(try Self.ids(before.body) == ["first"])
                let oldTag = try #require(before.etag)

                _ = try await primary.apply([.listed(try AnimalFixtures.animal("second", lat: 52.232, lon: 21.01))], sync: false)
                try await Self.replayed(schema: schema)
                let after = try await Self.get(listing, ifNoneMatch: oldTag)
                #expect(after.status == 200)
                #expect(Set(try Self.ids(after.body)) == ["first", "second"])
                let newTag = try #require(after.etag)
                #expect(newTag != oldTag)
                #expect(try await Self.get(listing, ifNoneMatch: newTag).status == 304)
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
            #expect(try await primary.count() == 2)
        }
    }

    /// Runs the cluster's restart script for the standby, down `seconds`, and returns when it is back.
    private static func restartStandby(downFor seconds: Int) async throws {
        let script = try #require(ProcessInfo.processInfo.environment["PETSPOT_POSTGRES_STANDBY_RESTART"])
        let status = try await ChildProcess.run(script, "\(seconds)")
        #expect(status == 0)
    }

    @Test func givenAStatementOnTheStandby_whenTheStandbyRestarts_thenItFailsAsUnavailableAndTheNextCallIsAnswered() async throws {
        guard let url = PostgresTestStandby.url else { throw NoStandby() }
        try await PostgresTestDatabase.withFreshStore { primary async throws in
            var configuration = try PostgresAnimalStore.Configuration(url: url)
            configuration.schema = primary.configuration.schema
            try await primary.insert([try AnimalFixtures.animal("kept", lat: 1, lon: 1)])
            try await Self.replayed(schema: configuration.schema)
            try await PostgresAnimalStore.withStore(configuration) { standby in
                #expect(standby.isReadOnly)
                let sleeping = Task {
                    try await standby.withConnection { try await $0.query("SELECT pg_sleep(20)", logger: standby.logger).collect().count }
                }
                // The statement is running once the standby shows it.
                let deadline = ContinuousClock.now + .seconds(20)
                var running = false
                repeat {
                    running = try await standby.withConnection { connection in
                        try await connection.query(
                            "SELECT count(*) > 0 FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(20)' AND state = 'active'",
                            logger: standby.logger
                        ).collect().first?.decode(Bool.self) ?? false
                    }
                } while !running && ContinuousClock.now < deadline
                #expect(running)
                try await Self.restartStandby(downFor: 1)
                // Ended by the shutdown: an error the API answers with 503 and Retry-After.
                let failure = await #expect(throws: (any Error).self) { try await sleeping.value }
                #expect(failure.map(StoreUnavailability.isTemporary) == true, "\(String(describing: failure))")
                #expect(try await standby.count() == 1)
            }
        }
    }

    @Test func givenAServerOnTheStandby_whenTheStandbyRestartsUnderLoad_thenEveryAnswerIsA200OrA503WithRetryAfterAndItRecovers() async throws {
        try await PostgresTestDatabase.withFreshStore { primary async throws in
            let schema = primary.configuration.schema
            try await primary.insert(DemoPetGenerator().animals(count: 50))
            try await Self.replayed(schema: schema)
            let server = try await Self.standbyServer(schema: schema)
            let listing = server.baseURL.appending(path: "api/pets")
            let answers: [(status: Int, retryAfter: String?)]
            let recovered: (status: Int, etag: String?, body: Data, retryAfter: String?)
            do {
                answers = try await withThrowingTaskGroup(of: [(Int, String?)].self) { clients in
                    let stop = Stop()
                    for _ in 0..<8 {
                        clients.addTask {
                            var seen: [(Int, String?)] = []
                            while !stop.isSet {
                                let answer = try await Self.get(listing)
                                seen.append((answer.status, answer.retryAfter))
                            }
                            return seen
                        }
                    }
                    try await Self.restartStandby(downFor: 2)
                    stop.set()
                    return try await clients.reduce(into: []) { $0 += $1 }
                }
                // Back: the pool reconnects by itself; the deadline is fixed before the first try.
                let deadline = ContinuousClock.now + .seconds(30)
                var answer = try await Self.get(listing)
                while answer.status != 200 && ContinuousClock.now < deadline { answer = try await Self.get(listing) }
                recovered = answer
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
            #expect(!answers.isEmpty)
            for answer in answers {
                #expect(answer.status == 200 || (answer.status == 503 && answer.retryAfter == "1"), "\(answer)")
            }
            #expect(recovered.status == 200)
            #expect(try Self.ids(recovered.body).count == 20)
        }
    }
}

/// A flag set once, read by many.
private final class Stop: Sendable {
    private let value = Atomic(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// A child process waited for with `waitpid` on a thread of its own: the cooperative pool's threads
/// are not for blocking, and Foundation's `Process.waitUntilExit` spins a run loop on Linux.
private enum ChildProcess {
    struct SpawnFailed: Error { var code: Int32 }

    /// Runs `path` with `arguments`; returns its exit status (128 + the signal when killed).
    static func run(_ path: String, _ arguments: String...) async throws -> Int32 {
        var pid: pid_t = 0
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let spawned = posix_spawn(&pid, path, nil, nil, argv, environ)
        guard spawned == 0 else { throw SpawnFailed(code: spawned) }
        let child = pid
        return await withCheckedContinuation { (done: CheckedContinuation<Int32, Never>) in
            Thread.detachNewThread {
                var status: Int32 = 0
                while waitpid(child, &status, 0) < 0 && errno == EINTR {}
                let exited = status & 0x7f == 0
                done.resume(returning: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f))
            }
        }
    }
}

/// Writes to the primary, each replayed on the standby before it returns; reads from the standby.
private struct ReadFromStandby: AnimalStore {
    let primary: PostgresAnimalStore
    let standby: PostgresAnimalStore

    private func replayed<T>(_ write: () async throws -> T) async throws -> T {
        let result: Result<T, any Error>
        do { result = .success(try await write()) } catch { result = .failure(error) }
        try await PostgresTestDatabase.execute([
            "BEGIN", "SET LOCAL synchronous_commit = remote_apply",
            #"UPDATE "\#(primary.configuration.schema)".pet_stats SET pets = pets"#, "COMMIT",
        ])
        return try result.get()
    }

    func snapshot(matching query: AnimalQuery) async throws -> AnimalSnapshot { try await standby.snapshot(matching: query) }
    func lookup(id: String) async throws -> AnimalLookup { try await standby.lookup(id: id) }
    func count() async throws -> Int { try await standby.count() }
    func dataVersion() async throws -> Int { try await standby.dataVersion() }
    func insert(_ animals: [Animal]) async throws { try await replayed { try await primary.insert(animals) } }
    func apply(_ changes: [AnimalChange], sync: Bool) async throws -> ImportSummary {
        try await replayed { try await primary.apply(changes, sync: sync) }
    }
}
