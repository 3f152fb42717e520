import Foundation
import PetAPI
@testable import PetServer
import PetSpotDomain
import Testing

/// The rows a PostgreSQL replica's copy keeps, without a database: their newest-first order as
/// changes arrive, and where a cursor lands.
@Suite struct ReplicaCopyTests {
    private static func pet(_ seq: Int64, _ id: String, time: Double, traits: UInt8 = 0) throws -> StoredPet {
        let animal = try AnimalFixtures.animal(id, lat: 52.23, lon: 21.01, publishedAt: Date(timeIntervalSince1970: time))
        return StoredPet(seq: seq, id: id, publishedAt: time, traits: traits, row: .success(animal))
    }

    /// The order the database's `ORDER BY published_at DESC, id COLLATE "C"` gives.
    private static func sorted(_ pets: [StoredPet]) -> [String] {
        let bytes = { (pet: StoredPet) in Array(pet.id.utf8) }
        return pets.sorted { a, b in
            a.publishedAt != b.publishedAt ? a.publishedAt > b.publishedAt : bytes(a).lexicographicallyPrecedes(bytes(b))
        }.map(\.id)
    }

    private static func ids(_ rows: PetRows) -> [String] {
        rows.newestFirst.indices.map { rows.pet(at: $0)?.id ?? "missing" }
    }

    /// Ids that sort one way as bytes and another (or not at all) as `String`s: "e" with a combining
    /// accent, and the precomposed "é".
    private static let accents = ["e\u{301}", "\u{E9}", "f"]

    @Test(arguments: [15, 50])
    func givenRows_whenPetsMoveLeaveAndArrive_thenNewestFirstIsTheSortedOrder(changesPerRound: Int) throws {
        var random = SplitMix64(seed: 27)
        // Few distinct times: many ties, broken by id.
        func time() -> Double { 1_760_000_000 + Double(random.next() % 12) }
        func id(_ seq: Int64) -> String { "\(Self.accents[Int(random.next() % 3)])\(random.next() % 1_000)-\(seq)" }
        var current = try (0..<400).map { try Self.pet(Int64($0), id(Int64($0)), time: time()) }
        var rows = PetRows(current)
        #expect(Self.ids(rows) == Self.sorted(current))
        var nextSeq: Int64 = 400
        for _ in 0..<20 {
            var touched = Set<Int64>()
            var added: [StoredPet] = []
            // 15 and 10 changes are put in place; 50 and 10, merged.
            for _ in 0..<changesPerRound {
                let victim = current[Int(random.next() % UInt64(current.count))]
                guard touched.insert(victim.seq).inserted else { continue }
                if random.next() % 2 == 0 {  // changed: a new time, the same seq
                    added.append(try Self.pet(victim.seq, victim.id, time: time()))
                }
            }
            for _ in 0..<10 {
                added.append(try Self.pet(nextSeq, id(nextSeq), time: time()))
                touched.insert(nextSeq)
                nextSeq += 1
            }
            current = current.filter { !touched.contains($0.seq) } + added
            rows.replace(touched, with: added)
            let inOrder = Self.ids(rows) == Self.sorted(current)
            #expect(inOrder)
            #expect(rows.count == current.count)
            #expect(rows.newestFirst.count == current.count)
            #expect(current.allSatisfy { rows.pet(seq: $0.seq) === $0 })
        }
    }

    @Test func givenIDsThatDifferOnlyInUnicodeNormalization_whenOrdered_thenTheirBytesDecide() {
        // "e" + combining acute (65 CC 81) and precomposed "é" (C3 A9): equal as Swift strings, not as bytes.
        let decomposed = "e\u{301}"
        let precomposed = "\u{E9}"
        #expect(decomposed == precomposed)
        #expect(StoredPet.precedes(1, decomposed, 1, precomposed))
        #expect(!StoredPet.precedes(1, precomposed, 1, decomposed))
        #expect(StoredPet.precedes(2, "z", 1, "a"))  // newer first, whatever the id
    }

    @Test func givenATimeOfNaN_whenOrdered_thenItComesFirstAsInPostgreSQLAndChangesStillFindTheirPlace() throws {
        #expect(StoredPet.precedes(.nan, "b", 5, "a"))
        #expect(!StoredPet.precedes(5, "a", .nan, "b"))
        #expect(StoredPet.precedes(.nan, "a", .nan, "b"))
        var rows = PetRows(try [Self.pet(1, "a", time: 5), Self.pet(2, "b", time: .nan), Self.pet(3, "c", time: 7)])
        #expect(Self.ids(rows) == ["b", "c", "a"])
        let placed = rows.replace([2], with: [try Self.pet(2, "b", time: 6)])
        #expect(placed)
        #expect(Self.ids(rows) == ["c", "b", "a"])
        #expect(rows.isConsistent(count: 3))
    }

    @Test func givenTiedTimes_whenACursorPointsBetweenThem_thenTheListingContinuesRightAfterIt() throws {
        let rows = PetRows(try [
            Self.pet(1, "a", time: 20), Self.pet(2, "b", time: 10), Self.pet(3, "c", time: 10), Self.pet(4, "d", time: 5),
        ])
        #expect(Self.ids(rows) == ["a", "b", "c", "d"])
        #expect(rows.start(after: AnimalCursor(publishedAt: 10, id: "b")) == 2)
        #expect(rows.start(after: AnimalCursor(publishedAt: 10, id: "bb")) == 2)  // between b and c, never stored
        #expect(rows.start(after: AnimalCursor(publishedAt: 10, id: "a")) == 1)
        #expect(rows.start(after: AnimalCursor(publishedAt: 30, id: "z")) == 0)
        #expect(rows.start(after: AnimalCursor(publishedAt: -.infinity, id: "a")) == 4)
    }

    @Test func givenACopy_whenAFilterMatchesNothingOrAPageLiesPastTheEnd_thenAnEmptyPageWithTheCount() throws {
        let dog = AnimalFilter.traits(species: .dog, sex: .female, ageMonths: 24)
        let pets = try (0..<50).map { try Self.pet(Int64($0), "p\($0)", time: Double(1_000 - $0), traits: dog) }
        var index = PositionIndex(version: 7)
        for pet in pets { index.add(seq: pet.seq, lat: 52.23, lon: 21.01, publishedAt: pet.publishedAt, traits: pet.traits) }
        let copy = ReplicaCopy(index: index, rows: PetRows(pets))
        let cats = try copy.snapshot(matching: AnimalQuery(filter: AnimalFilter(species: [.cat])))
        #expect(cats == AnimalSnapshot(page: AnimalPage(animals: [], totalCount: 0), dataVersion: 7))
        let past = try copy.snapshot(matching: AnimalQuery(filter: AnimalFilter(species: [.dog]), limit: 20, page: 3))
        #expect(past.page.animals.map(\.id) == (40..<50).map { "p\($0)" })
        #expect(past.page.nextCursor == nil)
        #expect(past.page.totalCount == 50)
        let second = try copy.snapshot(matching: AnimalQuery(limit: 20, page: 2))
        #expect(second.page.nextCursor == AnimalCursor(publishedAt: 1_000 - 39, id: "p39"))
        #expect(try copy.snapshot(matching: AnimalQuery(limit: 20, page: 4)).page.animals.isEmpty)
    }

    @Test func givenAPetWhoseRowCannotBeRead_whenAPageHoldsIt_thenThatPageFailsAndTheOthersDoNot() throws {
        let broken = StoredPet(seq: 1, id: "broken", publishedAt: 10, traits: 0, row: .failure(.corruptRow(id: "broken", field: "name")))
        let pets = [broken] + (try (2..<30).map { try Self.pet(Int64($0), "p\($0)", time: 5) })
        let copy = ReplicaCopy(index: PositionIndex(version: 1), rows: PetRows(pets))
        #expect(throws: AnimalStoreError.corruptRow(id: "broken", field: "name")) { try copy.snapshot(matching: AnimalQuery(limit: 10)) }
        #expect(try copy.snapshot(matching: AnimalQuery(limit: 10, page: 2)).page.animals.count == 10)
    }
}
