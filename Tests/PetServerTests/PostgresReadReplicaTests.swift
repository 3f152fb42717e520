import Foundation
import Logging
import PetAPI
import PetServer
import PetSpotDomain
import Testing

/// A read-only database, as a hot-standby read replica is: no migration is attempted.
@Suite(.enabled(if: PostgresTestDatabase.shouldRun, PostgresTestDatabase.skipMessage), .timeLimit(.minutes(1)))
struct PostgresReadReplicaTests {
    @Test func givenReadOnlyDatabase_whenOpening_thenAMigratedSchemaIsReadAndAnUnmigratedOneIsWaitedFor() async throws {
        let name = PostgresTestDatabase.uniqueName("petspot_replica")
        try await PostgresTestDatabase.execute("CREATE DATABASE \(name)")
        try await PostgresTestDatabase.execute("CREATE EXTENSION postgis", database: name)
        var configuration = try PostgresTestDatabase.configuration()
        configuration.database = name
        let animal = try AnimalFixtures.animal("replicated", lat: 48.86, lon: 2.35)
        try await PostgresAnimalStore.withStore(configuration) { primary in try await primary.insert([animal]) }
        try await PostgresTestDatabase.execute("ALTER DATABASE \(name) SET default_transaction_read_only = on")

        let center = try GeoCoordinate(latitude: 48.85, longitude: 2.35)
        let nearby = try await PostgresAnimalStore.withStore(configuration) { replica in
            try await replica.animals(matching: AnimalQuery(center: center))
        }
        #expect(nearby.animals.map(\.id) == ["replicated"])
        // `import` and `seed` write: refused at once, naming the database.
        await #expect(throws: PostgresAnimalStoreError.readOnly(url: configuration.displayURL)) {
            try await DatabaseAddress.postgres(configuration).withStore { store in try await store.count() }
        }

        // A schema the primary has not migrated yet: the read-only server waits, and says so.
        var unmigrated = configuration
        unmigrated.schema = "not_migrated"
        let (lines, line) = AsyncStream.makeStream(of: String.self)
        let waiting = Task {
            try await PostgresAnimalStore.withStore(unmigrated, logger: Logger(label: "test") { _ in LineHandler(line) }) { replica in
                try await replica.count()
            }
        }
        var said = ""
        for await text in lines where text.contains("waiting for the primary") {
            said = text
            break
        }
        #expect(said.contains("read-only"))
        // Its session stays read-only; a writable one migrates the schema, and the waiting one goes on
        // and reads it (empty: a pet written after the migration could land before or after its read).
        try await PostgresTestDatabase.execute("ALTER DATABASE \(name) SET default_transaction_read_only = off")
        try await PostgresAnimalStore.withStore(unmigrated) { primary in _ = try await primary.count() }
        let count = try await waiting.value
        try await PostgresTestDatabase.execute("DROP DATABASE \(name) WITH (FORCE)")
        #expect(count == 0)
    }
}

/// Hands every logged message to a stream.
private struct LineHandler: LogHandler {
    let line: AsyncStream<String>.Continuation
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    init(_ line: AsyncStream<String>.Continuation) {
        self.line = line
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        line.yield("\(event.message)")
    }
}
