import AsyncSupport
import PetAPI
@testable import PetServer
import PetSpotDomain
import Testing

/// A replica answering from its copy in memory (`replica_lag_ms`): when it may, and when it must ask
/// the database. Time is a ``VirtualClock`` that only the test moves.
@Suite(.enabled(if: PostgresTestDatabase.shouldRun, PostgresTestDatabase.skipMessage), .timeLimit(.minutes(1)))
struct PostgresReplicaCopyTests {
    let clock = VirtualClock()
    let start = ContinuousClock.now
    let warsaw = AnimalQuery(center: try! GeoCoordinate(latitude: 52.23, longitude: 21.01))

    private func withCopy(lag: Duration = .seconds(1), _ body: (PostgresAnimalStore) async throws -> Void) async throws {
        let (clock, start) = (clock, start)
        try await PostgresTestDatabase.withFreshStore(replicaLag: lag, now: { start.advanced(by: clock.now.offset) }) { store in
            try await store.insert([
                try AnimalFixtures.animal("a", lat: 52.231, lon: 21.01), try AnimalFixtures.animal("b", lat: 52.232, lon: 21.01),
            ])
            // A read that begins after the write ends.
            clock.advance(by: .milliseconds(1))
            try await body(store)
        }
    }

    private func plainSQL(_ store: PostgresAnimalStore, _ statement: (String) -> String) async throws {
        try await PostgresTestDatabase.execute(statement("\"\(store.configuration.schema)\".pet"))
    }

    @Test func givenACopyConfirmed_whenAnotherWriterAddsAPet_thenTheCopyAnswersUntilTheLagHasPassed() async throws {
        try await withCopy { store in
            #expect(try await store.animals(matching: warsaw).totalCount == 2)
            #expect(store.memoryAnswers == 0)  // nothing confirmed before the first read
            try await plainSQL(store) { table in
                "INSERT INTO \(table) (id, name, species, breed, sex, age_months, description, shelter_name, shelter_city, lat, lon, published_at) "
                    + "VALUES ('c', 'Cleo', 'cat', 'Mixed Breed', 'female', 12, 'A cat.', 'Shelter', 'Warsaw', 52.233, 21.01, 1700000000)"
            }
            clock.advance(by: .milliseconds(999))
            let old = try await store.snapshot(matching: warsaw)
            #expect(old.page.totalCount == 2)
            #expect(old.dataVersion != (try await store.dataVersion()))  // it says which version it is of
            #expect(store.memoryAnswers == 1)
            clock.advance(by: .milliseconds(1))
            let new = try await store.snapshot(matching: warsaw)
            #expect(new.page.animals.map(\.id) == ["a", "b", "c"])
            #expect(new.dataVersion == (try await store.dataVersion()))
            #expect(try await store.animals(matching: AnimalQuery()).totalCount == 3)
            #expect(store.memoryAnswers == 2)
            #expect(store.positionIndexBuilds == 1)  // caught up from the log, rows included
        }
    }

    @Test func givenACopyConfirmed_whenThisReplicaWithdrawsAPet_thenItsNextReadNoLongerListsIt() async throws {
        try await withCopy(lag: .seconds(60)) { store in
            #expect(try await store.animals(matching: warsaw).totalCount == 2)
            _ = try await store.apply([.withdrawn(id: "a", .adopted)], sync: false)
            clock.advance(by: .milliseconds(1))
            #expect(try await store.animals(matching: warsaw).animals.map(\.id) == ["b"])
            #expect(try await store.animals(matching: AnimalQuery()).animals.map(\.id) == ["b"])
            #expect(store.memoryAnswers == 1)  // the first read after the write asked the database
        }
    }

    @Test func givenAReadThatBeganBeforeThisReplicasWriteEnded_whenItConfirmsAfterIt_thenTheCopyStillAsksTheDatabase() async throws {
        try await withCopy(lag: .seconds(60)) { store in
            _ = try await store.animals(matching: warsaw)
            let positions = try #require(store.positions)
            let copy = try #require(positions.latest)
            let readBegan = positions.now()
            clock.advance(by: .milliseconds(1))
            positions.noteOwnWrite()  // a write that ended after that read began
            positions.confirm(copy, readBegan: readBegan)  // the read's answer comes in after the write
            #expect(positions.fresh() == nil)
            clock.advance(by: .milliseconds(1))
            positions.confirm(copy, readBegan: positions.now())  // a read that began after the write
            #expect(positions.fresh() != nil)
        }
    }

    @Test func givenACopyConfirmed_whenTheDatabaseCannotBeReadPastTheLag_thenReadsFailInsteadOfAnsweringFromMemory() async throws {
        try await withCopy { store in
            #expect(try await store.animals(matching: warsaw).totalCount == 2)
            try await plainSQL(store) { "ALTER TABLE \($0) RENAME TO pet_away" }
            clock.advance(by: .milliseconds(500))
            #expect(try await store.animals(matching: warsaw).totalCount == 2)  // within the lag: from memory
            clock.advance(by: .milliseconds(500))
            await #expect(throws: (any Error).self) { try await store.animals(matching: warsaw) }
            await #expect(throws: (any Error).self) { try await store.animals(matching: AnimalQuery()) }
            try await PostgresTestDatabase.execute("ALTER TABLE \"\(store.configuration.schema)\".pet_away RENAME TO pet")
            #expect(try await store.animals(matching: warsaw).totalCount == 2)  // back, and confirmed again
            #expect(try await store.animals(matching: warsaw).totalCount == 2)
            #expect(store.memoryAnswers == 2)
        }
    }

    @Test func givenAPetWrittenByHandBreakingAFieldRule_whenAPageHoldsIt_thenThatPageFailsAndTheOthersAreAnswered() async throws {
        try await withCopy { store in
            try await plainSQL(store) { "UPDATE \($0) SET name = '' WHERE id = 'b'" }
            // As reading the page from the database would: the page holding it fails, and only that one.
            await #expect(throws: AnimalStoreError.corruptRow(id: "b", field: "name")) { try await store.animals(matching: warsaw) }
            await #expect(throws: AnimalStoreError.corruptRow(id: "b", field: "name")) { try await store.animals(matching: warsaw) }
            #expect(try await store.animals(matching: AnimalQuery(limit: 1)).animals.map(\.id) == ["a"])
            #expect(store.memoryAnswers == 2)
            try await plainSQL(store) { "UPDATE \($0) SET name = 'Bella' WHERE id = 'b'" }
            clock.advance(by: .seconds(1))
            #expect(try await store.animals(matching: warsaw).animals.map(\.name) == ["Pet a", "Bella"])
            #expect(store.positionIndexBuilds == 1)  // the mended row caught up, not built anew
        }
    }

    @Test func givenACopy_whenAnotherWriterRenamesDeletesAndRelistsPets_thenItCatchesUpToWhatTheDatabaseAnswers() async throws {
        try await withCopy { store in
            _ = try await store.animals(matching: warsaw)
            let columns = "id, name, species, breed, sex, age_months, description, shelter_name, shelter_city, lat, lon, published_at"
            try await plainSQL(store) { "UPDATE \($0) SET name = 'Renamed', published_at = 1770000000 WHERE id = 'a'" }
            try await plainSQL(store) { "DELETE FROM \($0) WHERE id = 'b'" }
            // The same id again: a new row, with a new seq.
            try await plainSQL(store) { table in
                "INSERT INTO \(table) (\(columns)) VALUES ('b', 'Back', 'cat', 'Mixed Breed', 'male', 30, 'Back again.', 'Shelter', 'Warsaw', 52.2301, 21.01, 1750000000)"
            }
            try await plainSQL(store) { table in
                "INSERT INTO \(table) (\(columns)) VALUES ('c', 'Cleo', 'cat', 'Mixed Breed', 'female', 12, 'A cat.', 'Shelter', 'Warsaw', 52.25, 21.01, 1760000000)"
            }
            clock.advance(by: .seconds(1))
            var direct = store.configuration
            direct.replicaLag = .zero
            let queries = [
                warsaw, AnimalQuery(), AnimalQuery(filter: AnimalFilter(species: [.cat])),
                AnimalQuery(center: warsaw.center, sort: .recent), AnimalQuery(limit: 1, page: 2),
            ]
            try await PostgresAnimalStore.withStore(direct) { database in
                for query in queries {
                    let fromDatabase = try await database.snapshot(matching: query)
                    #expect(try await store.snapshot(matching: query) == fromDatabase, "\(query)")
                }
            }
            #expect(try await store.animals(matching: AnimalQuery()).animals.map(\.name) == ["Renamed", "Cleo", "Back"])
            #expect(store.memoryAnswers == queries.count)  // all but the first after the writes
            #expect(store.positionIndexBuilds == 1)  // caught up from the log, rows included
        }
    }
}
