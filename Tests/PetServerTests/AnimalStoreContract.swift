import Foundation
import PetAPI
import PetServer
import PetSpotDomain
import Testing

/// The behaviour every ``AnimalStore`` must show. A store's suite runs each case against a fresh, empty
/// store from its own factory, with the default count cap: `@Test(arguments: AnimalStoreContract.allCases)`.
///
/// Distances are each engine's own (SQLite: ``GreatCircle``'s haversine; PostGIS: its sphere, of a
/// radius 2.9 cm smaller): they agree with the haversine oracle here within ``distanceTolerance``, and
/// the order is the same (no test point lies that close to another's distance or to the radius).
enum AnimalStoreContract: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case givenEmptyStore_whenListing_thenEmptyPageWithZeroTotal
    case givenAnimals_whenListingWithoutCenter_thenAllNewestFirstTiesByIdWithoutDistance
    case givenAnimals_whenSearchingNearby_thenOnlyThoseWithinRadiusNearestFirstWithDistance
    case givenEqualDistances_whenSearchingNearby_thenTiesBrokenById
    case givenAnimalsJustInsideAndOutside_whenSearchingNearby_thenRadiusEdgeRespected
    case givenAnimalAcrossAntimeridian_whenSearchingNearby_thenFoundAbout22KmAway
    case givenAnimalBeyondNorthPole_whenSearchingFrom89_9_thenFoundOnFarSide
    case givenAnimalBeyondSouthPoleAndWideRadius_whenSearchingNearby_thenFound
    case givenManyAnimals_whenPaging_thenPagesPartitionTheOrderedResult
    case givenPageBeyondEnd_whenListing_thenEmptyPageWithTotalCount
    case givenAnimal_whenFetchingById_thenEveryFieldRoundTrips
    case givenUnknownId_whenFetchingById_thenNil
    case givenDuplicateIdInBatch_whenInserting_thenNothingIsStored
    case givenAnimalBreakingAFieldRule_whenInserting_thenRefusedNamingItAndNothingIsStored
    case givenInserts_whenCountingAndVersioning_thenBothFollowEveryAdditionAndNothingElse
    case givenTiedPublicationTimes_whenPagingByCursor_thenPagesPartitionTheNewestFirstListing
    case givenRandomWorldwideAnimals_whenSearchingAnywhere_thenSameAsBruteForce
    case givenPetsAtThePolesTheAntimeridianAndEquivalentIds_whenWalkedEveryWay_thenAsTheOracle
    case givenStoredPets_whenAFeedChangesOneAndRepeatsAnother_thenOneIsReplacedAndTheOtherMovesNoVersion
    case givenAPetNearby_whenAdopted_thenItLeavesEveryListingAndCountAndSaysWhy
    case givenAWithdrawnPet_whenListedAgain_thenItIsBack
    case givenStoredPets_whenSyncedWithAFeed_thenThoseItDoesNotNameAreRemoved
    case givenABadRecordAmongChanges_whenApplied_thenNothingChanges
    case givenAWithdrawalWhoseIdHoldsANul_whenApplied_thenRefusedAndThePetItStartsWithStays
    case givenMixedPets_whenFilteringAndSorting_thenSameAsBruteForce
    case givenAFilteredListing_whenAPetChangesSpeciesOrIsAdopted_thenItFollows
    case givenMorePetsThanTheCountCap_whenListing_thenTheCountStopsAtTheCapAndSaysSo

    var testDescription: String { rawValue }

    func run(on store: any AnimalStore) async throws {
        let warsaw = AnimalQuery(center: try GeoCoordinate(latitude: 52.23, longitude: 21.01))
        switch self {
        case .givenStoredPets_whenAFeedChangesOneAndRepeatsAnother_thenOneIsReplacedAndTheOtherMovesNoVersion:
            let first = try AnimalFixtures.animal("a", lat: 52.231, lon: 21.01)
            let second = try AnimalFixtures.animal("b", lat: 52.232, lon: 21.01)
            _ = try await store.apply([.listed(first), .listed(second)], sync: false)
            let version = try await store.dataVersion()
            #expect(try await store.apply([.listed(first), .listed(second)], sync: false) == ImportSummary(unchanged: 2))
            #expect(try await store.dataVersion() == version)
            _ = try await store.animals(matching: warsaw)  // an index built before the move must follow it
            var renamed = second
            renamed.name = "Renamed"
            renamed.location = try GeoCoordinate(latitude: -33.87, longitude: 151.21)
            #expect(try await store.apply([.listed(first), .listed(renamed)], sync: false) == ImportSummary(updated: 1, unchanged: 1))
            #expect(try await store.dataVersion() != version)
            #expect(try await store.animal(id: "b") == renamed)
            #expect(try await store.animals(matching: warsaw).animals.map(\.id) == ["a"])
            #expect(try await store.count() == 2)

        case .givenAPetNearby_whenAdopted_thenItLeavesEveryListingAndCountAndSaysWhy:
            try await store.insert([
                try AnimalFixtures.animal("stays", lat: 52.231, lon: 21.01), try AnimalFixtures.animal("adopted", lat: 52.232, lon: 21.01),
            ])
            _ = try await store.animals(matching: warsaw)  // an index built before the change must follow it
            #expect(try await store.apply([.withdrawn(id: "adopted", .adopted)], sync: false) == ImportSummary(withdrawn: 1))
            let nearby = try await store.animals(matching: warsaw)
            #expect(nearby.animals.map(\.id) == ["stays"])
            #expect(nearby.totalCount == 1)
            #expect(try await store.animals(matching: AnimalQuery()).totalCount == 1)
            #expect(try await store.count() == 1)
            #expect(try await store.animal(id: "adopted") == nil)
            #expect(try await store.withdrawal(id: "adopted") == .adopted)
            #expect(try await store.withdrawal(id: "stays") == nil)

        case .givenAWithdrawnPet_whenListedAgain_thenItIsBack:
            let pet = try AnimalFixtures.animal("back", lat: 52.231, lon: 21.01)
            _ = try await store.apply([.listed(pet)], sync: false)
            _ = try await store.apply([.withdrawn(id: "back", .removed)], sync: false)
            #expect(try await store.apply([.listed(pet)], sync: false) == ImportSummary(added: 1))
            #expect(try await store.withdrawal(id: "back") == nil)
            #expect(try await store.animals(matching: warsaw).animals.map(\.id) == ["back"])

        case .givenStoredPets_whenSyncedWithAFeed_thenThoseItDoesNotNameAreRemoved:
            try await store.insert(try ["a", "b", "c", "d"].map { try AnimalFixtures.animal($0, lat: 52.231, lon: 21.01) })
            let summary = try await store.apply([
                .listed(try AnimalFixtures.animal("a", lat: 52.231, lon: 21.01)), .withdrawn(id: "b", .adopted),
                .listed(try AnimalFixtures.animal("e", lat: 52.231, lon: 21.01)),
            ], sync: true)
            #expect(summary == ImportSummary(added: 1, unchanged: 1, withdrawn: 3))
            #expect(try await store.animals(matching: AnimalQuery()).animals.map(\.id).sorted() == ["a", "e"])
            #expect(try await store.animals(matching: warsaw).totalCount == 2)
            #expect(try await store.count() == 2)
            #expect(try await store.withdrawal(id: "b") == .adopted)
            #expect(try await store.withdrawal(id: "c") == .removed)

        case .givenABadRecordAmongChanges_whenApplied_thenNothingChanges:
            try await store.insert([try AnimalFixtures.animal("kept", lat: 52.231, lon: 21.01)])
            let version = try await store.dataVersion()
            var bad = try AnimalFixtures.animal("bad", lat: 1, lon: 1)
            bad.name = ""
            await #expect(throws: AnimalStoreError.self) {
                _ = try await store.apply([.withdrawn(id: "kept", .adopted), .listed(bad)], sync: true)
            }
            #expect(try await store.count() == 1)
            #expect(try await store.dataVersion() == version)
            #expect(try await store.withdrawal(id: "kept") == nil)

        case .givenAWithdrawalWhoseIdHoldsANul_whenApplied_thenRefusedAndThePetItStartsWithStays:
            try await store.insert([try AnimalFixtures.animal("x", lat: 52.231, lon: 21.01)])
            let version = try await store.dataVersion()
            await #expect(throws: AnimalStoreError.invalidAnimal(
                index: 0, field: "id", message: "holds a control character (U+0000); text fields may not"
            )) {
                _ = try await store.apply([.withdrawn(id: "x\u{0}zzz", .adopted)], sync: false)
            }
            await #expect(throws: AnimalStoreError.invalidAnimal(index: 1, field: "id", message: AnimalID.storedLengthRule)) {
                _ = try await store.apply([.withdrawn(id: "y", .adopted), .withdrawn(id: String(repeating: "x", count: 129), .removed)], sync: false)
            }
            #expect(try await store.animal(id: "x") != nil)
            #expect(try await store.withdrawal(id: "y") == nil)
            #expect(try await store.dataVersion() == version)

        case .givenEmptyStore_whenListing_thenEmptyPageWithZeroTotal:
            let page = try await store.animals(matching: AnimalQuery())
            #expect(page == AnimalPage(animals: [], totalCount: 0))
            let nearby = try await store.animals(matching: AnimalQuery(center: try GeoCoordinate(latitude: 52.23, longitude: 21.01)))
            #expect(nearby.totalCount == 0)

        case .givenAnimals_whenListingWithoutCenter_thenAllNewestFirstTiesByIdWithoutDistance:
            let day = 86_400.0
            try await store.insert([
                try AnimalFixtures.animal("b", lat: 0, lon: 0, publishedAt: Date(timeIntervalSince1970: 10 * day)),
                try AnimalFixtures.animal("c", lat: 60, lon: 100, publishedAt: Date(timeIntervalSince1970: 30 * day)),
                try AnimalFixtures.animal("a", lat: -40, lon: -70, publishedAt: Date(timeIntervalSince1970: 10 * day)),
            ])
            let page = try await store.animals(matching: AnimalQuery())
            #expect(page.animals.map(\.id) == ["c", "a", "b"])
            #expect(page.animals.allSatisfy { $0.distanceKm == nil })
            #expect(page.totalCount == 3)

        case .givenAnimals_whenSearchingNearby_thenOnlyThoseWithinRadiusNearestFirstWithDistance:
            let km = 1 / AnimalFixtures.kmPerDegree
            try await store.insert([
                try AnimalFixtures.animal("far", lat: 52 + 30 * km, lon: 21),
                try AnimalFixtures.animal("near", lat: 52 + 5 * km, lon: 21),
                try AnimalFixtures.animal("out", lat: 52 + 80 * km, lon: 21),
                try AnimalFixtures.animal("mid", lat: 52 - 12 * km, lon: 21),
            ])
            let page = try await store.animals(matching: AnimalQuery(center: try GeoCoordinate(latitude: 52, longitude: 21)))
            #expect(page.animals.map(\.id) == ["near", "mid", "far"])
            #expect(page.totalCount == 3)
            let distances = page.animals.compactMap(\.distanceKm)
            #expect(distances.count == 3)
            for (distance, expected) in zip(distances, [5.0, 12.0, 30.0]) {
                #expect(abs(distance - expected) < 0.001)
            }

        case .givenEqualDistances_whenSearchingNearby_thenTiesBrokenById:
            try await store.insert([
                try AnimalFixtures.animal("z", lat: 10.1, lon: 10),
                try AnimalFixtures.animal("m", lat: 10.1, lon: 10),
                try AnimalFixtures.animal("a", lat: 10.1, lon: 10),
                try AnimalFixtures.animal("0-closest", lat: 10.05, lon: 10),
            ])
            let page = try await store.animals(matching: AnimalQuery(center: try GeoCoordinate(latitude: 10, longitude: 10), limit: 3))
            #expect(page.animals.map(\.id) == ["0-closest", "a", "m"])
            #expect(page.totalCount == 4)

        case .givenAnimalsJustInsideAndOutside_whenSearchingNearby_thenRadiusEdgeRespected:
            let km = 1 / AnimalFixtures.kmPerDegree
            try await store.insert([
                try AnimalFixtures.animal("inside", lat: 40 + 9.99 * km, lon: -3),
                try AnimalFixtures.animal("outside", lat: 40 - 10.01 * km, lon: -3),
                try AnimalFixtures.animal("east-inside", lat: 40, lon: -3 + 9.9 / (AnimalFixtures.kmPerDegree * cos(40 * .pi / 180))),
            ])
            let page = try await store.animals(matching: AnimalQuery(center: try GeoCoordinate(latitude: 40, longitude: -3), radiusKm: 10))
            #expect(Set(page.animals.map(\.id)) == ["inside", "east-inside"])

        case .givenAnimalAcrossAntimeridian_whenSearchingNearby_thenFoundAbout22KmAway:
            try await store.insert([
                try AnimalFixtures.animal("west-of-dateline", lat: 0, lon: -179.9),
                try AnimalFixtures.animal("far-west", lat: 0, lon: -179),
            ])
            let page = try await store.animals(matching: AnimalQuery(center: try GeoCoordinate(latitude: 0, longitude: 179.9), radiusKm: 50))
            #expect(page.animals.map(\.id) == ["west-of-dateline"])
            let distance = try #require(page.animals.first?.distanceKm)
            #expect(abs(distance - 0.2 * AnimalFixtures.kmPerDegree) < 0.01)

        case .givenAnimalBeyondNorthPole_whenSearchingFrom89_9_thenFoundOnFarSide:
            try await store.insert([
                try AnimalFixtures.animal("far-side", lat: 89.9, lon: -160),
                try AnimalFixtures.animal("too-far", lat: 89.0, lon: -160),
            ])
            let page = try await store.animals(matching: AnimalQuery(center: try GeoCoordinate(latitude: 89.9, longitude: 20), radiusKm: 50))
            #expect(page.animals.map(\.id) == ["far-side"])
            let distance = try #require(page.animals.first?.distanceKm)
            #expect(abs(distance - 0.2 * AnimalFixtures.kmPerDegree) < 0.01)

        case .givenAnimalBeyondSouthPoleAndWideRadius_whenSearchingNearby_thenFound:
            try await store.insert([
                try AnimalFixtures.animal("antarctic", lat: -89, lon: 150),
                try AnimalFixtures.animal("beyond-radius", lat: -86, lon: 150),
            ])
            // 3° to the pole and 1° beyond it: 4° ≈ 445 km; the other is 7° ≈ 778 km away.
            let page = try await store.animals(matching: AnimalQuery(center: try GeoCoordinate(latitude: -87, longitude: -30), radiusKm: 500))
            #expect(page.animals.map(\.id) == ["antarctic"])
            let distance = try #require(page.animals.first?.distanceKm)
            #expect(abs(distance - 4 * AnimalFixtures.kmPerDegree) < 0.01)

        case .givenManyAnimals_whenPaging_thenPagesPartitionTheOrderedResult:
            let km = 1 / AnimalFixtures.kmPerDegree
            let animals = try (0..<25).map { index in
                try AnimalFixtures.animal(String(format: "p%02d", index), lat: 30 + Double(25 - index) * km, lon: 30,
                                       publishedAt: Date(timeIntervalSince1970: Double(index) * 1000))
            }
            try await store.insert(animals)
            let center = try GeoCoordinate(latitude: 30, longitude: 30)
            var nearbyIds: [String] = []
            var newestIds: [String] = []
            for page in 1...3 {
                let nearby = try await store.animals(matching: AnimalQuery(center: center, limit: 10, page: page))
                #expect(nearby.totalCount == 25)
                nearbyIds += nearby.animals.map(\.id)
                newestIds += try await store.animals(matching: AnimalQuery(limit: 10, page: page)).animals.map(\.id)
            }
            let expected = (0..<25).reversed().map { String(format: "p%02d", $0) }
            #expect(nearbyIds == expected)
            #expect(newestIds == expected)

        case .givenPageBeyondEnd_whenListing_thenEmptyPageWithTotalCount:
            try await store.insert([try AnimalFixtures.animal("only", lat: 1, lon: 1)])
            let center = try GeoCoordinate(latitude: 1, longitude: 1)
            #expect(try await store.animals(matching: AnimalQuery(page: 2)) == AnimalPage(animals: [], totalCount: 1))
            #expect(try await store.animals(matching: AnimalQuery(limit: 100, page: .max)) == AnimalPage(animals: [], totalCount: 1))
            #expect(try await store.animals(matching: AnimalQuery(center: center, limit: 100, page: .max)) == AnimalPage(animals: [], totalCount: 1))

        case .givenAnimal_whenFetchingById_thenEveryFieldRoundTrips:
            var animal = try AnimalFixtures.animal("round-trip", lat: 52.229_676, lon: 21.012_229,
                                                species: .rabbit, photoURL: URL(string: "https://example.com/p.jpg"))
            animal.sex = .unknown
            animal.breed = "Holland Lop"
            animal.description = "Zażółć gęślą jaźń — ünïcödé 🐇"
            let plain = try AnimalFixtures.animal("no-photo", lat: -33.9, lon: 18.4, species: .bird)
            try await store.insert([animal, plain])
            #expect(try await store.animal(id: "round-trip") == animal)
            #expect(try await store.animal(id: "no-photo") == plain)

        case .givenUnknownId_whenFetchingById_thenNil:
            try await store.insert([try AnimalFixtures.animal("known", lat: 1, lon: 1)])
            #expect(try await store.animal(id: "unknown") == nil)
            #expect(try await store.animal(id: "") == nil)

        case .givenDuplicateIdInBatch_whenInserting_thenNothingIsStored:
            try await store.insert([try AnimalFixtures.animal("existing", lat: 1, lon: 1)])
            let batch = try [
                AnimalFixtures.animal("new-1", lat: 2, lon: 2),
                AnimalFixtures.animal("new-2", lat: 3, lon: 3),
                AnimalFixtures.animal("existing", lat: 4, lon: 4),
            ]
            await #expect(throws: AnimalStoreError.duplicateID(index: 2, id: "existing")) {
                try await store.insert(batch)
            }
            #expect(try await store.count() == 1)
            #expect(try await store.animal(id: "new-1") == nil)
            let nearby = try await store.animals(matching: AnimalQuery(center: try GeoCoordinate(latitude: 2, longitude: 2), radiusKm: 500))
            #expect(nearby.animals.map(\.id) == ["existing"])

        case .givenAnimalBreakingAFieldRule_whenInserting_thenRefusedNamingItAndNothingIsStored:
            // What is stored can always be read back: the stores check what they write as they check
            // what they read.
            var tooOld = try AnimalFixtures.animal("too-old", lat: 3, lon: 3)
            tooOld.ageMonths = 700
            let batch = [try AnimalFixtures.animal("fine", lat: 2, lon: 2), tooOld]
            await #expect(throws: AnimalStoreError.invalidAnimal(index: 1, field: "ageMonths", message: "must be between 0 and 600")) {
                try await store.insert(batch)
            }
            // A NUL would let SQLite read the id as "fine": every write path refuses control characters.
            let hostile = try AnimalFixtures.animal("fine\u{0}x", lat: 4, lon: 4)
            await #expect(throws: AnimalStoreError.invalidAnimal(
                index: 0, field: "id", message: "holds a control character (U+0000); text fields may not"
            )) {
                try await store.insert([hostile])
            }
            #expect(try await store.count() == 0)

        case .givenInserts_whenCountingAndVersioning_thenBothFollowEveryAdditionAndNothingElse:
            // The count is maintained, not counted; the version changes with every addition (ETags).
            #expect(try await store.count() == 0)
            let empty = try await store.dataVersion()
            try await store.insert([try AnimalFixtures.animal("a", lat: 1, lon: 1), try AnimalFixtures.animal("b", lat: 2, lon: 2)])
            #expect(try await store.count() == 2)
            let afterFirst = try await store.dataVersion()
            #expect(afterFirst != empty)
            await #expect(throws: AnimalStoreError.self) {
                try await store.insert([try AnimalFixtures.animal("c", lat: 3, lon: 3), try AnimalFixtures.animal("a", lat: 4, lon: 4)])
            }
            #expect(try await store.count() == 2)
            #expect(try await store.dataVersion() == afterFirst)
            try await store.insert([try AnimalFixtures.animal("c", lat: 3, lon: 3)])
            #expect(try await store.count() == 3)
            let afterSecond = try await store.dataVersion()
            #expect(afterSecond != afterFirst)
            #expect(try await store.animals(matching: AnimalQuery()).totalCount == 3)

        case .givenTiedPublicationTimes_whenPagingByCursor_thenPagesPartitionTheNewestFirstListing:
            // 23 animals over 5 publication times (many ties, broken by id), some with fractional seconds.
            let animals = try (0..<23).map { index in
                try AnimalFixtures.animal(
                    "pet-\(String(index * 7 % 23, radix: 36))", lat: 10, lon: Double(index) / 10,
                    publishedAt: Date(timeIntervalSince1970: 1_700_000_000.123_456 + Double(index % 5) * 0.25)
                )
            }
            try await store.insert(animals)
            let whole = try await store.animals(matching: AnimalQuery(limit: 100))
            #expect(whole.nextCursor == nil)
            var seen: [String] = []
            var cursor: AnimalCursor?
            var pages = 0
            repeat {
                let page = try await store.animals(matching: AnimalQuery(limit: 4, cursor: cursor))
                #expect(page.totalCount == 23)
                seen += page.animals.map(\.id)
                cursor = page.nextCursor
                pages += 1
            } while cursor != nil && pages < 10
            #expect(pages == 6)
            #expect(seen == whole.animals.map(\.id))
            // A numbered page says where the next one starts too, and the two ways agree.
            let second = try await store.animals(matching: AnimalQuery(limit: 4, page: 2))
            let third = try await store.animals(matching: AnimalQuery(limit: 4, cursor: second.nextCursor))
            #expect(third.animals.map(\.id) == Array(whole.animals.map(\.id)[8..<12]))

        case .givenRandomWorldwideAnimals_whenSearchingAnywhere_thenSameAsBruteForce:
            try await Self.compareWithBruteForce(store)

        case .givenPetsAtThePolesTheAntimeridianAndEquivalentIds_whenWalkedEveryWay_thenAsTheOracle:
            try await Self.compareCornersWithOracle(store)

        case .givenMixedPets_whenFilteringAndSorting_thenSameAsBruteForce:
            try await Self.compareFiltersWithBruteForce(store)

        case .givenAFilteredListing_whenAPetChangesSpeciesOrIsAdopted_thenItFollows:
            let cats = AnimalQuery(filter: AnimalFilter(species: [.cat]))
            var nearbyCats = warsaw
            nearbyCats.filter = cats.filter
            try await store.insert([
                try AnimalFixtures.animal("a", lat: 52.231, lon: 21.01, species: .cat),
                try AnimalFixtures.animal("b", lat: 52.232, lon: 21.01, species: .dog),
                try AnimalFixtures.animal("c", lat: 52.233, lon: 21.01, species: .cat),
            ])
            #expect(try await store.animals(matching: cats).totalCount == 2)
            #expect(try await store.animals(matching: nearbyCats).animals.map(\.id) == ["a", "c"])
            var dog = try #require(try await store.animal(id: "a"))
            dog.species = .dog
            // A change of species alone moves no count: the listings must still see it.
            _ = try await store.apply([.listed(dog)], sync: false)
            #expect(try await store.animals(matching: cats).animals.map(\.id) == ["c"])
            #expect(try await store.animals(matching: nearbyCats).animals.map(\.id) == ["c"])
            _ = try await store.apply([.withdrawn(id: "c", .adopted)], sync: false)
            #expect(try await store.animals(matching: cats) == AnimalPage(animals: [], totalCount: 0))
            #expect(try await store.animals(matching: nearbyCats) == AnimalPage(animals: [], totalCount: 0))
            var dogs = warsaw
            dogs.filter.species = [.dog]
            #expect(try await store.animals(matching: dogs).animals.map(\.id) == ["a", "b"])

        case .givenMorePetsThanTheCountCap_whenListing_thenTheCountStopsAtTheCapAndSaysSo:
            let cap = AnimalPage.defaultCountCap
            let km = 1 / AnimalFixtures.kmPerDegree
            // 1,005 pets north of Warsaw, 0.01 km apart, newest the nearest; every third a cat.
            try await store.insert(try (0..<(cap + 5)).map { index in
                try AnimalFixtures.animal(
                    String(format: "n%04d", index), lat: 52.23 + Double(index) * 0.01 * km, lon: 21.01,
                    publishedAt: Date(timeIntervalSince1970: 1_700_000_000 - Double(index)), species: index % 3 == 0 ? .cat : .dog
                )
            })
            let nearby = try await store.animals(matching: AnimalQuery(center: warsaw.center, limit: 20))
            #expect(nearby.totalCount == cap)
            #expect(!nearby.totalCountIsExact)
            #expect(nearby.animals.map(\.id) == (0..<20).map { String(format: "n%04d", $0) })
            // The pages end where the count stops: the last one is the cap's.
            let last = try await store.animals(matching: AnimalQuery(center: warsaw.center, limit: 20, page: 50))
            #expect(last.animals.map(\.id) == (980..<1000).map { String(format: "n%04d", $0) })
            let beyond = try await store.animals(matching: AnimalQuery(center: warsaw.center, limit: 20, page: 51))
            #expect(beyond == AnimalPage(animals: [], totalCount: cap, totalCountIsExact: false))
            // The whole listing is counted exactly; a filtered one up to the cap (335 cats: exact).
            let whole = try await store.animals(matching: AnimalQuery())
            #expect(whole.totalCount == cap + 5 && whole.totalCountIsExact)
            let dogs = try await store.animals(matching: AnimalQuery(filter: AnimalFilter(species: [.dog])))
            #expect(dogs.totalCount == 670 && dogs.totalCountIsExact)
            let pets = try await store.animals(matching: AnimalQuery(filter: AnimalFilter(species: [.dog, .cat])))
            #expect(pets.totalCount == cap && !pets.totalCountIsExact)
            var newest = warsaw
            newest.sort = .recent
            newest.limit = 3
            let recent = try await store.animals(matching: newest)
            #expect(recent.animals.map(\.id) == ["n0000", "n0001", "n0002"])
            #expect(recent.totalCount == cap && !recent.totalCountIsExact)
        }
    }

    /// How far a store's distance may be from the haversine oracle's: PostGIS's sphere is 2.9 cm
    /// smaller in radius (4.5e-9 of a distance); the rest is rounding.
    static func distanceTolerance(_ km: Double) -> Double { km * 1e-8 + 1e-9 }

    /// Pets of every species, sex and age around two cities, many published at the same moment; every
    /// filter, order and page, with and without coordinates, must equal a brute force over all of them,
    /// and paging by cursor through a filtered listing must partition it.
    private static func compareFiltersWithBruteForce(_ store: any AnimalStore) async throws {
        var random = SplitMix64(seed: 7)
        let cities = [(52.23, 21.01), (50.06, 19.94)]
        var animals: [Animal] = []
        for index in 0..<400 {
            let city = cities[random.index(cities.count)]
            var animal = try AnimalFixtures.animal(
                String(format: "m%03d", index), lat: city.0 + random.unit() * 0.6 - 0.3, lon: city.1 + random.unit() * 0.6 - 0.3,
                publishedAt: Date(timeIntervalSince1970: 1_760_000_000 + Double(random.index(40)) * 3600),
                species: Animal.Species.allCases[random.index(Animal.Species.allCases.count)]
            )
            animal.sex = Animal.Sex.allCases[random.index(Animal.Sex.allCases.count)]
            animal.ageMonths = [0, 5, 6, 23, 24, 95, 96, 600][random.index(8)]
            animals.append(animal)
        }
        try await store.insert(animals)
        func some<Value: CaseIterable & Hashable>(_: Value.Type) -> Set<Value> {
            random.index(3) == 0 ? [] : Set(Value.allCases.filter { _ in random.index(2) == 0 })
        }
        for round in 0..<60 {
            let filter = AnimalFilter(species: some(Animal.Species.self), sexes: some(Animal.Sex.self), ageBands: some(AgeBand.self))
            let city = cities[random.index(cities.count)]
            let center = round % 3 == 0 ? nil : try GeoCoordinate(latitude: city.0, longitude: city.1)
            let sort: AnimalSort? = center == nil || random.index(2) == 0 ? nil : .recent
            let query = AnimalQuery(center: center, radiusKm: [5.0, 20, 50][random.index(3)], filter: filter, sort: sort,
                                    limit: 1 + random.index(30), page: 1 + random.index(3))
            let expected = animals
                .filter(filter.keeps)
                .map { animal in (animal, center.map { GreatCircle.distanceKm($0, animal.location) }) }
                .filter { center == nil || $0.1 ?? 0 <= query.radiusKm }
                .sorted { a, b in
                    query.ordering == .recent
                        ? (-a.0.publishedAt.timeIntervalSince1970, a.0.id) < (-b.0.publishedAt.timeIntervalSince1970, b.0.id)
                        : (a.1 ?? 0, a.0.id) < (b.1 ?? 0, b.0.id)
                }
            let window = expected.dropFirst(query.offset).prefix(query.limit)
            let page = try await store.animals(matching: query)
            #expect(page.totalCount == expected.count, "\(query)")
            #expect(page.animals.map(\.id) == window.map(\.0.id), "\(query)")
            #expect(page.animals.map { $0.distanceKm == nil } == window.map { $0.1 == nil }, "\(query)")
            for (distance, oracle) in zip(page.animals.compactMap(\.distanceKm), window.compactMap(\.1)) {
                #expect(abs(distance - oracle) <= distanceTolerance(oracle), "\(query)")
            }
        }
        // Newest first nearby without a filter, once for certain.
        let warsaw = try GeoCoordinate(latitude: 52.23, longitude: 21.01)
        let recent = try await store.animals(matching: AnimalQuery(center: warsaw, radiusKm: 20, sort: .recent, limit: 15, page: 2))
        let expectedRecent = animals
            .filter { GreatCircle.distanceKm(warsaw, $0.location) <= 20 }
            .sorted { (-$0.publishedAt.timeIntervalSince1970, $0.id) < (-$1.publishedAt.timeIntervalSince1970, $1.id) }
        #expect(recent.totalCount == expectedRecent.count)
        #expect(recent.animals.map(\.id) == expectedRecent.dropFirst(15).prefix(15).map(\.id))
        // By cursor, a filtered listing in pages of 7.
        let filter = AnimalFilter(species: [.dog, .cat], ageBands: [.young, .senior])
        var seen: [String] = []
        var cursor: AnimalCursor?
        repeat {
            let page = try await store.animals(matching: AnimalQuery(filter: filter, limit: 7, cursor: cursor))
            seen += page.animals.map(\.id)
            cursor = page.nextCursor
        } while cursor != nil && seen.count <= animals.count
        let expected = animals.filter(filter.keeps)
            .sorted { (-$0.publishedAt.timeIntervalSince1970, $0.id) < (-$1.publishedAt.timeIntervalSince1970, $1.id) }
        #expect(seen == expected.map(\.id))
    }

    /// Pets where geometry and text are hardest — at both poles under several longitudes, at and
    /// across ±180° (the same point as 180 and −180), on identical points, at tied times, with ids
    /// that differ only in normalization or are 128 scalars long — searched from those corners and
    /// walked page by page and cursor by cursor, against a brute-force great-circle oracle.
    ///
    /// Ids are compared as bytes throughout: `[String] ==` would take `é-9` twice for `é-9` and
    /// `e` + U+0301 `-9`. Distances are each engine's own; where two are equal to the last bit (the
    /// same point) the page orders them by id, and each is the oracle's within ``distanceTolerance``.
    private static func compareCornersWithOracle(_ store: any AnimalStore) async throws {
        var random = SplitMix64(seed: 43)
        let corners: [(Double, Double)] = [
            (90, 180), (90, -180), (90, 0), (90, 37.5), (89.9, 10), (89.95, -100), (89.999, 180), (89.999, -180),
            (-90, 180), (-90, -180), (-90, 0), (-89.9, 45), (-89.99, -135),
            (0, 180), (0, -180), (10, 179.99), (10, -179.99), (-45, 179.5), (-45, -179.5), (65, 179.999), (65, -179.999),
            (52.23, 21.01),
        ]
        let pieces = ["é", "e\u{301}", "Å", "A\u{30A}", "\u{212B}", "ß", "ss", "a", "z", "日", "🐶", "-", "~"]
        var ids: [String] = ["é-9", "e\u{301}-9", String(repeating: "e\u{301}", count: 64), String(repeating: "🐶", count: 128)]
        func freshID() -> String {
            while true {
                let id = (0..<(1 + random.index(4))).map { _ in pieces[random.index(pieces.count)] }.joined()
                if !ids.contains(where: { Array($0.utf8) == Array(id.utf8) }) { return id }
            }
        }
        let times = [1_760_000_000.0, 1_760_000_000.5, 1_760_086_400.0].map(Date.init(timeIntervalSince1970:))
        var animals: [Animal] = []
        func add(_ id: String, _ lat: Double, _ lon: Double) throws {
            animals.append(try AnimalFixtures.animal(
                id, lat: lat, lon: lon, publishedAt: times[random.index(times.count)], species: random.index(4) == 0 ? .cat : .dog
            ))
        }
        // The equivalent and longest ids on one point, so that only their bytes order them.
        for id in ids { try add(id, 90, 180) }
        for (lat, lon) in corners {
            for _ in 0..<3 {
                let id = freshID()
                ids.append(id)
                try add(id, lat, lon)
            }
        }
        // More pets around the north pole than the count cap: the capped paths, at a pole.
        for _ in 0..<(AnimalPage.defaultCountCap + 40) {
            let id = freshID()
            ids.append(id)
            try add(id, 89.8 + random.unit() * 0.2, random.unit() * 360 - 180)
        }
        for _ in 0..<120 {
            let id = freshID()
            ids.append(id)
            switch random.index(3) {
            case 0: try add(id, 89 + random.unit(), random.unit() * 360 - 180)
            case 1: try add(id, -89 - random.unit(), random.unit() * 360 - 180)
            default: try add(id, random.unit() * 40 - 20, (random.index(2) == 0 ? 1 : -1) * (179 + random.unit()))
            }
        }
        try await store.insert(animals)
        let bytes = { (ids: [String]) in ids.map { Array($0.utf8) } }
        // Each pet at a corner by the point it is at: a pole whatever its longitude, 180 as −180.
        var samePoint: [[UInt8]: String] = [:]
        for animal in animals where corners.contains(where: { $0 == (animal.location.latitude, animal.location.longitude) }) {
            let (lat, lon) = (animal.location.latitude, animal.location.longitude)
            samePoint[Array(animal.id.utf8)] = abs(lat) == 90 ? "pole \(lat)" : "\(lat) \(lon == -180 ? 180 : lon)"
        }
        let newestFirst = { (a: Animal, b: Animal) in
            a.publishedAt != b.publishedAt ? a.publishedAt > b.publishedAt : AnimalID.precedes(a.id, b.id)
        }

        for id in ids.prefix(2) {
            #expect(try await store.animal(id: id).map { Array($0.id.utf8) } == Array(id.utf8))
        }
        // The listing without coordinates, cursor by cursor.
        for limit in [1, 2, 7] {
            var walked: [String] = []
            var cursor: AnimalCursor?
            repeat {
                let page = try await store.animals(matching: AnimalQuery(limit: limit, cursor: cursor))
                walked += page.animals.map(\.id)
                cursor = page.nextCursor
                if let cursor {  // every id the store holds is one a cursor carries
                    #expect(AnimalCursor(encoded: cursor.encoded).map { bytes([$0.id]) } == bytes([cursor.id]), "limit \(limit)")
                }
            } while cursor != nil && walked.count <= animals.count
            #expect(bytes(walked) == bytes(animals.sorted(by: newestFirst).map(\.id)), "limit \(limit)")
        }
        // Nearby, from every corner, nearest first page by page, and newest first.
        // Every other corner and three more: the whole grid took over a minute on PostgreSQL under the
        // full suite's load.
        let centers = corners.enumerated().filter { $0.offset.isMultiple(of: 2) }.map(\.element)
            + [(90, -180), (89.99, 45), (0, 179.9999), (-89.999, -180)]
        for (lat, lon) in centers {
            let center = try GeoCoordinate(latitude: lat, longitude: lon)
            let oracle = animals.map { ($0, GreatCircle.distanceKm(center, $0.location)) }
            for var radius in [2.5, 25, 500] {
                // No pet so near the edge that the engines' spheres could disagree on it.
                while oracle.contains(where: { abs($0.1 - radius) <= 1e-6 * radius }) { radius += 0.01 }
                let filter = random.index(3) == 0 ? AnimalFilter(species: [.cat]) : AnimalFilter()
                let inside = oracle.filter { $0.1 <= radius && filter.keeps($0.0) }
                let cap = AnimalPage.defaultCountCap
                let limit = inside.count > 100 ? 100 : [3, 7, 100][random.index(3)]  // a walk of at most ten pages
                let place = "(\(lat), \(lon)) r \(radius) limit \(limit) \(filter)"
                var walked: [(id: String, distanceKm: Double)] = []
                for page in 1... {
                    let result = try await store.animals(
                        matching: AnimalQuery(center: center, radiusKm: radius, filter: filter, limit: limit, page: page)
                    )
                    #expect(result.totalCount == min(inside.count, cap), "\(place) page \(page)")
                    #expect(result.totalCountIsExact == (inside.count <= cap), "\(place) page \(page)")
                    walked += result.animals.map { ($0.id, $0.distanceKm ?? -1) }
                    if result.animals.count < limit || page * limit >= min(inside.count, cap) { break }
                }
                // Pages end at the cap: the walk holds the nearest `cap`, in the engine's order.
                let reachable = inside.sorted { $0.1 < $1.1 }.prefix(cap)
                let expected = Dictionary(uniqueKeysWithValues: inside.map { (Array($0.0.id.utf8), $0.1) })
                #expect(walked.count == reachable.count, "\(place)")
                #expect(Set(bytes(walked.map(\.id))).count == walked.count, "\(place): a pet twice")
                if inside.count <= cap {
                    #expect(Set(bytes(walked.map(\.id))) == Set(bytes(inside.map(\.0.id))), "\(place)")
                }
                for (a, b) in zip(walked, walked.dropFirst()) {
                    #expect(a.distanceKm < b.distanceKm || (a.distanceKm == b.distanceKm && AnimalID.precedes(a.id, b.id)),
                            "\(place): \(a.id.debugDescription) before \(b.id.debugDescription)")
                }
                for pet in walked {
                    let distance = expected[Array(pet.id.utf8)] ?? -1
                    #expect(abs(pet.distanceKm - distance) <= distanceTolerance(distance), "\(place): \(pet.id.debugDescription)")
                }
                // Pets at one point (written two ways, or the same) tie exactly: the walk orders them by id.
                for (a, b) in zip(walked, walked.dropFirst()) where samePoint[Array(a.id.utf8)] != nil
                    && samePoint[Array(a.id.utf8)] == samePoint[Array(b.id.utf8)] {
                    #expect(a.distanceKm == b.distanceKm, "\(place): \(a.id.debugDescription) and \(b.id.debugDescription) are at one point")
                }
                let recent = try await store.animals(matching: AnimalQuery(center: center, radiusKm: radius, filter: filter, sort: .recent, limit: 100))
                #expect(bytes(recent.animals.map(\.id)) == bytes(inside.map(\.0).sorted(by: newestFirst).prefix(100).map(\.id)), "\(place)")
            }
        }
    }

    /// Random animals everywhere (poles and the antimeridian included); every answer must equal a
    /// brute-force haversine over all of them.
    private static func compareWithBruteForce(_ store: any AnimalStore) async throws {
        var random = SplitMix64(seed: 42)
        func point() throws -> GeoCoordinate {
            // Half of the points cluster near the poles or the antimeridian, where boxes are hard.
            switch random.index(4) {
            case 0: try GeoCoordinate(latitude: 84 + random.unit() * 6, longitude: random.unit() * 360 - 180)
            case 1: try GeoCoordinate(latitude: random.unit() * 20 - 10, longitude: 180 - random.unit() * 3)
            case 2: try GeoCoordinate(latitude: -90 + random.unit() * 6, longitude: random.unit() * 360 - 180)
            default: try GeoCoordinate(latitude: random.unit() * 180 - 90, longitude: random.unit() * 360 - 180)
            }
        }
        var animals: [Animal] = []
        for index in 0..<1500 {
            let location = try point()
            let mirrored = random.unit() < 0.5 ? location.longitude : -location.longitude
            animals.append(try AnimalFixtures.animal(String(format: "r%04d", index), lat: location.latitude, lon: mirrored))
        }
        try await store.insert(animals)
        for _ in 0..<60 {
            let raw = try point()
            let center = try GeoCoordinate(latitude: raw.latitude, longitude: random.unit() < 0.5 ? raw.longitude : -raw.longitude)
            let radius = [1.0, 50, 200, 500][random.index(4)]
            let expected = animals
                .map { ($0.id, GreatCircle.distanceKm(center, $0.location)) }
                .filter { $0.1 <= radius }
                .sorted { ($0.1, $0.0) < ($1.1, $1.0) }
            let page = try await store.animals(matching: AnimalQuery(center: center, radiusKm: radius, limit: 100))
            #expect(page.totalCount == expected.count, "center \(center), radius \(radius)")
            #expect(page.animals.map(\.id) == expected.prefix(100).map(\.0), "center \(center), radius \(radius)")
            for (animal, oracle) in zip(page.animals, expected) {
                #expect(abs((animal.distanceKm ?? -1) - oracle.1) <= distanceTolerance(oracle.1), "center \(center), radius \(radius)")
            }
        }
    }
}
