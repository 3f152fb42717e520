import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PetAPI
import PetServer
import PetSpotDomain
import Testing

@Suite(.timeLimit(.minutes(1))) struct AnimalRoutesTests {
    /// Three pets in Warsaw, published a day apart.
    private func makeApp() async throws -> some ApplicationProtocol {
        let km = 1 / AnimalFixtures.kmPerDegree
        return try await AnimalFixtures.application([
            try AnimalFixtures.animal("w1", lat: 52.23 + 1 * km, lon: 21.01, publishedAt: Date(timeIntervalSince1970: 1_000_000)),
            try AnimalFixtures.animal("w2", lat: 52.23 + 2 * km, lon: 21.01, publishedAt: Date(timeIntervalSince1970: 2_000_000)),
            try AnimalFixtures.animal("w3", lat: 52.23 + 60 * km, lon: 21.01, publishedAt: Date(timeIntervalSince1970: 3_000_000)),
        ])
    }

    private func get(_ uri: String) async throws -> (status: HTTPResponse.Status, body: Data, contentType: String?) {
        try await makeApp().test(.router) { client in
            try await client.execute(uri: uri, method: .get) { response in
                (response.status, Data(String(buffer: response.body).utf8), response.headers[.contentType])
            }
        }
    }

    private func list(_ uri: String) async throws -> AnimalListResponse {
        let (status, body, _) = try await get(uri)
        #expect(status == .ok, "\(uri)")
        return try PetAPICoding.makeDecoder().decode(AnimalListResponse.self, from: body)
    }

    private func expectInvalid(_ uri: String, parameter: String, mentioning range: String) async throws {
        let (status, body, contentType) = try await get(uri)
        #expect(status == .badRequest, "\(uri)")
        #expect(contentType?.hasPrefix("application/json") == true)
        let error = try PetAPICoding.makeDecoder().decode(APIErrorBody.self, from: body).error
        #expect(error.code == "invalid_parameter", "\(uri)")
        #expect(error.parameter == parameter, "\(uri)")
        #expect(error.message.contains(range), "\(uri): \(error.message)")
    }

    @Test func givenNoParameters_whenListing_thenAllNewestFirstWithNullDistance() async throws {
        let (status, body, _) = try await get("/api/pets")
        #expect(status == .ok)
        let list = try PetAPICoding.makeDecoder().decode(AnimalListResponse.self, from: body)
        #expect(list.animals.map(\.id) == ["w3", "w2", "w1"])
        #expect(list.pagination == .init(page: 1, limit: 20, totalCount: 3))
        #expect(String(decoding: body, as: UTF8.self).contains("\"distanceKm\":null"))
    }

    @Test func givenCoordinates_whenListing_thenDefault50KmNearestFirstWithDistances() async throws {
        let list = try await list("/api/pets?lat=52.23&lon=21.01")
        #expect(list.animals.map(\.id) == ["w1", "w2"])
        #expect(list.animals.allSatisfy { $0.distanceKm != nil })
        #expect(try await self.list("/api/pets?lat=52.23&lon=21.01&radiusKm=500").animals.map(\.id) == ["w1", "w2", "w3"])
    }

    @Test(arguments: ["/api/pets?lat=52.23", "/api/pets?lat=52.23&lon="])
    func givenLatWithoutLon_whenListing_thenLonIsNamed(_ uri: String) async throws {
        try await expectInvalid(uri, parameter: "lon", mentioning: "between -180 and 180")
    }

    @Test func givenLonWithoutLat_whenListing_thenLatIsNamed() async throws {
        try await expectInvalid("/api/pets?lon=21.01", parameter: "lat", mentioning: "between -90 and 90")
    }

    @Test(arguments: ["nan", "NaN", "inf", "-inf", "infinity", "1e400", "", "abc", "90.0001", "-90.5", "52,23", "0x", " 52"])
    func givenInvalidLatitude_whenListing_thenBadRequestNamingLatAndRange(_ value: String) async throws {
        let encoded = value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
        try await expectInvalid("/api/pets?lat=\(encoded)&lon=21", parameter: "lat", mentioning: "between -90 and 90")
    }

    @Test(arguments: ["nan", "inf", "1e400", "180.01", "-181", "", "east"])
    func givenInvalidLongitude_whenListing_thenBadRequestNamingLonAndRange(_ value: String) async throws {
        try await expectInvalid("/api/pets?lat=52&lon=\(value)", parameter: "lon", mentioning: "between -180 and 180")
    }

    @Test(arguments: ["lat=90&lon=180", "lat=-90&lon=-180", "lat=0&lon=0", "lat=1e1&lon=2E1"])
    func givenCoordinatesAtRangeLimits_whenListing_thenAccepted(_ query: String) async throws {
        _ = try await list("/api/pets?\(query)")
    }

    @Test func givenRadiusWithoutCoordinates_whenListing_thenRadiusIsNamed() async throws {
        try await expectInvalid("/api/pets?radiusKm=10", parameter: "radiusKm", mentioning: "only together with lat and lon")
    }

    @Test(arguments: ["0", "0.99", "500.01", "-5", "nan", "inf", "", "ten"])
    func givenRadiusOutOfRange_whenListing_thenBadRequestNamingRange(_ value: String) async throws {
        try await expectInvalid("/api/pets?lat=52.23&lon=21.01&radiusKm=\(value)", parameter: "radiusKm", mentioning: "between 1 and 500")
    }

    @Test(arguments: ["1", "500", "2.5"])
    func givenRadiusWithinRange_whenListing_thenAccepted(_ value: String) async throws {
        _ = try await list("/api/pets?lat=52.23&lon=21.01&radiusKm=\(value)")
    }

    @Test(arguments: ["0", "101", "-1", "1.5", "", "many", "99999999999999999999"])
    func givenLimitOutOfRange_whenListing_thenBadRequestNamingRange(_ value: String) async throws {
        try await expectInvalid("/api/pets?limit=\(value)", parameter: "limit", mentioning: "between 1 and 100")
    }

    @Test func givenLimitAtBothEnds_whenListing_thenPageSizeFollows() async throws {
        #expect(try await list("/api/pets?limit=1").animals.map(\.id) == ["w3"])
        #expect(try await list("/api/pets?limit=100").pagination == .init(page: 1, limit: 100, totalCount: 3))
    }

    @Test(arguments: ["0", "-3", "", "two", "1.0", "99999999999999999999"])
    func givenInvalidPage_whenListing_thenBadRequestNamingMinimum(_ value: String) async throws {
        try await expectInvalid("/api/pets?page=\(value)", parameter: "page", mentioning: "at least 1")
    }

    @Test func givenSecondPageAndHugePage_whenListing_thenRestAndEmpty() async throws {
        let second = try await list("/api/pets?limit=2&page=2")
        #expect(second.animals.map(\.id) == ["w1"])
        #expect(second.pagination == .init(page: 2, limit: 2, totalCount: 3))
        #expect(second.pagination.totalPages == 2)
        let huge = try await list("/api/pets?lat=52.23&lon=21.01&limit=100&page=9223372036854775807")
        #expect(huge.animals.isEmpty)
        #expect(huge.pagination.totalCount == 2)
    }

    @Test func givenFiltersAndNewestFirst_whenListingNearby_thenOnlyThoseKeptNewestFirstAndCounted() async throws {
        // All three are dogs aged 24 months (adult, female): a cat filter keeps none, an adult one all.
        #expect(try await list("/api/pets?species=cat").pagination.totalCount == 0)
        #expect(try await list("/api/pets?species=cat,dog&sex=female&age=adult,baby").animals.map(\.id) == ["w3", "w2", "w1"])
        let recent = try await list("/api/pets?lat=52.23&lon=21.01&radiusKm=500&sort=recent&age=adult")
        #expect(recent.animals.map(\.id) == ["w3", "w2", "w1"])
        #expect(recent.animals.allSatisfy { $0.distanceKm != nil })
        #expect(try await list("/api/pets?sex=male").pagination.totalCount == 0)
        #expect(try await list("/api/pets?lat=52.23&lon=21.01&age=baby,young,senior").pagination.totalCount == 0)
    }

    @Test func givenOneFilterWrittenTwoWays_whenListed_thenOneTag_andNewestFirstNearbyAnother() async throws {
        try await makeApp().test(.router) { client in
            func tag(_ uri: String) async throws -> String? {
                try await client.execute(uri: uri, method: .get) { $0.headers[.eTag] }
            }
            let nearby = "/api/pets?lat=52.23&lon=21.01"
            let catsAndDogs = try await tag("/api/pets?species=cat,dog")
            #expect(catsAndDogs != nil)
            #expect(try await tag("/api/pets?species=dog,cat,dog") == catsAndDogs)
            let nearest = try await tag(nearby)
            #expect(try await tag(nearby + "&sort=distance") == nearest)
            #expect(try await tag(nearby + "&sort=recent") != nearest)
            #expect(try await tag("/api/pets") != catsAndDogs)
        }
    }

    @Test(arguments: [
        ("species=hamster", "species"), ("species=", "species"), ("sex=dog", "sex"), ("age=elderly", "age"),
        ("sort=distance", "sort"), ("sort=recent", "sort"), ("lat=1&lon=2&sort=closest", "sort"), ("species=dog&species=cat", "species"),
    ])
    func givenAFilterOrOrderNoListingHas_whenListing_thenItIsNamed(_ query: String, _ parameter: String) async throws {
        let (status, body, _) = try await get("/api/pets?" + query)
        #expect(status == .badRequest, "\(query)")
        #expect(try PetAPICoding.makeDecoder().decode(APIErrorBody.self, from: body).error.parameter == parameter, "\(query)")
    }

    @Test func givenUnknownParameters_whenListing_thenIgnored() async throws {
        #expect(try await list("/api/pets?colour=brown&order=asc&x&x=1&x=2").animals.count == 3)
    }

    @Test(arguments: ["1e309~x", "-1e400~w1", "inf~w1", "w1"])
    func givenCursorThatIsNoPosition_whenListing_thenBadRequestNamingCursor(_ cursor: String) async throws {
        try await expectInvalid("/api/pets?cursor=\(cursor)", parameter: "cursor", mentioning: "nextCursor")
    }

    @Test(arguments: ["limit=1&limit=500", "lat=1&lat=2&lon=3", "lat=1&lon=3&lon=3", "cursor=1~a&cursor=1~a", "page=1&page="])
    func givenAParameterTwice_whenListing_thenBadRequestNamingIt(_ query: String) async throws {
        let name = String(query.split(separator: "&")[1].split(separator: "=")[0])
        try await expectInvalid("/api/pets?\(query)", parameter: name, mentioning: "given more than once")
    }

    @Test(arguments: ["0x1p3", "0x34", "+inf", "1_0", "5e", "e5", ".", "+", "1.2.3", "%2052"])
    func givenALatitudeThatIsNotADecimalNumber_whenListing_thenBadRequestNamingLat(_ value: String) async throws {
        try await expectInvalid("/api/pets?lat=\(value)&lon=21", parameter: "lat", mentioning: "decimal number")
    }

    @Test func givenPetsWhoseIdsNeedEncoding_whenFetchedByTheirPercentEncodedPath_thenEachIsFound() async throws {
        let ids = ["🐶", "a b", "a/b", "100%", "ü"]
        let app = try await AnimalFixtures.application(try ids.map { try AnimalFixtures.animal($0, lat: 52.23, lon: 21.01) })
        try await app.test(.router) { client in
            for id in ids {
                let path = "/api/pets/" + (id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok, "\(path)")
                    let animal = try? PetAPICoding.makeDecoder().decode(AnimalDTO.self, from: Data(String(buffer: response.body).utf8))
                    #expect(animal?.id == id, "\(path)")
                }
            }
        }
    }

    @Test func givenAnOlderDataVersionHeld_whenTheListingIsReadAfterAWrite_thenItsETagNamesTheVersionOfItsBody() async throws {
        let path = AnimalFixtures.temporaryDatabasePath()
        let app = try await AnimalFixtures.application(
            [try AnimalFixtures.animal("first", lat: 52.23, lon: 21.01)], path: path,
            responseCacheEntries: 0, dataVersionInterval: .seconds(3600)
        )
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/api/pets", method: .get) { $0.headers[.eTag] }
            // Another process writes; this server keeps the version it read for an hour.
            let other = try SQLiteAnimalStore(path: path)
            try await other.insert([try AnimalFixtures.animal("second", lat: 52.23, lon: 21.01)])
            let current = try await other.dataVersion()
            try await client.execute(uri: "/api/pets", method: .get) { response in
                let page = try PetAPICoding.makeDecoder().decode(AnimalListResponse.self, from: Data(String(buffer: response.body).utf8))
                #expect(page.animals.count == 2)
                #expect(response.headers[.eTag]?.hasPrefix("\"v\(current)-") == true, "\(String(describing: response.headers[.eTag]))")
            }
        }
    }

    @Test func givenAnOlderDataVersionHeld_whenAPetIsReadAfterItChanged_thenItsETagNamesTheVersionOfItsBody() async throws {
        let path = AnimalFixtures.temporaryDatabasePath()
        let pet = try AnimalFixtures.animal("one", lat: 52.23, lon: 21.01)
        let app = try await AnimalFixtures.application([pet], path: path, dataVersionInterval: .seconds(3600))
        try await app.test(.router) { client in
            _ = try await client.execute(uri: "/api/pets/one", method: .get) { $0.headers[.eTag] }
            var renamed = pet
            renamed.name = "Renamed"
            let other = try SQLiteAnimalStore(path: path)
            _ = try await other.apply([.listed(renamed)], sync: false)
            let current = try await other.dataVersion()
            try await client.execute(uri: "/api/pets/one", method: .get) { response in
                let animal = try PetAPICoding.makeDecoder().decode(AnimalDTO.self, from: Data(String(buffer: response.body).utf8))
                #expect(animal.name == "Renamed")
                #expect(response.headers[.eTag]?.hasPrefix("\"v\(current)-") == true, "\(String(describing: response.headers[.eTag]))")
            }
        }
    }

    @Test func givenAnAdoptedPet_whenFetched_thenGoneWithTheDocumentedBodyAndTheListingLeavesIt() async throws {
        let path = AnimalFixtures.temporaryDatabasePath()
        let app = try await AnimalFixtures.application(
            [try AnimalFixtures.animal("home", lat: 52.23, lon: 21.01), try AnimalFixtures.animal("here", lat: 52.23, lon: 21.01)],
            path: path
        )
        _ = try await SQLiteAnimalStore(path: path).apply([.withdrawn(id: "home", .adopted)], sync: false)
        try await app.test(.router) { client in
            try await client.execute(uri: "/api/pets/home", method: .get) { response in
                #expect(response.status == .gone)
                let error = try PetAPICoding.makeDecoder().decode(APIErrorBody.self, from: Data(String(buffer: response.body).utf8)).error
                #expect(error.code == "gone")
                #expect(error.message == "pet \"home\" was adopted")
            }
            try await client.execute(uri: "/api/pets", method: .get) { response in
                let page = try PetAPICoding.makeDecoder().decode(AnimalListResponse.self, from: Data(String(buffer: response.body).utf8))
                #expect(page.animals.map(\.id) == ["here"])
                #expect(page.pagination.totalCount == 1)
            }
        }
    }

    @Test(arguments: ["/api/pets/%ZZ", "/api/pets/%C3%28", "/api/pets/%F0%9F%90", "/api/pets/abc%"])
    func givenAnIdThatIsNotPercentEncodedUTF8_whenFetched_thenBadRequestNamingId(_ uri: String) async throws {
        let (status, body, _) = try await get(uri)
        #expect(status == .badRequest, "\(uri)")
        let error = try PetAPICoding.makeDecoder().decode(APIErrorBody.self, from: body).error
        #expect(error.parameter == "id")
    }

    @Test(arguments: ["/api/pets/w1%00garbage", "/api/pets/w1%00", "/api/pets/w1%09", "/api/pets/w1%7F", "/api/pets/w1%C2%85"])
    func givenAnIdWithAControlCharacter_whenFetched_thenNotFoundNeverAnotherPet(_ uri: String) async throws {
        let (status, body, _) = try await get(uri)
        #expect(status == .notFound, "\(uri)")
        #expect(try PetAPICoding.makeDecoder().decode(APIErrorBody.self, from: body).error.code == "not_found")
    }

    @Test(arguments: ["/api/pets/", "/api/pets/?lat=52.23&lon=21.01"])
    func givenAnEmptyId_whenFetched_thenNotFoundInsteadOfTheListing(_ uri: String) async throws {
        let (status, body, _) = try await get(uri)
        #expect(status == .notFound, "\(uri)")
        #expect(try PetAPICoding.makeDecoder().decode(APIErrorBody.self, from: body).error.code == "not_found")
    }

    @Test(arguments: [
        "?", "?&&&", "?===", "?lat", "?lat=&lon=", "?%zz=%zz", "?lat=%E2%82%AC&lon=1", "?page=%00", "?lat=52.23&lon=21.01&radiusKm",
        "?lat=1&lat=2&lon=3&lon=4&page=1&page=2", "?limit=+5", "?page=-0", "?" + String(repeating: "a=b&", count: 2000),
        "?lat=52.2300000000000000000000000000000000000001&lon=21.01", "?lat=-0&lon=-0",
    ])
    func givenOddQueryString_whenListing_thenAnswerIsOkOrBadRequestNeverServerError(_ query: String) async throws {
        let (status, body, _) = try await get("/api/pets\(query)")
        #expect(status == .ok || status == .badRequest, "\(query.prefix(60)) → \(status)")
        #expect((try? JSONSerialization.jsonObject(with: body)) != nil)
    }

    @Test func givenKnownId_whenFetchingOne_thenAnimalWithNullDistance() async throws {
        let (status, body, _) = try await get("/api/pets/w2")
        #expect(status == .ok)
        let animal = try PetAPICoding.makeDecoder().decode(AnimalDTO.self, from: body)
        #expect(animal.id == "w2")
        #expect(animal.distanceKm == nil)
    }

    @Test(arguments: ["/api/pets/nope", "/api/nothing", "/", "/api/pets/w1/extra", "/health/x"])
    func givenUnknownPathOrId_whenRequested_thenJSON404(_ uri: String) async throws {
        let (status, body, contentType) = try await get(uri)
        #expect(status == .notFound)
        #expect(contentType?.hasPrefix("application/json") == true)
        #expect(try PetAPICoding.makeDecoder().decode(APIErrorBody.self, from: body).error.code == "not_found")
    }

    @Test func givenRunningApp_whenCheckingHealth_thenOk() async throws {
        let (status, body, _) = try await get("/health")
        #expect(status == .ok)
        #expect(String(decoding: body, as: UTF8.self) == #"{"status":"ok"}"#)
    }

    @Test func givenRunningApp_whenFetchingOpenAPI_thenYamlDescribingEveryPathAndRule() async throws {
        let (status, body, contentType) = try await get("/openapi.yaml")
        #expect(status == .ok)
        #expect(contentType?.hasPrefix("application/yaml") == true)
        let text = String(decoding: body, as: UTF8.self)
        for fragment in ["openapi: 3.1.0", "/api/pets:", "/api/pets/{id}:", "/health:", "minimum: 1, maximum: 500, default: 50",
                         "minimum: 1, maximum: 100, default: 20", "invalid_parameter", "distanceKm"] {
            #expect(text.contains(fragment), "missing \(fragment)")
        }
    }
}

/// A method a path does not answer: 405 with `Allow`, never a 404 that says the path is unknown.
@Suite(.timeLimit(.minutes(1))) struct MethodNotAllowedTests {
    @Test(arguments: [
        (HTTPRequest.Method.trace, "/health"), (.post, "/api/pets"), (.delete, "/api/pets/w1"), (.put, "/openapi.yaml"),
        (.options, "/api/pets"), (.post, "/api/places"), (.delete, "/api/places/geonames:1"),
    ])
    func givenKnownPath_whenAskedWithAnotherMethod_then405AllowingGet(method: HTTPRequest.Method, path: String) async throws {
        let app = try await AnimalFixtures.application([try AnimalFixtures.animal("w1", lat: 52.23, lon: 21.01)])
        try await app.test(.router) { client in
            try await client.execute(uri: path, method: method) { response in
                #expect(response.status == .methodNotAllowed)
                #expect(response.headers[.allow] == "GET, HEAD")
                #expect(String(buffer: response.body).contains("\"code\":\"method_not_allowed\""))
            }
        }
    }

    @Test(arguments: ["/health", "/api/pets", "/api/pets/w1"])
    func givenGetPath_whenAskedWithHead_thenTheGetHeadersWithoutBody(path: String) async throws {
        let app = try await AnimalFixtures.application([try AnimalFixtures.animal("w1", lat: 52.23, lon: 21.01)])
        try await app.test(.router) { client in
            let get = try await client.execute(uri: path, method: .get) { $0.headers }
            try await client.execute(uri: path, method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.contentType] == get[.contentType])
                #expect(response.headers[.eTag] == get[.eTag])
            }
        }
    }

    @Test func givenUnknownPath_whenAskedWithAnotherMethod_thenStill404() async throws {
        let app = try await AnimalFixtures.application([])
        try await app.test(.router) { client in
            try await client.execute(uri: "/nothing", method: .post) { response in
                #expect(response.status == .notFound)
            }
        }
    }
}
