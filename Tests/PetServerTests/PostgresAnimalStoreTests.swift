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
    /// How a replica answers: from PostGIS alone, ranking with its position index, or from its copy
    /// of every pet in memory (confirmed for an hour, so that only its own writes refresh it).
    enum ReadPath: String, CaseIterable, Sendable { case database, positionIndex, replicaCopy }

    /// Each case three times, once per ``ReadPath``.
    @Test(arguments: AnimalStoreContract.allCases, ReadPath.allCases)
    func givenFreshSchema_whenContractCaseRuns_thenItHolds(_ contractCase: AnimalStoreContract, path: ReadPath) async throws {
        try await PostgresTestDatabase.withFreshStore(
            positionIndex: path != .database, replicaLag: path == .replicaCopy ? .seconds(3600) : nil
        ) { store async throws in
            try await contractCase.run(on: store)
        }
    }

    @Test(arguments: [false, true])
    func givenSameDemoPetsInBothStores_whenSearchingAnywhere_thenPagesAreIdenticalToSQLite(fromCopy: Bool) async throws {
        let animals = DemoPetGenerator().animals(count: 4_000)
        let sqlite = try await AnimalFixtures.sqliteStore(animals)
        try await PostgresTestDatabase.withFreshStore(replicaLag: fromCopy ? .seconds(3600) : nil) { postgres async throws in
            try await postgres.insert(animals)
            var random = SplitMix64(seed: 8)
            let centers = AnimalStoreBenchmark.centers(count: 40) + (0..<20).map { _ in
                try! GeoCoordinate(latitude: random.unit() * 180 - 90, longitude: random.unit() * 360 - 180)
            }
            for center in centers {
                for radius in [1.0, 10, 50, 500] {
                    for page in 1...3 {
                        let query = AnimalQuery(center: center, radiusKm: radius, limit: 40, page: page)
                        let expected = try await sqlite.animals(matching: query)
                        let actual = try await postgres.animals(matching: query)
                        // Equal animals include equal distances, to the last bit.
                        #expect(actual == expected, "center \(center), radius \(radius), page \(page)")
                    }
                }
            }
            for page in [1, 7, 100] {
                let query = AnimalQuery(limit: 25, page: page)
                #expect(try await postgres.animals(matching: query) == sqlite.animals(matching: query))
            }
            // Every answer but the first came from the copy, or none did.
            #expect(postgres.memoryAnswers == (fromCopy ? centers.count * 12 + 3 - 1 : 0))
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
            // The position index followed every write from the log, without building again.
            #expect(store.positionIndexBuilds == 1)
            try await PostgresTestDatabase.execute("TRUNCATE \(table)")
            #expect(try await store.count() == 0)
            // The log starts after the very version the truncation moved to (one random draw).
            let (after, logStartsAfter) = try await store.withConnection { connection in
                try await connection.query(
                    #"SELECT version, log_starts_after FROM "\#(unescaped: store.configuration.schema)".pet_stats"#,
                    logger: Logger(label: "test")
                ).collect().first?.decode((Int, Int).self) ?? (0, -1)
            }
            #expect(after == logStartsAfter)
            #expect(try await store.dataVersion() != version)
            #expect(try await store.animals(matching: warsaw).totalCount == 0)
            #expect(store.positionIndexBuilds == 2)  // a truncation is not logged row by row
        }
    }

    @Test func givenPetsStoredUnderSchemaVersion6_whenAServerOfThisReleaseOpensIt_thenMigration7KeepsThemAndItsIndexAnswersAsPostGIS() async throws {
        var configuration = try PostgresTestDatabase.configuration()
        configuration.schema = PostgresTestDatabase.uniqueName("petspot_upgrade")
        let schema = configuration.schema
        // The database as the previous release left it: migrations 1 to 6, and pets written since.
        var statements = [
            #"CREATE SCHEMA "\#(schema)""#,
            #"CREATE TABLE "\#(schema)".petspot_migration (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())"#,
        ]
        for step in PostgresMigration.steps(schema: schema) where step.version <= 6 {
            statements += step.sql
            statements.append(#"INSERT INTO "\#(schema)".petspot_migration (version, name) VALUES (\#(step.version), 'step')"#)
        }
        statements.append("""
            INSERT INTO "\(schema)".pet (id, name, species, breed, sex, age_months, description, shelter_name, shelter_city, lat, lon, published_at)
            SELECT 'p' || g, 'Pet ' || g, CASE WHEN g % 2 = 0 THEN 'dog' ELSE 'cat' END, 'Mixed Breed', 'female', g % 200, 'A pet.',
                   'Shelter', 'Warsaw', 52.0 + (g % 50) * 0.01, 21.0 + (g / 50) * 0.01, 1700000000 + g
            FROM generate_series(1, 600) AS g
            """)
        // In one transaction, as a migration runs (migration 5 locks the table).
        try await PostgresTestDatabase.execute(["BEGIN"] + statements + ["COMMIT"])
        var plain = configuration
        plain.positionIndex = false
        do {
            try await PostgresAnimalStore.withStore(configuration) { upgraded in
                try await PostgresAnimalStore.withStore(plain) { postgis in
                    #expect(try await upgraded.count() == 600)
                    let center = try GeoCoordinate(latitude: 52.2, longitude: 21.05)
                    let queries = [
                        AnimalQuery(center: center, radiusKm: 10, limit: 25), AnimalQuery(center: center, radiusKm: 50, limit: 10, page: 4),
                        AnimalQuery(center: center, filter: AnimalFilter(species: [.dog])), AnimalQuery(filter: AnimalFilter(species: [.cat])),
                    ]
                    for query in queries {
                        #expect(try await upgraded.snapshot(matching: query) == postgis.snapshot(matching: query), "\(query)")
                    }
                    _ = try await upgraded.apply([.withdrawn(id: "p2", .adopted)], sync: false)
                    for query in queries {
                        #expect(try await upgraded.snapshot(matching: query) == postgis.snapshot(matching: query), "after an adoption: \(query)")
                    }
                    #expect(try await upgraded.count() == 599)
                    #expect(upgraded.positionIndexBuilds == 1)
                }
            }
            try await PostgresTestDatabase.execute(#"DROP SCHEMA "\#(schema)" CASCADE"#)
        } catch {
            try? await PostgresTestDatabase.execute(#"DROP SCHEMA "\#(schema)" CASCADE"#)
            throw error
        }
    }

    @Test func givenTwoReplicas_whenOneWrites_thenTheOtherAnswersFromItsCaughtUpIndexAsPostGISDoes() async throws {
        try await PostgresTestDatabase.withFreshStore { writer async throws in
            let animals = DemoPetGenerator().animals(count: 2_000)
            try await writer.insert(animals)
            var plain = writer.configuration
            plain.positionIndex = false
            try await PostgresAnimalStore.withStore(writer.configuration) { replica in
                try await PostgresAnimalStore.withStore(plain) { postgis in
                    let queries = AnimalStoreBenchmark.centers(count: 6).flatMap { center in
                        [AnimalQuery(center: center, radiusKm: 30, limit: 25), AnimalQuery(center: center, radiusKm: 300, limit: 10, page: 3),
                         AnimalQuery(center: center, filter: AnimalFilter(species: [.dog]), sort: .recent)]
                    } + [AnimalQuery(filter: AnimalFilter(species: [.cat], ageBands: [.baby]))]
                    func expectSameAnswers(_ step: String) async throws {
                        for query in queries {
                            #expect(try await replica.snapshot(matching: query) == postgis.snapshot(matching: query), "\(step): \(query)")
                        }
                    }
                    try await expectSameAnswers("before")
                    var moved = animals[7]
                    moved.location = animals[1_500].location
                    var renamed = animals[8]
                    renamed.name = "Renamed"
                    renamed.species = .cat
                    let summary = try await writer.apply([
                        .listed(moved), .listed(renamed), .withdrawn(id: animals[9].id, .adopted),
                        .listed(try AnimalFixtures.animal("new", lat: animals[3].location.latitude, lon: animals[3].location.longitude)),
                    ], sync: false)
                    #expect(summary == ImportSummary(added: 1, updated: 2, withdrawn: 1))
                    try await expectSameAnswers("after one import")
                    _ = try await writer.apply(animals.prefix(500).map { .listed($0) }, sync: true)
                    try await expectSameAnswers("after a sync")
                    #expect(replica.positionIndexBuilds == 1)
                    #expect(replica.positionIndexFallbacks == 0)  // every answer above came from the index
                }
            }
        }
    }

    @Test func givenADatabaseBackAtTheIndexsVersionByOtherChanges_whenAReplicaReads_thenItBuildsAgain() async throws {
        try await PostgresTestDatabase.withFreshStore { reader async throws in
            let warsaw = AnimalQuery(center: try GeoCoordinate(latitude: 52.23, longitude: 21.01))
            try await reader.insert([try AnimalFixtures.animal("a", lat: 52.231, lon: 21.01)])
            #expect(try await reader.animals(matching: warsaw).totalCount == 1)
            let version = try await reader.dataVersion()
            // As after a failover to a standby that lost the last transactions and took new ones: the
            // version is the index's again, the positions are not, and the log has moved on.
            let schema = reader.configuration.schema
            try await PostgresTestDatabase.execute(
                #"UPDATE "\#(schema)".pet SET lat = -33.87, lon = 151.21 WHERE id = 'a'"#,
                #"UPDATE "\#(schema)".pet_stats SET version = \#(version)"#
            )
            #expect(try await reader.dataVersion() == version)
            #expect(try await reader.animals(matching: warsaw).totalCount == 0)
            #expect(reader.positionIndexBuilds == 2)
            // As a database recreated from a dump: its log starts again and its version is below the
            // index's. Built once more, then kept.
            try await PostgresTestDatabase.execute(
                #"DELETE FROM "\#(schema)".pet_log"#,
                #"ALTER SEQUENCE "\#(schema)".pet_log_id_seq RESTART"#,
                #"UPDATE "\#(schema)".pet SET lat = 52.232, lon = 21.01 WHERE id = 'a'"#,
                #"UPDATE "\#(schema)".pet_stats SET version = \#(version - 5)"#
            )
            #expect(try await reader.animals(matching: warsaw).totalCount == 1)
            #expect(try await reader.animals(matching: warsaw).totalCount == 1)
            #expect(reader.positionIndexBuilds == 3)
        }
    }

    @Test func givenADatabaseRestoredFromADump_whenOtherWritesFollow_thenTheReplicaDoesNotMistakeThemForItsOwnHistory() async throws {
        try await PostgresTestDatabase.withFreshStore { store async throws in
            let schema = store.configuration.schema
            let warsaw = AnimalQuery(center: try GeoCoordinate(latitude: 52.23, longitude: 21.01))
            let p = try AnimalFixtures.animal("p", lat: 52.231, lon: 21.01)
            let q = try AnimalFixtures.animal("q", lat: 52.232, lon: 21.01)
            try await store.insert([p, q])
            #expect(try await store.animals(matching: warsaw).totalCount == 2)
            // The dump: the version and the newest log id as they are now.
            let dumped = try await store.withConnection { connection in
                try await connection.query(
                    #"SELECT version, (SELECT max(id) FROM "\#(unescaped: schema)".pet_log) FROM "\#(unescaped: schema)".pet_stats"#,
                    logger: Logger(label: "test")
                ).collect().first?.decode((Int, Int64).self) ?? (0, Int64(0))
            }
            // What happens after the dump and is lost with it: p leaves for Sydney. The index follows.
            var gone = p
            gone.location = try GeoCoordinate(latitude: -33.87, longitude: 151.21)
            _ = try await store.apply([.listed(gone)], sync: false)
            #expect(try await store.animals(matching: warsaw).animals.map(\.id) == ["q"])
            // The dump is restored (as pg_restore loads data: no trigger runs).
            try await PostgresTestDatabase.execute([
                #"ALTER TABLE "\#(schema)".pet DISABLE TRIGGER USER"#,
                #"UPDATE "\#(schema)".pet SET lat = 52.231, lon = 21.01 WHERE id = 'p'"#,
                #"ALTER TABLE "\#(schema)".pet ENABLE TRIGGER USER"#,
                #"DELETE FROM "\#(schema)".pet_cell"#,
                #"INSERT INTO "\#(schema)".pet_cell SELECT cell_row, cell_col, count(*) FROM "\#(schema)".pet GROUP BY cell_row, cell_col"#,
                #"DELETE FROM "\#(schema)".pet_log WHERE id > \#(dumped.1)"#,
                #"SELECT setval('"\#(schema)".pet_log_id_seq', \#(dumped.1))"#,
                #"UPDATE "\#(schema)".pet_stats SET version = \#(dumped.0)"#,
            ])
            // Other writes follow, as many log entries as the lost one: q leaves instead.
            var left = q
            left.location = gone.location
            _ = try await store.apply([.listed(left)], sync: false)

            // With steps of one the database would now be at the index's version and newest log id,
            // and the index would answer q.
            #expect(try await store.animals(matching: warsaw).animals.map(\.id) == ["p"])
            #expect(try await store.animals(matching: warsaw).animals.map(\.id) == ["p"])
        }
    }

    @Test func givenTheLogEntryTheIndexWasLastBroughtToIsAnotherOne_whenAReplicaCatchesUp_thenItBuildsAgain() async throws {
        try await PostgresTestDatabase.withFreshStore { store async throws in
            let schema = store.configuration.schema
            let warsaw = AnimalQuery(center: try GeoCoordinate(latitude: 52.23, longitude: 21.01))
            try await store.insert([try AnimalFixtures.animal("p", lat: 52.231, lon: 21.01)])
            #expect(try await store.animals(matching: warsaw).totalCount == 1)
            let marker = try #require(store.positions?.latest?.lastChange)
            // As in a restored database whose log's ids started again: an entry with the same id,
            // logged under another version.
            try await PostgresTestDatabase.execute(#"UPDATE "\#(schema)".pet_log SET version = version - 1 WHERE id = \#(marker)"#)
            try await store.insert([try AnimalFixtures.animal("q", lat: 52.232, lon: 21.01)])

            #expect(try await store.animals(matching: warsaw).totalCount == 2)
            #expect(store.positionIndexBuilds == 2)
        }
    }

    @Test func givenAnIndexBuiltOnAnEmptyLog_whenAnotherHistoryFollows_thenTheReplicaBuildsAgain() async throws {
        try await PostgresTestDatabase.withFreshStore { store async throws in
            let schema = store.configuration.schema
            let warsaw = AnimalQuery(center: try GeoCoordinate(latitude: 52.23, longitude: 21.01))
            try await store.insert([try AnimalFixtures.animal("p", lat: 52.231, lon: 21.01)])
            try await PostgresTestDatabase.execute(#"DELETE FROM "\#(schema)".pet_log"#)
            #expect(try await store.animals(matching: warsaw).totalCount == 1)
            let built = try #require(store.positions?.latest)
            #expect(built.lastChange == 0)
            // Another history, as a restored database may have: p left for Sydney, logged under a
            // version below the index's; the count stays the same.
            try await PostgresTestDatabase.execute([
                #"UPDATE "\#(schema)".pet SET lat = -33.87, lon = 151.21 WHERE id = 'p'"#,
                #"UPDATE "\#(schema)".pet_log SET version = \#(built.version - 1)"#,
                #"UPDATE "\#(schema)".pet_stats SET version = \#(built.version - 1)"#,
            ])
            try await store.insert([try AnimalFixtures.animal("r", lat: 52.232, lon: 21.01)])

            #expect(try await store.animals(matching: warsaw).animals.map(\.id) == ["r"])
            #expect(store.positionIndexBuilds == 2)
        }
    }

    @Test func givenAWrite_whenItMovesTheDataVersion_thenByARandomStepNotByOne() async throws {
        try await PostgresTestDatabase.withFreshStore { store async throws in
            var versions = [try await store.dataVersion()]
            for id in ["a", "b", "c"] {
                try await store.insert([try AnimalFixtures.animal(id, lat: 52.231, lon: 21.01)])
                versions.append(try await store.dataVersion())
            }
            let steps = zip(versions.dropFirst(), versions).map { $0 - $1 }
            #expect(steps.allSatisfy { $0 >= 1 })
            #expect(steps.contains { $0 > 1 }, "\(steps)")
        }
    }

    @Test func givenAnIndexNewerThanAReadsSnapshot_whenThatReadAsks_thenPostGISAnswersAndTheIndexStays() async throws {
        try await PostgresTestDatabase.withFreshStore { store async throws in
            try await store.insert([try AnimalFixtures.animal("a", lat: 52.231, lon: 21.01)])
            _ = try await store.animals(matching: AnimalQuery(center: try GeoCoordinate(latitude: 52.23, longitude: 21.01)))
            let positions = try #require(store.positions)
            let latest = try #require(positions.latest)
            // A read whose snapshot was taken before another read caught the index up.
            let older = PostgresPositionIndex.Stats(
                version: latest.version - 1, pets: 0, logStartsAfter: 0, lastLogID: latest.lastChange - 1
            )
            let answered = try await store.withConnection { connection in try await positions.index(at: older, on: connection, readBegan: .now) != nil }
            #expect(!answered)
            #expect(store.positionIndexBuilds == 1)
            #expect(positions.latest?.version == latest.version)
        }
    }

    @Test func givenAReplicaFurtherBehindThanTheKeptLog_whenItReads_thenItBuildsAgainAndAnswersRight() async throws {
        try await PostgresTestDatabase.withFreshStore { reader async throws in
            let warsaw = AnimalQuery(center: try GeoCoordinate(latitude: 52.23, longitude: 21.01))
            try await reader.insert([try AnimalFixtures.animal("a", lat: 52.231, lon: 21.01)])
            #expect(try await reader.animals(matching: warsaw).totalCount == 1)
            var pruning = reader.configuration
            pruning.keptLogEntries = 1
            try await PostgresAnimalStore.withStore(pruning) { writer in
                for id in ["b", "c", "d"] {
                    try await writer.insert([try AnimalFixtures.animal(id, lat: 52.232, lon: 21.01)])
                }
                #expect(try await reader.animals(matching: warsaw).totalCount == 4)
                #expect(reader.positionIndexBuilds == 2)
                try await writer.insert([try AnimalFixtures.animal("e", lat: 52.233, lon: 21.01)])
                #expect(try await reader.animals(matching: warsaw).totalCount == 5)
                #expect(reader.positionIndexBuilds == 2)  // one entry behind: the kept one
            }
        }
    }

    @Test func givenWorkThatIgnoresCancellation_whenItOutlivesTheTimeout_thenTheCallerGetsTimedOutWithoutWaiting() async throws {
        try await PostgresTestDatabase.withFreshStore { fresh async throws in
            var configuration = fresh.configuration
            configuration.operationTimeout = .seconds(1)
            try await PostgresAnimalStore.withStore(configuration) { store in
                // Opened only after the call returned: a caller that waited for the work would never return.
                let stuck = StuckWork()
                await #expect(throws: PostgresAnimalStoreError.timedOut(url: configuration.displayURL, after: .seconds(1))) {
                    try await store.withConnection { _ in await stuck.wait() }
                }
                let error = await withTaskGroup(of: (any Error)?.self) { group in
                    group.addTask {
                        do { try await store.withConnection(timeoutAfterLease: false) { _ in await stuck.wait() } } catch { return error }
                        return nil
                    }
                    await stuck.untilWaiting(2)
                    group.cancelAll()
                    return await group.next() ?? nil
                }
                #expect(error is CancellationError)
                stuck.release()
            }
        }
    }

    @Test func givenAStatementOutlivingTheTimeout_whenTheCallerGivesUp_thenTheNextCallGetsAConnection() async throws {
        try await PostgresTestDatabase.withFreshStore { fresh async throws in
            var configuration = fresh.configuration
            configuration.operationTimeout = .seconds(1)
            configuration.poolSize = 1
            configuration.abandonedWorkGrace = .zero
            try await PostgresAnimalStore.withStore(configuration) { store async throws in
                // A statement the server does not time out stands for one whose server vanished.
                await #expect(throws: PostgresAnimalStoreError.timedOut(url: configuration.displayURL, after: .seconds(1))) {
                    try await store.withConnection { connection in
                        try await PostgresAnimalStore.transaction(on: connection, logger: store.logger) {
                            try await connection.query("SET LOCAL statement_timeout = 0", logger: store.logger)
                            try await connection.query("SELECT pg_sleep(20)", logger: store.logger)
                        }
                    }
                }
                // The pool's one connection was held by the sleeping statement: closed, a new one serves.
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
