import AsyncSupport
import Foundation
import NIOCore
import PetServer
import PetSpotDomain
import Testing

/// The server's memory of the data version (``DataVersionMonitor``) and of encoded pages
/// (``ResponseCache``).
@Suite struct DataVersionMonitorTests {
    private func storeAndWriter() async throws -> (reader: SQLiteAnimalStore, writer: SQLiteAnimalStore) {
        let path = AnimalFixtures.temporaryDatabasePath()
        let reader = try SQLiteAnimalStore(path: path)
        try await reader.insert([try AnimalFixtures.animal("a", lat: 1, lon: 1)])
        // Another process's connection, as `petspot import` would be.
        return (reader, try SQLiteAnimalStore(path: path))
    }

    @Test func givenAVersionReadJustNow_whenAnotherProcessAddsPetsWithinTheInterval_thenTheReadVersionIsKept() async throws {
        let (reader, writer) = try await storeAndWriter()
        let clock = VirtualClock()
        let monitor = DataVersionMonitor(store: reader, interval: .seconds(1), clock: clock)
        let first = try await monitor.current()
        try await writer.insert([try AnimalFixtures.animal("b", lat: 2, lon: 2)])
        clock.advance(by: .milliseconds(999))
        #expect(try await monitor.current() == first)
    }

    @Test func givenAnOldReading_whenTheIntervalHasPassed_thenTheNewVersionIsRead() async throws {
        let (reader, writer) = try await storeAndWriter()
        let clock = VirtualClock()
        let monitor = DataVersionMonitor(store: reader, interval: .seconds(1), clock: clock)
        let first = try await monitor.current()
        try await writer.insert([try AnimalFixtures.animal("b", lat: 2, lon: 2)])
        clock.advance(by: .seconds(1))
        let second = try await monitor.current()
        #expect(second > first)
        #expect(second == (try await reader.dataVersion()))
    }

    @Test func givenAZeroInterval_whenPetsAreAdded_thenTheNextCallSeesThem() async throws {
        let (reader, writer) = try await storeAndWriter()
        let monitor = DataVersionMonitor(store: reader, interval: .zero, clock: VirtualClock())
        let first = try await monitor.current()
        try await writer.insert([try AnimalFixtures.animal("b", lat: 2, lon: 2)])
        #expect(try await monitor.current() > first)
    }
}

@Suite struct ResponseCacheTests {
    private func body(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    @Test func givenAStoredPage_whenAskedAtTheSameVersion_thenItIsReturned_andAtAnotherVersionNot() {
        let cache = ResponseCache(capacity: 8)
        cache.store(body("page"), version: 3, path: "/api/pets?limit=20&page=1")
        #expect(cache.body(version: 3, path: "/api/pets?limit=20&page=1") == body("page"))
        #expect(cache.body(version: 4, path: "/api/pets?limit=20&page=1") == nil)
        #expect(cache.body(version: 3, path: "/api/pets?limit=20&page=2") == nil)
    }

    @Test func givenTwoQueriesDifferingOnlyInNormalization_whenEitherIsStoredFirst_thenNeverShareABody() {
        let composed = "/api/pets?cursor=1700000000.0~\u{E9}&limit=2"
        let decomposed = "/api/pets?cursor=1700000000.0~e\u{301}&limit=2"
        #expect(composed == decomposed)  // what String equality says, and why the key is bytes
        for (first, second) in [(composed, decomposed), (decomposed, composed)] {
            let cache = ResponseCache(capacity: 8)
            cache.store(body("after \(first)"), version: 1, path: first)
            #expect(cache.body(version: 1, path: second) == nil)
            cache.store(body("after \(second)"), version: 1, path: second)
            #expect(cache.body(version: 1, path: first) == body("after \(first)"))
            #expect(cache.body(version: 1, path: second) == body("after \(second)"))
            #expect(cache.count == 2)
        }
    }

    @Test func givenAZeroCapacity_whenPagesAreStored_thenNothingIsKept() {
        let cache = ResponseCache(capacity: 0)
        cache.store(body("page"), version: 1, path: "/api/pets")
        #expect(cache.body(version: 1, path: "/api/pets") == nil)
        #expect(cache.count == 0)
    }

    @Test(arguments: [1, 2, 7, 64])
    func givenManyDistinctPages_whenStored_thenAtMostTheCapacityRoundedUpToEvenIsKept(capacity: Int) {
        let cache = ResponseCache(capacity: capacity)
        for index in 0..<(capacity * 10) {
            cache.store(body("\(index)"), version: 1, path: "/api/pets?page=\(index)")
            #expect(cache.count <= capacity + capacity % 2)
        }
        // The most recent page is always there.
        #expect(cache.body(version: 1, path: "/api/pets?page=\(capacity * 10 - 1)") == body("\(capacity * 10 - 1)"))
    }

    @Test func givenAPageUsedAgain_whenNewPagesPushTheGenerationsOn_thenItOutlivesPagesNotUsed() {
        let cache = ResponseCache(capacity: 4)
        cache.store(body("hot"), version: 1, path: "hot")
        cache.store(body("cold"), version: 1, path: "cold")
        cache.store(body("x1"), version: 1, path: "x1")  // young was full: hot and cold are now old
        #expect(cache.body(version: 1, path: "hot") != nil)  // moved back to the young generation
        cache.store(body("x2"), version: 1, path: "x2")  // young full again: x1 and hot become old, cold goes
        #expect(cache.body(version: 1, path: "cold") == nil)
        #expect(cache.body(version: 1, path: "hot") == body("hot"))
    }

    @Test func givenPagesOfManySizes_whenStored_thenTheBytesHeldNeverPassTheByteCapacity() {
        let cache = ResponseCache(capacity: 1000, byteCapacity: 1000)
        var random = SplitMix64(seed: 3)
        for index in 0..<500 {
            let size = 1 + random.index(600)
            cache.store(body(String(repeating: "x", count: size)), version: 1, path: "/api/pets?page=\(index)")
            #expect(cache.bytes <= 1000)
            // A page up to half the bytes is always kept at once; a larger one never is.
            #expect((cache.body(version: 1, path: "/api/pets?page=\(index)") != nil) == (size <= 500), "size \(size)")
        }
        #expect(cache.count > 1)
    }

    @Test func givenAPageStoredTwice_whenCounted_thenItsBytesCountOnce() {
        let cache = ResponseCache(capacity: 8, byteCapacity: 1000)
        cache.store(body("12345"), version: 1, path: "p")
        cache.store(body("1234567"), version: 1, path: "p")
        #expect(cache.bytes == 7)
        #expect(cache.count == 1)
    }
}
