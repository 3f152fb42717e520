import Foundation
import Hummingbird
import HummingbirdTesting
import PetAPI
import PetServer
import PetSpotDomain
import Testing

/// ETag, Cache-Control and 304 on the listing and on single pets (docs/api.md, departure 6).
@Suite(.timeLimit(.minutes(1))) struct HTTPCachingTests {
    private struct Answer {
        var status: HTTPResponse.Status
        var entityTag: String?
        var cacheControl: String?
        var body: String
    }

    /// Runs `body` against an app over two pets in a new SQLite file at `path`.
    private func withApp(path: String = AnimalFixtures.temporaryDatabasePath(), _ body: @Sendable @escaping (any TestClientProtocol) async throws -> Void) async throws {
        let app = try await AnimalFixtures.application([
            try AnimalFixtures.animal("a", lat: 52.23, lon: 21.01, publishedAt: Date(timeIntervalSince1970: 1_000)),
            try AnimalFixtures.animal("b", lat: 52.24, lon: 21.01, publishedAt: Date(timeIntervalSince1970: 2_000)),
        ], path: path)
        try await app.test(.router, body)
    }

    private func get(_ client: some TestClientProtocol, _ uri: String, ifNoneMatch: String? = nil) async throws -> Answer {
        var headers = HTTPFields()
        if let ifNoneMatch { headers[.ifNoneMatch] = ifNoneMatch }
        return try await client.execute(uri: uri, method: .get, headers: headers) { response in
            Answer(
                status: response.status, entityTag: response.headers[.eTag],
                cacheControl: response.headers[.cacheControl], body: String(buffer: response.body)
            )
        }
    }

    @Test(arguments: ["/api/pets", "/api/pets?lat=52.23&lon=21.01", "/api/pets/a"])
    func givenCacheableResource_whenFetched_thenStrongETagAndShortCacheLifetime(uri: String) async throws {
        try await withApp { client in
            let answer = try await get(client, uri)
            #expect(answer.status == .ok)
            let tag = try #require(answer.entityTag)
            #expect(tag.hasPrefix("\"v") && tag.hasSuffix("\""), "a strong tag: \(tag)")
            #expect(answer.cacheControl == "public, max-age=60, stale-while-revalidate=60")
        }
    }

    @Test(arguments: ["/api/pets", "/api/pets?lat=52.23&lon=21.01", "/api/pets/a"])
    func givenETag_whenRevalidatedWithIfNoneMatch_then304WithoutBodyAndTheSameTag(uri: String) async throws {
        try await withApp { client in
            let tag = try #require(try await get(client, uri).entityTag)
            for ifNoneMatch in [tag, "W/\(tag)", "\"other\", \(tag)", "*"] {
                let answer = try await get(client, uri, ifNoneMatch: ifNoneMatch)
                #expect(answer.status == .notModified, "If-None-Match: \(ifNoneMatch)")
                #expect(answer.body.isEmpty)
                #expect(answer.entityTag == tag)
            }
            #expect(try await get(client, uri, ifNoneMatch: "\"v0-0\"").status == .ok)
        }
    }

    @Test func givenDifferentQueries_whenFetched_thenDifferentTagsAndDefaultsSpelledOutShareOne() async throws {
        try await withApp { client in
            let all = try await get(client, "/api/pets").entityTag
            #expect(all == (try await get(client, "/api/pets?limit=20&page=1").entityTag))
            #expect(all != (try await get(client, "/api/pets?limit=1").entityTag))
            #expect(all != (try await get(client, "/api/pets?lat=52.23&lon=21.01").entityTag))
        }
    }

    @Test func givenETag_whenPetsAreAdded_thenRevalidationGetsTheNewPage() async throws {
        let path = AnimalFixtures.temporaryDatabasePath()
        try await withApp(path: path) { client in
            let before = try await get(client, "/api/pets")
            let tag = try #require(before.entityTag)
            try await SQLiteAnimalStore(path: path).insert([try AnimalFixtures.animal("c", lat: 1, lon: 1)])
            let after = try await get(client, "/api/pets", ifNoneMatch: tag)
            #expect(after.status == .ok)
            #expect(after.entityTag != tag)
            #expect(after.body.contains("\"id\":\"c\""))
        }
    }

    @Test func givenUnknownPet_whenFetched_then404WithoutCachingHeaders() async throws {
        try await withApp { client in
            let answer = try await get(client, "/api/pets/nope")
            #expect(answer.status == .notFound)
            #expect(answer.cacheControl == nil)
            // `*` matches a current representation only, and a pet that does not exist has none.
            #expect(try await get(client, "/api/pets/nope", ifNoneMatch: "*").status == .notFound)
        }
    }
}
