import Foundation
import PetAPI
import PetServer
import PetSpotDomain
import Testing

/// A read-only database, as a hot-standby read replica is: no migration is attempted.
@Suite(.enabled(if: PostgresTestDatabase.shouldRun, PostgresTestDatabase.skipMessage), .timeLimit(.minutes(1)))
struct PostgresReadReplicaTests {
    @Test func givenReadOnlyDatabase_whenOpening_thenMigratedSchemaIsReadAndUnmigratedOneIsRefusedClearly() async throws {
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
        var unmigrated = configuration
        unmigrated.schema = "not_migrated"
        let error = await #expect(throws: PostgresAnimalStoreError.self) {
            try await PostgresAnimalStore.withStore(unmigrated) { _ in }
        }
        try await PostgresTestDatabase.execute("DROP DATABASE \(name) WITH (FORCE)")

        #expect(nearby.animals.map(\.id) == ["replicated"])
        guard case .migrationFailed(_, let reason) = error else {
            Issue.record("expected migrationFailed, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("read-only"))
        #expect(reason.contains("not_migrated"))
    }
}
