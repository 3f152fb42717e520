import Foundation
import PetAPI
import PetSpotDomain
import Testing

@Suite(.timeLimit(.minutes(1))) struct AnimalRepositoryTests {
    private let base = URL(string: "http://127.0.0.1:8080")

    @Test func givenNoLocation_whenBuildingRequest_thenNoQueryItems() throws {
        let repository = AnimalRepository(baseURL: try #require(base))
        #expect(repository.requestURL(near: nil).absoluteString == "http://127.0.0.1:8080/api/pets")
        #expect(repository.requestPath(near: nil) == "/api/pets")
    }

    // The startup screen decides the precision (departure 6); the client sends what it is given.
    @Test func givenPreciseLocation_whenBuildingRequest_thenCoordinatesAreSentAsGiven() throws {
        let repository = AnimalRepository(baseURL: try #require(base))
        let here = try UserLocation(latitude: 52.229_676, longitude: 21.012_229)
        #expect(repository.requestPath(near: here) == "/api/pets?lat=52.229676&lon=21.012229")
    }

    @Test func givenLocationRadiusAndLimit_whenBuildingRequest_thenAllAreSent() throws {
        let repository = AnimalRepository(configuration: .init(baseURL: try #require(base), radiusKm: 25, limit: 50))
        let here = try UserLocation(latitude: -33.869, longitude: 151.209)
        #expect(repository.requestPath(near: here) == "/api/pets?lat=-33.869&lon=151.209&radiusKm=25&limit=50")
    }

    @Test func givenFilterAndNewestFirst_whenBuildingRequest_thenBothAreSentAndDistanceOnlyWithALocation() throws {
        let filter = AnimalFilter(species: [.cat, .dog], ageBands: [.baby])
        let recent = AnimalRepository(configuration: .init(baseURL: try #require(base), filter: filter, sort: .recent))
        let here = try UserLocation(latitude: 52.23, longitude: 21.01)
        #expect(recent.requestPath(near: here) == "/api/pets?lat=52.23&lon=21.01&species=dog,cat&age=baby&sort=recent")
        #expect(recent.requestPath(near: nil) == "/api/pets?species=dog,cat&age=baby")
        let nearest = AnimalRepository(configuration: .init(baseURL: try #require(base), filter: filter, sort: .distance))
        #expect(nearest.requestPath(near: nil) == "/api/pets?species=dog,cat&age=baby")
    }

    @Test func givenRadiusButNoLocation_whenBuildingRequest_thenRadiusIsLeftOut() throws {
        let repository = AnimalRepository(configuration: .init(baseURL: try #require(base), radiusKm: 25, limit: 50))
        #expect(repository.requestPath(near: nil) == "/api/pets?limit=50")
    }

    @Test func givenBaseURLWithPathPrefix_whenBuildingRequest_thenPrefixIsKept() throws {
        let repository = AnimalRepository(baseURL: try #require(URL(string: "https://pets.example.com/v1")))
        #expect(repository.requestURL(near: nil).absoluteString == "https://pets.example.com/v1/api/pets")
    }

    @Test func givenNothingListening_whenFetching_thenTransportError() async throws {
        // Port 9 (discard) on loopback has no listener here; the connection is refused at once.
        let repository = AnimalRepository(configuration: .init(baseURL: try #require(URL(string: "http://127.0.0.1:9")), timeout: 5))
        await #expect {
            _ = try await repository.fetchAnimals(near: nil)
        } throws: { error in
            guard case .transport = error as? AnimalRepositoryError else { return false }
            return true
        }
    }
}
