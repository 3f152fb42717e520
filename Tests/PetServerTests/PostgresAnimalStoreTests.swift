import Foundation
import Logging
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PetAPI
@testable import PetServer
import PetSpotDomain
import PostgresNIO
import Synchronization
import Testing

/// The store contract and PostgreSQL's own behaviour, against the server of `PETSPOT_POSTGRES_URL`.
@Suite(.enabled(if: PostgresTestDatabase.shouldRun, PostgresTestDatabase.skipMessage), .timeLimit(.minutes(1)))
struct PostgresAnimalStoreTests {
    @Test(arguments: AnimalStoreContract.allCases)
    func givenFreshSchema_whenContractCaseRuns_thenItHolds(_ contractCase: AnimalStoreContract) async throws {
        try await PostgresTestDatabase.withFreshStore { store async throws in
            try await contractCase.run(on: store)
        }
    }

    @Test func givenSameDemoPetsInBothStores_whenSearchingAnywhere_thenPagesMatchSQLiteWithinTheDistanceTolerance() async throws {
        let animals = DemoPetGenerator().animals(count: 4_000)
        let sqlite = try await AnimalFixtures.sqliteStore(animals)
        try await PostgresTestDatabase.withFreshStore { postgres async throws in
            try await postgres.insert(animals)
            var random = SplitMix64(seed: 8)
            let centers = try AnimalStoreBenchmark.centers(count: 40) + (0..<20).map { _ in
                try GeoCoordinate(latitude: random.unit() * 180 - 90, longitude: random.unit() * 360 - 180)
            }
            for center in centers {
                for radius in [1.0, 10, 50, 500] {
                    for page in [1, 3, 30] {
                        let query = AnimalQuery(center: center, radiusKm: radius, limit: 40, page: page)
                        let expected = try await sqlite.animals(matching: query)
                        let actual = try await postgres.animals(matching: query)
                        let context: Comment = "center \(center), radius \(radius), page \(page)"
                        #expect(actual.animals.map(\.id) == expected.animals.map(\.id), context)
                        #expect(actual.totalCount == expected.totalCount && actual.totalCountIsExact == expected.totalCountIsExact, context)
                        for (mine, theirs) in zip(actual.animals, expected.animals) {
                            var same = mine
                            same.distanceKm = theirs.distanceKm
                            #expect(same == theirs, context)
                            let distance = try #require(theirs.distanceKm)
                            #expect(abs((mine.distanceKm ?? -1) - distance) <= AnimalStoreContract.distanceTolerance(distance), context)
                        }
                    }
                }
            }
            for page in [1, 7, 100] {
                let query = AnimalQuery(limit: 25, page: page)
                #expect(try await postgres.animals(matching: query) == sqlite.animals(matching: query))
            }
        }
    }

    @Test func givenThousandsOfPets_whenTheNearbyStatementIsExplained_thenTheIndexOrdersThemAndNothingSortsEveryMatch() async throws {
        try await PostgresTestDatabase.withFreshStore { store async throws in
            try await store.insert(DemoPetGenerator().animals(count: 20_000))
            let center = try GeoCoordinate(latitude: 52.23, longitude: 21.01)
            for filter in [AnimalFilter(), AnimalFilter(species: [.dog])] {
                let query = store.nearbyQuery(center: center, query: AnimalQuery(center: center, filter: filter, limit: 20, page: 2))
                let plan = try await store.withConnection { connection in
                    var lines: [String] = []
                    let explained = PostgresQuery(unsafeSQL: "EXPLAIN " + query.sql, binds: query.binds)
                    for try await line in try await connection.query(explained, logger: store.logger).decode(String.self) {
                        lines.append(line)
                    }
                    return lines.joined(separator: "\n")
                }
                // The page's last distance: a KNN scan of the GiST index, ordered by `<->`.
                #expect(plan.contains("Index Scan using pet_location"), "\(plan)")
                #expect(plan.contains("Order By: (location <->"), "\(plan)")
                // The pets up to it and the capped count are found by the index too, never by reading the table.
                let scans = plan.split(separator: "\n").filter { $0.contains("Seq Scan on pet") && !$0.contains("pet_stats") }
                #expect(scans.isEmpty, "\(plan)")
            }
        }
    }

    @Test func givenStoredAnimals_whenStoreIsOpenedAgain_thenMigrationIsKeptAndAnimalsRemain() async throws {
        try await PostgresTestDatabase.withFreshStore { store async throws in
            let animal = try AnimalFixtures.animal("survivor", lat: 52.23, lon: 21.01)
            try await store.insert([animal])
            let center = try GeoCoordinate(latitude: 52.2, longitude: 21)
            try await PostgresAnimalStore.withStore(store.configuration) { reopened in
                #expect(try await reopened.animal(id: "survivor") == animal)
                let nearby = try await reopened.animals(matching: AnimalQuery(center: center))
                #expect(nearby.animals.map(\.id) == ["survivor"])
            }
        }
    }

    @Test func givenStoredPets_whenRowsAreWrittenWithPlainSQL_thenCountVersionAndNearbyFollow() async throws {
        try await PostgresTestDatabase.withFreshStore { store async throws in
            try await store.insert([
                try AnimalFixtures.animal("a", lat: 52.231, lon: 21.01), try AnimalFixtures.animal("b", lat: 52.232, lon: 21.01),
                try AnimalFixtures.animal("c", lat: -33.87, lon: 151.21),
            ])
            let warsaw = AnimalQuery(center: try GeoCoordinate(latitude: 52.23, longitude: 21.01))
            #expect(try await store.animals(matching: warsaw).totalCount == 2)
            var version = try await store.dataVersion()
            // psql, an older release during a rollout: no code of this store runs.
            let table = "\"\(store.configuration.schema)\".pet"
            let writes = [
                "INSERT INTO \(table) (id, name, species, breed, sex, age_months, description, shelter_name, shelter_city, lat, lon, published_at) "
                    + "VALUES ('d', 'Dora', 'dog', 'Mixed Breed', 'female', 12, 'A dog.', 'Shelter', 'Warsaw', 52.233, 21.01, 1700000000)",
                "DELETE FROM \(table) WHERE id = 'a'",
                "UPDATE \(table) SET lat = -33.88, lon = 151.2 WHERE id = 'b'",
                "UPDATE \(table) SET name = name WHERE id = 'nobody'",
                "UPDATE \(table) SET name = 'Dorota' WHERE id = 'd'",
            ]
            for write in writes {
                try await PostgresTestDatabase.execute(write)
                let moved = try await store.dataVersion()
                // A statement that changes no row changes nothing.
                #expect((moved != version) == !write.contains("nobody"), "\(write)")
                version = moved
            }
            #expect(try await store.count() == 3)
            let page = try await store.animals(matching: warsaw)
            #expect(page.animals.map(\.id) == ["d"])
            #expect(page.totalCount == 1)
            #expect(try await store.animals(matching: AnimalQuery()).totalCount == 3)
            try await PostgresTestDatabase.execute("TRUNCATE \(table)")
            #expect(try await store.count() == 0)
            #expect(try await store.dataVersion() != version)
            #expect(try await store.animals(matching: warsaw).totalCount == 0)
        }
    }

    @Test func givenPetsStoredUnderSchemaVersion8_whenAServerOfThisReleaseOpensIt_thenMigration9KeepsThemAndPostGISAnswers() async throws {
        var configuration = try PostgresTestDatabase.configuration()
        configuration.schema = PostgresTestDatabase.uniqueName("petspot_upgrade")
        let schema = configuration.schema
        // The database as the previous release left it: migrations 1 to 8, and pets written since.
        var statements = [
            #"CREATE SCHEMA "\#(schema)""#,
            #"CREATE TABLE "\#(schema)".petspot_migration (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"#,
        ]
        for step in PostgresMigration.steps(schema: schema) where step.version <= 8 {
            statements += step.sql
            statements.append(#"INSERT INTO "\#(schema)".petspot_migration (version, name) VALUES (\#(step.version), 'step')"#)
        }
        statements.append("""
            INSERT INTO "\(schema)".pet (id, name, species, breed, sex, age_months, description, shelter_name, shelter_city, lat, lon, published_at)
            SELECT 'p' || g, 'Pet ' || g, CASE WHEN g % 2 = 0 THEN 'dog' ELSE 'cat' END, 'Mixed Breed', 'female', g % 200, 'A pet.',
                   'Shelter', 'Warsaw', 52.0 + (g % 50) * 0.01, 21.0 + (g / 50) * 0.01, 1700000000 + g
            FROM generate_series(1, 600) AS g
            """)
        statements.append(#"DELETE FROM "\#(schema)".pet WHERE id = 'p7'"#)
        // In one transaction, as a migration runs (migration 5 locks the table).
        try await PostgresTestDatabase.execute(["BEGIN"] + statements + ["COMMIT"])
        do {
            try await PostgresAnimalStore.withStore(configuration) { upgraded in
                #expect(try await upgraded.count() == 599)
                // Off the grid's lines of symmetry: no two pets tie, which the engines would order by
                // their last bits.
                let center = try GeoCoordinate(latitude: 52.2013, longitude: 21.0517)
                let pets = (1...600).filter { $0 != 7 }.map { (g: Int) -> (id: String, distance: Double) in
                    let lat = 52.0 + Double(g % 50) * 0.01
                    let lon = 21.0 + Double(g / 50) * 0.01
                    return ("p\(g)", GreatCircle.distanceKm(lat1: 52.2013, lon1: 21.0517, lat2: lat, lon2: lon))
                }
                let near = pets.filter { $0.distance <= 10 }.sorted { ($0.distance, $0.id) < ($1.distance, $1.id) }
                let page = try await upgraded.animals(matching: AnimalQuery(center: center, radiusKm: 10, limit: 25))
                #expect(page.totalCount == near.count)
                #expect(page.animals.map(\.id) == near.prefix(25).map(\.id))
                let dogs = try await upgraded.animals(matching: AnimalQuery(filter: AnimalFilter(species: [.dog])))
                #expect(dogs.totalCount == 300)
                #expect(dogs.animals.first?.id == "p600")
                // Writes after the upgrade move the count and the version, by the new triggers.
                let version = try await upgraded.dataVersion()
                _ = try await upgraded.apply([.withdrawn(id: "p2", .adopted)], sync: false)
                #expect(try await upgraded.count() == 598)
                #expect(try await upgraded.dataVersion() == version + 1)
                // What kept an index in each replica's memory is gone.
                let left = try await upgraded.withConnection { connection in
                    try await connection.query("""
                        SELECT count(*) FROM information_schema.tables WHERE table_schema = \(schema) AND table_name IN ('pet_log', 'pet_cell')
                        """, logger: upgraded.logger).collect().first?.decode(Int.self)
                }
                #expect(left == 0)
            }
            try await PostgresTestDatabase.execute(#"DROP SCHEMA "\#(schema)" CASCADE"#)
        } catch {
            try? await PostgresTestDatabase.execute(#"DROP SCHEMA "\#(schema)" CASCADE"#)
            throw error
        }
    }

    @Test func givenAStatementOutlivingTheTimeout_whenTheServerEndsIt_thenTheCallerGetsTimedOutAndTheConnectionServesAgain() async throws {
        try await PostgresTestDatabase.withFreshStore { fresh async throws in
            var configuration = fresh.configuration
            configuration.operationTimeout = .seconds(1)
            configuration.poolSize = 1
            try await PostgresAnimalStore.withStore(configuration) { store async throws in
                // An hour: only the server's statement_timeout (the operation timeout) ends it in time.
                await #expect(throws: PostgresAnimalStoreError.timedOut(url: configuration.displayURL, after: .seconds(1))) {
                    try await store.withConnection { connection in
                        try await connection.query("SELECT pg_sleep(3600)", logger: store.logger).collect().count
                    }
                }
                // The pool's one connection came back in order.
                #expect(try await store.count() == 0)
            }
        }
    }

    @Test func givenAStatementTheServerDoesNotEnd_whenItOutlivesTheGrace_thenItsConnectionIsClosedAndTheNextCallGetsOne() async throws {
        try await PostgresTestDatabase.withFreshStore { fresh async throws in
            var configuration = fresh.configuration
            configuration.operationTimeout = .seconds(1)
            configuration.abandonedStatementGrace = .milliseconds(200)
            configuration.poolSize = 1
            try await PostgresAnimalStore.withStore(configuration) { store async throws in
                // A statement the server does not time out stands for one whose server vanished.
                await #expect(throws: PostgresAnimalStoreError.timedOut(url: configuration.displayURL, after: .seconds(1))) {
                    try await store.withConnection { connection in
                        try await PostgresAnimalStore.transaction(on: connection, logger: store.logger) {
                            try await connection.query("SET LOCAL statement_timeout = 0", logger: store.logger)
                            return try await connection.query("SELECT pg_sleep(3600)", logger: store.logger).collect().count
                        }
                    }
                }
                // The pool's one connection was closed under the statement: a new one serves.
                #expect(try await store.count() == 0)
            }
        }
    }

    @Test func givenTheOnlyConnectionHeldByABulkLoad_whenOthersWait_thenOneTimesOutOneIsCancelledAndTheLoadIsNotCut() async throws {
        try await PostgresTestDatabase.withFreshStore { fresh async throws in
            var configuration = fresh.configuration
            configuration.operationTimeout = .seconds(1)
            configuration.poolSize = 1
            try await PostgresAnimalStore.withStore(configuration) { store async throws in
                let stuck = StuckWork()
                try await withThrowingTaskGroup(of: Void.self) { loads in
                    // Unbounded once it has its connection: a load runs as long as it needs.
                    loads.addTask {
                        let answer = try await store.withConnection(bounded: false) { connection in
                            await stuck.wait()
                            return try await connection.query("SELECT 42", logger: store.logger).collect().first?.decode(Int.self)
                        }
                        #expect(answer == 42)
                    }
                    await stuck.untilWaiting(1)
                    // No connection within the timeout: timed out, bounded or not.
                    await #expect(throws: PostgresAnimalStoreError.timedOut(url: configuration.displayURL, after: .seconds(1))) {
                        try await store.withConnection(bounded: false) { _ in 0 }
                    }
                    // Waiting for a connection ends at once on cancellation.
                    let waiting = Task { try await store.withConnection { _ in 0 } }
                    waiting.cancel()
                    await #expect(throws: CancellationError.self) { try await waiting.value }
                    stuck.release()
                    try await loads.waitForAll()
                }
                #expect(try await store.count() == 0)
            }
        }
    }

    @Test func givenExistingDemoPets_whenSeedingAgainSkippingExisting_thenOnlyMissingOnesAreAdded() async throws {
        try await PostgresTestDatabase.withFreshStore { store async throws in
            #expect(try await store.insert(streaming: DemoPetGenerator().sequence(count: 10), skippingExistingIDs: true) == 10)
            #expect(try await store.insert(streaming: DemoPetGenerator().sequence(count: 15), skippingExistingIDs: true) == 5)
            #expect(try await store.count() == 15)
        }
    }

    @Test func givenDuplicateInALaterBatch_whenInserting_thenItsIndexCountsFromTheStartAndNothingIsStored() async throws {
        try await PostgresTestDatabase.withFreshStore { store async throws in
            var animals = DemoPetGenerator().animals(count: 12_000)
            animals[11_000].id = animals[3].id
            await #expect(throws: AnimalStoreError.duplicateID(index: 11_000, id: animals[3].id)) {
                try await store.insert(animals)
            }
            #expect(try await store.count() == 0)
        }
    }

    @Test func givenWrongPassword_whenOpening_thenConnectionRefusedNamesTheServer() async throws {
        var configuration = try PostgresTestDatabase.configuration()
        configuration.password = "not-the-password"
        let error = await #expect(throws: PostgresAnimalStoreError.self) {
            try await PostgresAnimalStore.withStore(configuration) { _ in }
        }
        guard case .connectionRefused(let url, let reason) = error else {
            Issue.record("expected connectionRefused, got \(String(describing: error))")
            return
        }
        #expect(url == configuration.displayURL)
        #expect(reason.contains("password authentication failed"))
        #expect(error?.description.contains("not-the-password") == false)
    }

    @Test func givenDatabaseWithoutPostGISAndNoRightToAddIt_whenOpening_thenSaysPostGISIsMissing() async throws {
        let name = PostgresTestDatabase.uniqueName("petspot_plain")
        let password = UUID().uuidString
        try await PostgresTestDatabase.execute(
            "CREATE ROLE \(name) LOGIN PASSWORD '\(password)'",
            "CREATE DATABASE \(name) OWNER \(name)"
        )
        var configuration = try PostgresTestDatabase.configuration()
        configuration.username = name
        configuration.password = password
        configuration.database = name
        let error = await #expect(throws: PostgresAnimalStoreError.self) {
            try await PostgresAnimalStore.withStore(configuration) { _ in }
        }
        try await PostgresTestDatabase.execute("DROP DATABASE \(name)", "DROP ROLE \(name)")
        guard case .postGISMissing(let url, let reason) = error else {
            Issue.record("expected postGISMissing, got \(String(describing: error))")
            return
        }
        #expect(url == configuration.displayURL)
        #expect(reason.contains("postgis"))
        #expect(error?.description.contains("CREATE EXTENSION postgis") == true)
    }
}

/// `petspot serve --database postgres://…`: the store is chosen by the URL, seeded once, served over HTTP.
@Suite(.enabled(if: PostgresTestDatabase.shouldRun, PostgresTestDatabase.skipMessage), .timeLimit(.minutes(1)))
struct PostgresServingTests {
    @Test func givenEmptyPostgresDatabaseURL_whenServerStartsTwice_thenItHolds500DemoPetsOnceAndServesThem() async throws {
        let schema = PostgresTestDatabase.uniqueName("petspot_serve")
        let base = try #require(PostgresTestDatabase.url)
        let url = base + (base.contains("?") ? "&" : "?") + "schema=\(schema)"
        let configuration = PetServerConfiguration(host: "127.0.0.1", port: 0, database: url, logLevel: .warning)
        let first = try await startPetServer(configuration: configuration)
        await first.stop()
        let server = try await startPetServer(configuration: configuration)
        let (data, response) = try await URLSession.shared.data(from: server.baseURL.appendingPathComponent("api/pets/demo-000001"))
        await server.stop()
        guard case .postgres(let postgres) = try DatabaseAddress(url) else { throw PostgresTestDatabase.NotConfigured() }
        let count = try await PostgresAnimalStore.withStore(postgres) { try await $0.count() }
        try await PostgresTestDatabase.execute(#"DROP SCHEMA "\#(schema)" CASCADE"#)

        #expect(count == PetServerConfiguration.defaultDemoPetCount)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self).contains(#""id":"demo-000001""#))
    }
}

/// Work that ignores cancellation, as a lease or a query on a connection that hangs may: it ends only
/// when ``release()`` is called.
private final class StuckWork: Sendable {
    private let state = Mutex<(waiting: [CheckedContinuation<Void, Never>], arrived: Int, watchers: [(Int, CheckedContinuation<Void, Never>)])>(([], 0, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state in
                state.waiting.append(continuation)
                state.arrived += 1
                let ready = state.watchers.filter { $0.0 <= state.arrived }.map(\.1)
                state.watchers.removeAll { $0.0 <= state.arrived }
                return ready
            }
            ready.forEach { $0.resume() }
        }
    }

    /// Returns once `count` calls of ``wait()`` have arrived in all.
    func untilWaiting(_ count: Int) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.arrived >= count { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    func release() {
        state.withLock { state in
            defer { state.waiting = [] }
            return state.waiting
        }.forEach { $0.resume() }
    }
}
