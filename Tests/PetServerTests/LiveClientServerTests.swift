import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hummingbird
import HummingbirdTesting
import Logging
import PetAPI
import PetServer
import PetSpotDomain
import Testing

#if os(Linux)
private let isLinux = true
#else
private let isLinux = false
#endif

/// The real `AnimalRepository` against the real server on a free loopback port.
@Suite(.timeLimit(.minutes(1))) struct LiveClientServerTests {
    private static let km = 1 / AnimalFixtures.kmPerDegree

    private static func fixtures() throws -> [Animal] {
        [
            try AnimalFixtures.animal("warsaw-1km", lat: 52.23 + 1 * km, lon: 21.01, publishedAt: Date(timeIntervalSince1970: 100)),
            try AnimalFixtures.animal("warsaw-9.9km", lat: 52.23 - 9.9 * km, lon: 21.01, publishedAt: Date(timeIntervalSince1970: 200)),
            try AnimalFixtures.animal("warsaw-10.1km", lat: 52.23 + 10.1 * km, lon: 21.01, publishedAt: Date(timeIntervalSince1970: 300)),
            try AnimalFixtures.animal("fiji-west", lat: -17, lon: -179.9, publishedAt: Date(timeIntervalSince1970: 400)),
            try AnimalFixtures.animal("arctic-far-side", lat: 89.9, lon: 180, publishedAt: Date(timeIntervalSince1970: 500)),
        ]
    }

    /// Runs `body` with the base URL of a live server over the fixtures.
    private func withLiveServer(_ animals: [Animal]? = nil, _ body: @Sendable @escaping (URL) async throws -> Void) async throws {
        let app = try await AnimalFixtures.application(animals ?? Self.fixtures())
        try await app.test(.live) { client in
            let port = try #require(client.port)
            try await body(try #require(URL(string: "http://127.0.0.1:\(port)")))
        }
    }

    private func location(_ lat: Double, _ lon: Double) throws -> UserLocation {
        try UserLocation(latitude: lat, longitude: lon, horizontalAccuracy: 5)
    }

    @Test func givenNoLocation_whenFetching_thenAllAnimalsNewestFirstWithoutDistance() async throws {
        try await withLiveServer { url in
            let animals = try await AnimalRepository(baseURL: url).fetchAnimals(near: nil)
            #expect(animals.map(\.id) == ["arctic-far-side", "fiji-west", "warsaw-10.1km", "warsaw-9.9km", "warsaw-1km"])
            #expect(animals.allSatisfy { $0.distanceKm == nil })
            #expect(animals == (try Self.fixtures().reversed()))
        }
    }

    @Test func givenRoundedLocation_whenFetching_thenQueryReturnsNearestFirstWithDistances() async throws {
        try await withLiveServer { url in
            let repository = AnimalRepository(baseURL: url)
            let here = try location(52.23, 21.01)
            #expect(repository.requestPath(near: here) == "/api/pets?lat=52.23&lon=21.01")
            let animals = try await repository.fetchAnimals(near: here)
            #expect(animals.map(\.id) == ["warsaw-1km", "warsaw-9.9km", "warsaw-10.1km"])
            let first = try #require(animals.first?.distanceKm)
            #expect(abs(first - 1) < 0.001)
        }
    }

    @Test func givenTenKilometreRadius_whenFetching_thenEdgeIsRespected() async throws {
        try await withLiveServer { url in
            let repository = AnimalRepository(configuration: .init(baseURL: url, radiusKm: 10))
            let animals = try await repository.fetchAnimals(near: try location(52.23, 21.01))
            #expect(animals.map(\.id) == ["warsaw-1km", "warsaw-9.9km"])
        }
    }

    @Test func givenACatFilterNewestFirst_whenFetchingNearby_thenOnlyCatsNewestFirst() async throws {
        var animals = try Self.fixtures()
        animals[0].species = .cat
        animals[2].species = .cat
        try await withLiveServer(animals) { url in
            let repository = AnimalRepository(configuration: .init(
                baseURL: url, filter: AnimalFilter(species: [.cat]), sort: .recent
            ))
            let page = try await repository.fetchPage(near: try location(52.23, 21.01))
            #expect(page.animals.map(\.id) == ["warsaw-10.1km", "warsaw-1km"])
            #expect(page.pagination.totalCount == 2)
        }
    }

    @Test func givenLocationEastOfAntimeridian_whenFetching_thenFindsPetWestOfItAbout22KmAway() async throws {
        try await withLiveServer { url in
            let animals = try await AnimalRepository(configuration: .init(baseURL: url, radiusKm: 30))
                .fetchAnimals(near: try location(-17, 179.9))
            #expect(animals.map(\.id) == ["fiji-west"])
            let distance = try #require(animals.first?.distanceKm)
            #expect(abs(distance - 21.27) < 0.1)
        }
    }

    @Test func givenLocationNearNorthPole_whenFetching_thenFindsPetAcrossThePole() async throws {
        try await withLiveServer { url in
            let animals = try await AnimalRepository(configuration: .init(baseURL: url, radiusKm: 30))
                .fetchAnimals(near: try location(89.9, 0))
            #expect(animals.map(\.id) == ["arctic-far-side"])
            let distance = try #require(animals.first?.distanceKm)
            #expect(abs(distance - 22.24) < 0.01)
        }
    }

    @Test func givenTwoPerPage_whenFetchingEveryPage_thenPagesPartitionTheListing() async throws {
        try await withLiveServer { url in
            let repository = AnimalRepository(configuration: .init(baseURL: url, limit: 2))
            var ids: [String] = []
            for page in 1...3 {
                let result = try await repository.fetchPage(near: nil, page: page)
                var pagination = result.pagination
                #expect((pagination.nextCursor != nil) == (page < 3), "a next cursor on every page but the last")
                pagination.nextCursor = nil
                #expect(pagination == .init(page: page, limit: 2, totalCount: 5))
                ids += result.animals.map(\.id)
            }
            #expect(ids == ["arctic-far-side", "fiji-west", "warsaw-10.1km", "warsaw-9.9km", "warsaw-1km"])
            #expect(try await repository.fetchPage(near: nil, page: 4).animals.isEmpty)
        }
    }

    @Test func givenTheGazetteer_whenTheClientSearchesPlaces_thenItGetsTheServersSuggestionsAndItsRefusals() async throws {
        let path = AnimalFixtures.temporaryDatabasePath()
        try await SQLiteAnimalStore(path: path).replacePlaces(with: PlaceStoreContract.sample)
        let app = try await AnimalFixtures.application([], path: path)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
            let repository = AnimalRepository(baseURL: url)
            let places = try await repository.searchPlaces("São P", limit: 3)
            #expect(places.first?.name == "São Paulo")
            #expect(places.first?.location == (try GeoCoordinate(latitude: -23.55, longitude: -46.64)))
            #expect(places.count <= 3)
            #expect(try await repository.searchPlaces("10001", limit: 10).map(\.label) == ["New York, NY 10001"])
            await #expect(throws: AnimalRepositoryError.self) { _ = try await repository.searchPlaces("ly", limit: 11) }
        }
    }

    @Test func givenRadiusTheServerRefuses_whenFetching_thenHTTPStatusErrorCarriesTheServersBody() async throws {
        try await withLiveServer { url in
            let repository = AnimalRepository(configuration: .init(baseURL: url, radiusKm: 900))
            do {
                _ = try await repository.fetchAnimals(near: try location(52.23, 21.01))
                Issue.record("expected an HTTP status error")
            } catch let error as AnimalRepositoryError {
                guard case .httpStatus(400, let detail?) = error else {
                    Issue.record("unexpected \(error)")
                    return
                }
                #expect(detail.parameter == "radiusKm")
                #expect(detail.message.contains("between 1 and 500"))
            }
        }
    }

    @Test func givenBaseURLWithoutTheAPI_whenFetching_thenHTTPStatus404() async throws {
        try await withLiveServer { url in
            let repository = AnimalRepository(baseURL: url.appendingPathComponent("elsewhere"))
            await #expect(throws: AnimalRepositoryError.httpStatus(
                code: 404, error: .init(code: "not_found", message: "no such resource: GET /elsewhere/api/pets"))) {
                _ = try await repository.fetchAnimals(near: nil)
            }
        }
    }

    @Test func givenServerAnsweringSomethingElse_whenFetching_thenDecodingError() async throws {
        let router = Router()
        router.get("/api/pets") { _, _ in #"{"animals":"none"}"# }
        try await Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
            .test(.live) { client in
                let port = try #require(client.port)
                let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
                do {
                    _ = try await AnimalRepository(baseURL: url).fetchAnimals(near: nil)
                    Issue.record("expected a decoding error")
                } catch let error as AnimalRepositoryError {
                    guard case .decoding = error else {
                        Issue.record("unexpected \(error)")
                        return
                    }
                }
            }
    }

    /// What the client's HTTP cache does on Linux: nothing. swift-corelibs-foundation's URLSession
    /// stores no response in its URLCache, whatever `Cache-Control` says, so a second fetch within the
    /// minute the server allows reaches the server again (and sees a change at once). On Apple
    /// platforms the same client is served from URLCache and revalidates with `If-None-Match`, which
    /// cannot be run here (docs/api.md, "Caching").
    @Test(.enabled(if: isLinux)) func givenACacheableListing_whenTheClientAsksAgainOnLinux_thenTheServerAnswersAgain() async throws {
        let path = AnimalFixtures.temporaryDatabasePath()
        let app = try await AnimalFixtures.application(try Self.fixtures(), path: path)
        try await app.test(.live) { client in
            let port = try #require(client.port)
            let url = try #require(URL(string: "http://127.0.0.1:\(port)"))
            let configuration = URLSessionConfiguration.default
            let cache = URLCache(memoryCapacity: 4 << 20, diskCapacity: 0, diskPath: nil)
            configuration.urlCache = cache
            configuration.requestCachePolicy = .useProtocolCachePolicy
            let repository = AnimalRepository(configuration: .init(baseURL: url), session: URLSession(configuration: configuration))
            #expect(try await repository.fetchPage(near: nil).pagination.totalCount == 5)
            #expect(cache.cachedResponse(for: URLRequest(url: repository.requestURL(near: nil))) == nil)
            try await SQLiteAnimalStore(path: path).insert([try AnimalFixtures.animal("new", lat: 1, lon: 1)])
            #expect(try await repository.fetchPage(near: nil).pagination.totalCount == 6)
        }
    }

    @Test func givenStartedInProcessServer_whenFetchingAndStopping_thenItServesOnItsOwnPortThenCloses() async throws {
        let path = AnimalFixtures.temporaryDatabasePath()
        let server = try await startPetServer(configuration: PetServerConfiguration(port: 0, database: path, demoPetsWhenEmpty: 500, logLevel: .error))
        #expect(server.port > 0)
        let repository = AnimalRepository(baseURL: server.baseURL)
        let nearWarsaw = try await repository.fetchAnimals(near: try location(52.23, 21.01))
        #expect(!nearWarsaw.isEmpty)
        #expect(nearWarsaw.allSatisfy { $0.shelter.city == "Warsaw" || $0.shelter.city == "Kraków" })
        await server.stop()
        await #expect(throws: AnimalRepositoryError.self) {
            _ = try await AnimalRepository(configuration: .init(baseURL: server.baseURL, timeout: 2)).fetchAnimals(near: nil)
        }
    }
}
