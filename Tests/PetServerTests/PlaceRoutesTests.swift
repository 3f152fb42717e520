import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import PetAPI
@testable import PetServer
import PetSpotDomain
import Testing

/// `GET /api/places` and `GET /api/places/{id}` over the application as `petspot serve` builds it.
@Suite(.timeLimit(.minutes(1))) struct PlaceRoutesTests {
    private func withClient(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let path = AnimalFixtures.temporaryDatabasePath()
        try await SQLiteAnimalStore(path: path).replacePlaces(with: PlaceStoreContract.sample)
        let app = try await buildApplication(configuration: PetServerConfiguration(
            port: 0, database: path, demoPetsWhenEmpty: 0, logLevel: .error
        ))
        try await app.test(.router, body)
    }

    @Test func givenTheGazetteer_whenSearched_thenSuggestionsWithRoundedCoordinatesAndTheCredit() async throws {
        try await withClient { client in
            let (list, cacheControl) = try await client.execute(uri: "/api/places?q=sao&limit=2", method: .get) { response in
                #expect(response.status == .ok)
                return (try PetAPICoding.makeDecoder().decode(PlaceListResponse.self, from: Data(response.body.readableBytesView)),
                        response.headers[.cacheControl])
            }
            #expect(cacheControl == "public, max-age=3600")
            #expect(list.attribution == PlaceAttribution.text && list.attribution.contains("CC BY 4.0"))
            #expect(list.places.count == 2)
            let paulo = try #require(list.places.first)
            #expect(paulo.name == "São Paulo" && paulo.countryCode == "BR" && paulo.label == "São Paulo, Brazil")
            #expect(paulo.location == .init(lat: -23.55, lon: -46.64))  // two decimals, as the app rounds its own
            let one = try await client.execute(uri: "/api/places/" + paulo.id, method: .get) { response in
                #expect(response.status == .ok)
                return try PetAPICoding.makeDecoder().decode(PlaceResponse.self, from: Data(response.body.readableBytesView))
            }
            #expect(one.place == paulo)
        }
    }

    @Test(arguments: [
        ("/api/places", "q", "q is required"),
        ("/api/places?q=", "q", "must not be empty"),
        ("/api/places?q=%20%20", "q", "must not be empty"),
        ("/api/places?q=" + String(repeating: "a", count: 101), "q", "at most 100 characters"),
        ("/api/places?q=ly%00on", "q", "control character"),
        ("/api/places?q=ly&q=ko", "q", "more than once"),
        ("/api/places?q=ly&limit=0", "limit", "between 1 and 10"),
        ("/api/places?q=ly&limit=11", "limit", "between 1 and 10"),
        ("/api/places?q=ly&limit=ten", "limit", "between 1 and 10"),
    ])
    func givenBadInput_whenSearched_then400NamingTheParameter(_ uri: String, _ parameter: String, _ words: String) async throws {
        try await withClient { client in
            try await client.execute(uri: uri, method: .get) { response in
                #expect(response.status == .badRequest, "\(uri)")
                let error = try PetAPICoding.makeDecoder().decode(APIErrorBody.self, from: Data(response.body.readableBytesView)).error
                #expect(error.code == "invalid_parameter" && error.parameter == parameter, "\(uri)")
                #expect(error.message.contains(words), "\(uri): \(error.message)")
            }
        }
    }

    @Test func givenAnUnknownOrBadId_whenFetched_then404Or400() async throws {
        try await withClient { client in
            for (uri, status) in [("/api/places/geonames:0", HTTPResponse.Status.notFound), ("/api/places/%00", .notFound),
                                  ("/api/places/%C3%28", .badRequest), ("/api/places/", .notFound)] {
                try await client.execute(uri: uri, method: .get) { response in
                    #expect(response.status == status, "\(uri)")
                    let error = try PetAPICoding.makeDecoder().decode(APIErrorBody.self, from: Data(response.body.readableBytesView)).error
                    #expect(error.code == (status == .notFound ? "not_found" : "invalid_parameter"), "\(uri)")
                }
            }
        }
    }

    @Test func givenAnEmptyDatabase_whenServedWithTheBundledGazetteer_thenItIsLoadedOnceBeforeTheFirstRequest() async throws {
        let path = AnimalFixtures.temporaryDatabasePath()
        let sample = Array(PlaceStoreContract.sample.prefix(20))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("places-\(UUID().uuidString).tsv")
        let lines = ["id\tname\tregion\tcountry\tlat\tlon\tpopulation\tpostalCode\tlabel"] + sample.map {
            [$0.id, $0.name, $0.region ?? "", $0.countryCode, "\($0.location.latitude)", "\($0.location.longitude)",
             "\($0.population)", $0.postalCode ?? "", $0.label].joined(separator: "\t")
        }
        try Data(lines.joined(separator: "\n").utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let configuration = PetServerConfiguration(port: 0, database: path, demoPetsWhenEmpty: 0, logLevel: .error, placesWhenEmpty: file)
        try await buildApplication(configuration: configuration).test(.live) { client in
            try await client.execute(uri: "/api/places/" + sample[0].id, method: .get) { response in
                #expect(response.status == .ok)
            }
        }
        #expect(try await SQLiteAnimalStore(path: path).placeCount() == sample.count)
    }
}
