import Foundation
import GRDB
import Logging
import PetAPI
@testable import PetServer
import PetSpotDomain
import Testing

@Suite(.timeLimit(.minutes(1))) struct SQLiteAnimalStoreTests {
    @Test(arguments: AnimalStoreContract.allCases)
    func givenFreshTemporaryDatabase_whenContractCaseRuns_thenItHolds(_ contractCase: AnimalStoreContract) async throws {
        try await contractCase.run(on: AnimalFixtures.sqliteStore())
    }

    @Test func givenStoredAnimals_whenDatabaseIsReopened_thenTheyAreStillThereAndSearchable() async throws {
        let path = AnimalFixtures.temporaryDatabasePath()
        let animal = try AnimalFixtures.animal("survivor", lat: 52.23, lon: 21.01)
        do {
            let store = try SQLiteAnimalStore(path: path)
            try await store.insert([animal])
        }
        let reopened = try SQLiteAnimalStore(path: path)
        #expect(try await reopened.animal(id: "survivor") == animal)
        let nearby = try await reopened.animals(matching: AnimalQuery(center: try GeoCoordinate(latitude: 52.2, longitude: 21)))
        #expect(nearby.animals.map(\.id) == ["survivor"])
    }

    @Test func givenStoredPets_whenRowsAreWrittenWithPlainSQL_thenCountVersionAndNearbyFollow() async throws {
        let path = AnimalFixtures.temporaryDatabasePath()
        let store = try SQLiteAnimalStore(path: path)
        try await store.insert([
            try AnimalFixtures.animal("a", lat: 52.231, lon: 21.01), try AnimalFixtures.animal("b", lat: 52.232, lon: 21.01),
            try AnimalFixtures.animal("c", lat: -33.87, lon: 151.21),
        ])
        let warsaw = AnimalQuery(center: try GeoCoordinate(latitude: 52.23, longitude: 21.01))
        #expect(try await store.animals(matching: warsaw).animals.map(\.id) == ["a", "b"])
        var version = try await store.dataVersion()
        // Another program writing the file: no code of this store runs. (The sqlite3 shell would need
        // `PRAGMA recursive_triggers = ON` for REPLACE, as this store sets it.)
        var configuration = Configuration()
        configuration.prepareDatabase { try $0.execute(sql: "PRAGMA recursive_triggers = ON") }
        let outside = try DatabaseQueue(path: path, configuration: configuration)
        let writes = [
            "INSERT INTO pet (id, name, species, breed, sex, age_months, description, shelter_name, shelter_city, lat, lon, published_at) "
                + "VALUES ('d', 'Dora', 'dog', 'Mixed Breed', 'female', 12, 'A dog.', 'Shelter', 'Warsaw', 52.233, 21.01, 1700000000)",
            "DELETE FROM pet WHERE id = 'a'",
            "UPDATE pet SET lat = -33.88, lon = 151.2 WHERE id = 'b'",
            // REPLACE deletes the row it replaces: counted once, and the R*Tree drops its old point.
            "REPLACE INTO pet (id, name, species, breed, sex, age_months, description, shelter_name, shelter_city, lat, lon, published_at) "
                + "VALUES ('d', 'Dora', 'dog', 'Mixed Breed', 'female', 12, 'A dog.', 'Shelter', 'Warsaw', 52.234, 21.01, 1700000000)",
        ]
        for write in writes {
            try await outside.write { try $0.execute(sql: write) }
            let moved = try await store.dataVersion()
            #expect(moved != version, "\(write)")
            version = moved
        }
        #expect(try await store.count() == 3)
        let page = try await store.animals(matching: warsaw)
        #expect(page.animals.map(\.id) == ["d"])
        #expect(page.totalCount == 1)
        #expect(try await store.animals(matching: AnimalQuery()).totalCount == 3)
        try await outside.write { try $0.execute(sql: "UPDATE pet SET name = 'Dorota' WHERE id = 'd'") }
        #expect(try await store.animals(matching: warsaw).animals.map(\.name) == ["Dorota"])
        #expect(try await store.animals(matching: AnimalQuery()).animals.map(\.id) == ["d", "b", "c"].sorted())
        // The R*Tree holds exactly the table's points.
        let points = try await outside.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM pet_location") }
        #expect(points == 3)
    }

    /// The import took ids of up to 128 characters before they were counted in scalars: a pet stored
    /// then is still listed, fetched and withdrawn, never a corrupt row.
    @Test func givenAnIdStoredUnderTheOlderRule_whenListedFetchedAndWithdrawn_thenItIsServed() async throws {
        let path = AnimalFixtures.temporaryDatabasePath()
        let store = try SQLiteAnimalStore(path: path)
        try await store.insert([try AnimalFixtures.animal("older", lat: 52.231, lon: 21.01)])
        let older = String(repeating: "e\u{301}", count: 100)
        try await store.pool.write { try $0.execute(sql: "UPDATE pet SET id = ? WHERE id = 'older'", arguments: [older]) }
        #expect(try await store.animals(matching: AnimalQuery()).animals.map { Array($0.id.utf8) } == [Array(older.utf8)])
        let nearby = AnimalQuery(center: try GeoCoordinate(latitude: 52.23, longitude: 21.01))
        #expect(try await store.animals(matching: nearby).animals.count == 1)
        #expect(try await store.animal(id: older) != nil)
        #expect(try await AnimalImporter.importPets(
            try JSONSerialization.data(withJSONObject: [["id": older, "status": "removed"]]), into: store
        ) == ImportSummary(withdrawn: 1))
        #expect(try await store.count() == 0)
    }

    @Test func givenTheNewestPetWithdrawn_whenAnotherArrivesLaterTakingItsSeq_thenItIsListed() async throws {
        let store = try await AnimalFixtures.sqliteStore(
            [try AnimalFixtures.animal("a", lat: 52.231, lon: 21.01), try AnimalFixtures.animal("b", lat: 52.232, lon: 21.01)]
        )
        let warsaw = AnimalQuery(center: try GeoCoordinate(latitude: 52.23, longitude: 21.01))
        _ = try await store.animals(matching: warsaw)
        _ = try await store.apply([.withdrawn(id: "b", .adopted)], sync: false)
        #expect(try await store.animals(matching: warsaw).animals.map(\.id) == ["a"])
        // SQLite gives the new row b's rowid again: the R*Tree's point must be the new one.
        try await store.insert([try AnimalFixtures.animal("c", lat: 52.233, lon: 21.01)])
        #expect(try await store.animals(matching: warsaw).animals.map(\.id) == ["a", "c"])
        #expect(try await store.animals(matching: AnimalQuery()).animals.map(\.id) == ["a", "c"])
    }

    @Test func givenPetsUpdatedMovedAndWithdrawnRepeatedly_whenQueried_thenEveryAnswerIsTheBruteForceOne() async throws {
        let store = try await AnimalFixtures.sqliteStore(DemoPetGenerator().animals(count: 400))
        let center = try GeoCoordinate(latitude: 52.23, longitude: 21.01)
        var all = Dictionary(uniqueKeysWithValues: DemoPetGenerator().animals(count: 400).map { ($0.id, $0) })
        var random = SplitMix64(seed: 7)
        _ = try await store.animals(matching: AnimalQuery(center: center, radiusKm: 500))
        for round in 0..<20 {
            var changes: [AnimalChange] = []
            for id in all.keys.sorted().shuffled(using: &random).prefix(15) {
                if random.next() % 3 == 0 {
                    changes.append(.withdrawn(id: id, .adopted))
                    all[id] = nil
                } else if var pet = all[id] {
                    // Moved somewhere within a few hundred kilometres of Warsaw, or renamed in place.
                    if random.next() % 2 == 0 {
                        pet.location = try GeoCoordinate(
                            latitude: 52.23 + Double(random.next() % 400) / 100 - 2, longitude: 21.01 + Double(random.next() % 400) / 100 - 2
                        )
                    } else {
                        pet.name = "Renamed \(round)"
                        pet.species = Animal.Species.allCases[Int(random.next() % 5)]
                    }
                    changes.append(.listed(pet))
                    all[id] = pet
                }
            }
            _ = try await store.apply(changes, sync: false)
            let page = try await store.animals(matching: AnimalQuery(center: center, radiusKm: 300, limit: 100))
            let expected = all.values
                .map { ($0.id, GreatCircle.distanceKm(lat1: 52.23, lon1: 21.01, lat2: $0.location.latitude, lon2: $0.location.longitude)) }
                .filter { $0.1 <= 300 }
                .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            #expect(page.totalCount == expected.count, "round \(round)")
            #expect(page.animals.map(\.id) == expected.prefix(100).map(\.0), "round \(round)")
            // Every field as last written: a renamed pet's rows follow too.
            #expect(page.animals.map { pet in var pet = pet; pet.distanceKm = nil; return pet } == expected.prefix(100).map { all[$0.0]! })
            let newest = try await store.animals(matching: AnimalQuery(limit: 100, page: 2))
            let byTime = all.values.sorted { ($0.publishedAt, $1.id) > ($1.publishedAt, $0.id) }
            #expect(newest.animals == Array(byTime[100..<200]), "round \(round)")
            // The filters see each change of species too.
            let cats = try await store.animals(matching: AnimalQuery(filter: AnimalFilter(species: [.cat])))
            #expect(cats.totalCount == all.values.filter { $0.species == .cat }.count, "round \(round)")
        }
    }

    @Test func givenADatabaseAtMigrationV8WithPets_whenOpened_thenNearbyAndListingsAnswerTheSamePets() async throws {
        let path = AnimalFixtures.temporaryDatabasePath()
        let pets = DemoPetGenerator().animals(count: 300)
        do {
            // The schema and the writes of the previous release: its triggers, its change log.
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true
            )
            let old = try DatabaseQueue(path: path)
            try SQLiteAnimalStore.migrator.migrate(old, upTo: "v8: a log of updates and deletes for the position index")
            try await old.write { db in
                for pet in pets {
                    try db.execute(sql: """
                        INSERT INTO pet (id, name, species, breed, sex, age_months, description, photo_url, shelter_name, shelter_city, lat, lon, published_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                        """, arguments: [
                            pet.id, pet.name, pet.species.rawValue, pet.breed, pet.sex.rawValue, pet.ageMonths, pet.description,
                            pet.photoURL?.absoluteString, pet.shelter.name, pet.shelter.city, pet.location.latitude,
                            pet.location.longitude, pet.publishedAt.timeIntervalSince1970,
                        ])
                }
                try db.execute(sql: "DELETE FROM pet WHERE id = ?", arguments: [pets[0].id])
            }
            try old.close()
        }
        let store = try SQLiteAnimalStore(path: path)
        let kept = Array(pets.dropFirst())
        #expect(try await store.count() == kept.count)
        let center = try GeoCoordinate(latitude: 52.23, longitude: 21.01)
        let page = try await store.animals(matching: AnimalQuery(center: center, radiusKm: 300, limit: 100))
        let expected = kept.map { ($0.id, GreatCircle.distanceKm(center, $0.location)) }.filter { $0.1 <= 300 }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        #expect(!expected.isEmpty)
        #expect(page.totalCount == expected.count)
        #expect(page.animals.map(\.id) == expected.prefix(100).map(\.0))
        let newest = kept.sorted { ($0.publishedAt, $1.id) > ($1.publishedAt, $0.id) }
        #expect(try await store.animals(matching: AnimalQuery(limit: 100)).animals == Array(newest.prefix(100)))
    }

    @Test func givenThousandsOfPetsInTheRadius_whenTheNearestPageIsAsked_thenFarFewerAreMeasured() async throws {
        // 4,000 pets evenly over a square of 100 km around Warsaw: about 3,100 within 50 km.
        var random = SplitMix64(seed: 11)
        let km = 1 / AnimalFixtures.kmPerDegree
        let pets = try (0..<4_000).map { index in
            try AnimalFixtures.animal(
                String(format: "e%04d", index), lat: 52.23 + (random.unit() * 100 - 50) * km,
                lon: 21.01 + (random.unit() * 100 - 50) * km / cos(52.23 * .pi / 180)
            )
        }
        let store = try await AnimalFixtures.sqliteStore(pets, countCap: 100)
        let center = try GeoCoordinate(latitude: 52.23, longitude: 21.01)
        let inRadius = pets.map { ($0.id, GreatCircle.distanceKm(center, $0.location)) }.filter { $0.1 <= 50 }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        let before = store.distancesComputed
        let page = try await store.animals(matching: AnimalQuery(center: center, limit: 10, page: 2))
        let measured = store.distancesComputed - before
        #expect(page.animals.map(\.id) == inRadius[10..<20].map(\.0))
        #expect(page.totalCount == 100 && !page.totalCountIsExact)
        #expect(measured < inRadius.count / 2, "\(measured) distances for \(inRadius.count) pets in the radius")
    }

    @Test func givenOneNewFile_whenEightStoresOpenItAtOnce_thenEveryOneMigratesOrWaitsAndNoneFails() async throws {
        let path = AnimalFixtures.temporaryDatabasePath()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let store = try SQLiteAnimalStore(path: path)
                    try await store.insert([try AnimalFixtures.animal("pet-\(index)", lat: 1, lon: 1)])
                }
            }
            try await group.waitForAll()
        }
        #expect(try await SQLiteAnimalStore(path: path).count() == 8)
    }

    @Test func givenANearbyQueryAnswered_whenAnotherProcessAddsPetsNearby_thenTheNextQueryCountsAndRanksThem() async throws {
        let path = AnimalFixtures.temporaryDatabasePath()
        let server = try SQLiteAnimalStore(path: path)
        try await server.insert([try AnimalFixtures.animal("far", lat: 52.30, lon: 21.01)])
        let query = AnimalQuery(center: try GeoCoordinate(latitude: 52.23, longitude: 21.01))
        #expect(try await server.animals(matching: query).animals.map(\.id) == ["far"])
        // `petspot import` in another process: its own connection to the same file.
        try await SQLiteAnimalStore(path: path).insert([
            try AnimalFixtures.animal("near", lat: 52.231, lon: 21.01),
            try AnimalFixtures.animal("elsewhere", lat: -33.87, lon: 151.21),
        ])
        let after = try await server.animals(matching: query)
        #expect(after.animals.map(\.id) == ["near", "far"])
        #expect(after.totalCount == 2)
    }

    @Test func givenNewDatabase_whenOpened_thenItIsInWALMode() async throws {
        let path = AnimalFixtures.temporaryDatabasePath()
        let store = try SQLiteAnimalStore(path: path)
        try await store.insert([try AnimalFixtures.animal("one", lat: 1, lon: 1)])
        // SQLite keeps a "-wal" file beside the database exactly when it is in write-ahead-log mode.
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(try await store.journalMode() == "wal")
    }

    @Test func givenExistingDemoPets_whenSeedingAgainSkippingExisting_thenOnlyMissingOnesAreAdded() async throws {
        let store = try await AnimalFixtures.sqliteStore()
        #expect(try await store.insert(streaming: DemoPetGenerator().sequence(count: 10), skippingExistingIDs: true) == 10)
        #expect(try await store.insert(streaming: DemoPetGenerator().sequence(count: 15), skippingExistingIDs: true) == 5)
        #expect(try await store.count() == 15)
        let everywhere = try await store.animals(matching: AnimalQuery(center: try GeoCoordinate(latitude: 0, longitude: 0), radiusKm: 500))
        #expect(everywhere.totalCount == 0)
    }

    @Test func givenEmptyDatabaseConfiguration_whenServerStartsTwice_thenItHolds500DemoPetsOnce() async throws {
        let path = AnimalFixtures.temporaryDatabasePath()
        let configuration = PetServerConfiguration(port: 0, database: path, logLevel: .error)
        for _ in 1...2 {
            let server = try await startPetServer(configuration: configuration)
            await server.stop()
            #expect(try await SQLiteAnimalStore(path: path).count() == 500)
        }
    }
}
