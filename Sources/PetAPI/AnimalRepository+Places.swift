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
        var request = URLRequest(url: placesURL(text, limit: limit), cachePolicy: .useProtocolCachePolicy, timeoutInterval: configuration.timeout)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw AnimalRepositoryError.transport(message: error.localizedDescription)
        }
        guard let http = response as? HTTPURLResponse else { throw AnimalRepositoryError.transport(message: "the answer was not HTTP") }
        let decoder = PetAPICoding.makeDecoder()
        guard (200..<300).contains(http.statusCode) else {
            throw AnimalRepositoryError.httpStatus(code: http.statusCode, error: (try? decoder.decode(APIErrorBody.self, from: data))?.error)
        }
        let list: PlaceListResponse
        do {
            list = try decoder.decode(PlaceListResponse.self, from: data)
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
