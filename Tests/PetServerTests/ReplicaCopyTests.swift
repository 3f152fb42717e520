import Foundation
import PetAPI
@testable import PetServer
import PetSpotDomain
import Testing

/// The rows a PostgreSQL replica's copy keeps, without a database: their newest-first order as
/// changes arrive, and where a cursor lands.
@Suite struct ReplicaCopyTests {
    private static func pet(_ seq: Int64, _ id: String, time: Double) throws -> StoredPet {
        let animal = try AnimalFixtures.animal(id, lat: 52.23, lon: 21.01, publishedAt: Date(timeIntervalSince1970: time))
        return StoredPet(seq: seq, animal: animal, publishedAt: time, traits: 0)
    }

    /// The order the database's `ORDER BY published_at DESC, id COLLATE "C"` gives.
    private static func sorted(_ pets: some Sequence<StoredPet>) -> [String] {
        pets.sorted { a, b in
            a.publishedAt != b.publishedAt ? a.publishedAt > b.publishedAt : Array(a.animal.id.utf8).lexicographicallyPrecedes(Array(b.animal.id.utf8))
        }.map(\.animal.id)
    }

    @Test func givenRows_whenPetsMoveLeaveAndArrive_thenNewestFirstIsTheSortedOrder() throws {
        var random = SplitMix64(seed: 27)
        // Few distinct times: many ties, broken by id.
        func time() -> Double { 1_760_000_000 + Double(random.next() % 12) }
        var current = try (0..<400).map { try Self.pet(Int64($0), "p\(random.next() % 1_000)-\($0)", time: time()) }
        var rows = PetRows(current)
        #expect(rows.newestFirst.map(\.animal.id) == Self.sorted(current))
        var nextSeq: Int64 = 400
        for _ in 0..<20 {
            var touched = Set<Int64>()
            var added: [StoredPet] = []
            for _ in 0..<15 {
                let victim = current[Int(random.next() % UInt64(current.count))]
                guard touched.insert(victim.seq).inserted else { continue }
                if random.next() % 2 == 0 {  // changed: a new time, the same seq
                    added.append(try Self.pet(victim.seq, victim.animal.id, time: time()))
                }
            }
            for _ in 0..<10 {
                added.append(try Self.pet(nextSeq, "n\(random.next() % 1_000)-\(nextSeq)", time: time()))
                touched.insert(nextSeq)
                nextSeq += 1
            }
            current = current.filter { !touched.contains($0.seq) } + added
            rows.replace(touched, with: added)
            let inOrder = rows.newestFirst.map(\.animal.id) == Self.sorted(current)
            #expect(inOrder)
            #expect(rows.count == current.count)
            #expect(Set(rows.bySeq.values.map(\.animal.id)) == Set(current.map(\.animal.id)))
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

    @Test func givenTiedTimes_whenACursorPointsBetweenThem_thenTheListingContinuesRightAfterIt() throws {
        let rows = PetRows(try [
            Self.pet(1, "a", time: 20), Self.pet(2, "b", time: 10), Self.pet(3, "c", time: 10), Self.pet(4, "d", time: 5),
        ])
        #expect(rows.newestFirst.map(\.animal.id) == ["a", "b", "c", "d"])
        #expect(rows.start(after: AnimalCursor(publishedAt: 10, id: "b")) == 2)
        #expect(rows.start(after: AnimalCursor(publishedAt: 10, id: "bb")) == 2)  // between b and c, never stored
        #expect(rows.start(after: AnimalCursor(publishedAt: 10, id: "a")) == 1)
        #expect(rows.start(after: AnimalCursor(publishedAt: 30, id: "z")) == 0)
        #expect(rows.start(after: AnimalCursor(publishedAt: -.infinity, id: "a")) == 4)
    }
}
