import Foundation
import Hummingbird
import HummingbirdTesting
import PetAPI
@testable import PetServer
import PetSpotDomain
import Testing

/// Any id the import accepts comes back byte for byte from `GET /api/pets/{id}` and in the listing, on
/// both stores, and distinct ids never meet (docs/api.md, "Importing pets": ids are compared as bytes).
enum IdRoundTrip {
    /// 60 ids drawn from canonically equivalent pairs (é and e + U+0301), case pairs, spaces, slashes,
    /// percent signs, emoji and scripts: each is its own pet.
    static func ids() -> [String] {
        let pieces = ["é", "e\u{301}", "E", "e", " ", "/", "%", "🐶", "ß", "ss", "İ", "i\u{307}", "Å", "A\u{30A}", "\u{212B}", "日本", "-", "~", "?", "#"]
        var generator = SplitMix64(seed: 39)
        // At least one canonically equivalent pair, whatever the generator draws.
        // And the longest ids: 128 Unicode scalars in 64 characters, and in 512 bytes.
        var ids = ["é-9", "e\u{301}-9", String(repeating: "e\u{301}", count: 64), String(repeating: "🐶", count: 128)]
        while ids.count < 60 {
            let length = Int(generator.next() % 4) + 1
            let id = (0..<length).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            if !ids.contains(where: { Array($0.utf8) == Array(id.utf8) }) { ids.append(id) }
        }
        return ids
    }

    static func record(_ id: String, name: String) -> [String: Any] {
        [
            "id": id, "name": name, "species": "dog", "breed": "Mixed Breed", "sex": "male", "ageMonths": 30,
            "description": "Friendly.", "shelter": ["name": "Paws", "city": "Warsaw"],
            "location": ["lat": 52.23, "lon": 21.01], "publishedAt": "2025-06-01T12:00:00Z",
        ]
    }

    /// Imports the ids into `store` and reads each back through the API's router over it.
    static func check(_ store: any AnimalStore) async throws {
        let ids = ids()
        let records = ids.enumerated().map { index, id in record(id, name: "pet \(index)") }
        let data = try JSONSerialization.data(withJSONObject: records)
        #expect(try await AnimalImporter.importPets(data, into: store).added == ids.count)
        let app = Application(router: buildRouter(
            store: store, versions: DataVersionMonitor(store: store, interval: .zero, clock: ContinuousClock()),
            cache: ResponseCache(capacity: 64, byteCapacity: 1 << 20)
        ))
        let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")
        try await app.test(.router) { client in
            for (index, id) in ids.enumerated() {
                let path = "/api/pets/" + (id.addingPercentEncoding(withAllowedCharacters: unreserved) ?? id)
                let pet = try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok, "\(id.debugDescription)")
                    return try PetAPICoding.makeDecoder().decode(AnimalDTO.self, from: Data(response.body.readableBytesView))
                }
                #expect(Array(pet.id.utf8) == Array(id.utf8), "\(id.debugDescription)")
                #expect(pet.name == "pet \(index)", "\(id.debugDescription) met another id")
            }
            let listed = try await client.execute(uri: "/api/pets?limit=100", method: .get) { response in
                try PetAPICoding.makeDecoder().decode(AnimalListResponse.self, from: Data(response.body.readableBytesView)).animals
            }
            let bytes = { (ids: [String]) in ids.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) } }
            #expect(bytes(listed.map(\.id)) == bytes(ids))
            #expect(Set(listed.map(\.name)).count == ids.count)
            // Page by page through `nextCursor`, as sent: every id the import took is one a cursor carries.
            var walked: [String] = []
            var next: String? = ""
            while let cursor = next, walked.count <= ids.count {
                let query = cursor.isEmpty ? "" : "&cursor=" + (cursor.addingPercentEncoding(withAllowedCharacters: unreserved) ?? cursor)
                let page = try await client.execute(uri: "/api/pets?limit=2" + query, method: .get) { response in
                    #expect(response.status == .ok, "\(cursor.debugDescription)")
                    return try PetAPICoding.makeDecoder().decode(AnimalListResponse.self, from: Data(response.body.readableBytesView))
                }
                walked += page.animals.map(\.id)
                next = page.pagination.nextCursor
            }
            #expect(walked.map { Array($0.utf8) } == bytes(ids))
            // Cursors after `é` and after `e` + U+0301 are two positions: two pages, two tags, whichever
            // is asked first (the response cache once took them for one).
            let time = "1748779200.0~"
            for order in [["%C3%A9", "e%CC%81"], ["e%CC%81", "%C3%A9"]] {
                var answers: [(tag: String?, ids: [[UInt8]])] = []
                for id in order {
                    answers.append(try await client.execute(uri: "/api/pets?limit=100&cursor=" + time + id, method: .get) { response in
                        let page = try PetAPICoding.makeDecoder().decode(AnimalListResponse.self, from: Data(response.body.readableBytesView))
                        return (response.headers[.eTag], page.animals.map { Array($0.id.utf8) })
                    })
                }
                let after = { (id: String) in bytes(ids).filter { Array(id.utf8).lexicographicallyPrecedes($0) } }
                #expect(answers[0].ids == after(order[0].removingPercentEncoding ?? ""))
                #expect(answers[1].ids == after(order[1].removingPercentEncoding ?? ""))
                #expect(answers[0].tag != answers[1].tag)
            }
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct IdRoundTripSQLiteTests {
    @Test func givenRandomIdsTheImportAccepts_whenEachIsFetchedOverHTTP_thenItComesBackByteForByteAndNoneMeetsAnother() async throws {
        try await IdRoundTrip.check(try await AnimalFixtures.sqliteStore())
    }
}

@Suite(.enabled(if: PostgresTestDatabase.shouldRun, PostgresTestDatabase.skipMessage), .timeLimit(.minutes(1)))
struct IdRoundTripPostgresTests {
    @Test func givenRandomIdsTheImportAccepts_whenEachIsFetchedOverHTTP_thenItComesBackByteForByteAndNoneMeetsAnother() async throws {
        try await PostgresTestDatabase.withFreshStore { try await IdRoundTrip.check($0) }
    }
}
