import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PetSpotDomain

extension AnimalRepository: PlaceSearching {
    /// The exact URL a search for `text` requests: `/api/places?q=…&limit=…`.
    public func placesURL(_ text: String, limit: Int) -> URL {
        let places = configuration.baseURL.appendingPathComponent("api").appendingPathComponent("places")
        guard var components = URLComponents(url: places, resolvingAgainstBaseURL: false) else { return places }
        components.queryItems = [URLQueryItem(name: "q", value: text), URLQueryItem(name: "limit", value: String(limit))]
        return components.url ?? places
    }

    /// Suggestions for `text` (what a person typed, sent as typed: it is not their location).
    public func searchPlaces(_ text: String, limit: Int) async throws -> [Place] {
        let data = try await get(placesURL(text, limit: limit))
        let list: PlaceListResponse
        do {
            list = try PetAPICoding.makeDecoder().decode(PlaceListResponse.self, from: data)
        } catch {
            throw AnimalRepositoryError.decoding(message: String(describing: error))
        }
        return try list.places.enumerated().map { index, dto in
            guard let place = dto.toDomain() else {
                throw AnimalRepositoryError.decoding(message: "places[\(index)].location is out of range")
            }
            return place
        }
    }
}
