import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PetSpotDomain

/// The HTTP client of `GET /api/pets`: the live ``AnimalRepositoryProtocol``.
///
/// It sends the coordinates it is given, as given, and only when a location is given: how precise they
/// are is the startup screen's decision (`StartupMachine` rounds them to about 1 km, departure 6).
public struct AnimalRepository: AnimalRepositoryProtocol {
    public struct Configuration: Sendable, Equatable {
        /// The server root, e.g. `http://127.0.0.1:8080`.
        public var baseURL: URL
        /// Search radius in kilometres (1…500); nil uses the server's default (50).
        public var radiusKm: Double?
        /// Animals per request (1…100); nil uses the server's default (20).
        public var limit: Int?
        /// Seconds before a request gives up.
        public var timeout: TimeInterval
        /// Which pets to ask for; by default all (the app's startup screen asks for all).
        public var filter: AnimalFilter
        /// The order to ask for; nil leaves the server's default (nearest first with a location).
        /// ``AnimalSort/distance`` is sent only with a location, which it needs.
        public var sort: AnimalSort?

        public init(
            baseURL: URL,
            radiusKm: Double? = nil,
            limit: Int? = nil,
            timeout: TimeInterval = 10,
            filter: AnimalFilter = AnimalFilter(),
            sort: AnimalSort? = nil
        ) {
            self.baseURL = baseURL
            self.radiusKm = radiusKm
            self.limit = limit
            self.timeout = timeout
            self.filter = filter
            self.sort = sort
        }
    }

    public let configuration: Configuration
    private let session: URLSession

    public init(configuration: Configuration, session: URLSession = .shared) {
        self.configuration = configuration
        self.session = session
    }

    public init(baseURL: URL) {
        self.init(configuration: Configuration(baseURL: baseURL))
    }

    /// The query this repository sends for `location`.
    public func query(near location: UserLocation?) -> AnimalQuery {
        var query = AnimalQuery()
        if let location {
            query.center = location.coordinate
            if let radius = configuration.radiusKm { query.radiusKm = radius }
        }
        if let limit = configuration.limit { query.limit = limit }
        query.filter = configuration.filter
        if configuration.sort == .recent || location != nil { query.sort = configuration.sort }
        return query
    }

    /// The exact URL a fetch for `location` requests.
    public func requestURL(near location: UserLocation?) -> URL {
        let items = query(near: location).queryItems
        let pets = configuration.baseURL.appendingPathComponent("api").appendingPathComponent("pets")
        guard !items.isEmpty, var components = URLComponents(url: pets, resolvingAgainstBaseURL: false) else {
            return pets
        }
        components.queryItems = items.map { URLQueryItem(name: $0.name, value: $0.value) }
        return components.url ?? pets
    }

    /// The path and query of ``requestURL(near:)``, e.g. `/api/pets?lat=52.23&lon=21.01`, for logs.
    public func requestPath(near location: UserLocation?) -> String {
        let url = requestURL(near: location)
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let path = components?.path ?? url.path
        guard let query = components?.percentEncodedQuery, !query.isEmpty else { return path }
        return "\(path)?\(query)"
    }

    public func fetchAnimals(near location: UserLocation?) async throws -> [Animal] {
        try await fetchPage(near: location).animals
    }

    /// The body of a 2xx answer to `GET url`; the server's error body with any other status.
    ///
    /// The server's ETag and Cache-Control (docs/api.md, "Caching") drive the session's URLCache: a
    /// repeat within its max-age is served from it, a later one is revalidated (304, no body).
    func get(_ url: URL) async throws(AnimalRepositoryError) -> Data {
        var request = URLRequest(url: url, cachePolicy: .useProtocolCachePolicy, timeoutInterval: configuration.timeout)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw .transport(message: error.localizedDescription)
        }
        guard let http = response as? HTTPURLResponse else {
            throw .transport(message: "the answer was not HTTP")
        }
        guard (200..<300).contains(http.statusCode) else {
            let body = try? PetAPICoding.makeDecoder().decode(APIErrorBody.self, from: data)
            throw .httpStatus(code: http.statusCode, error: body?.error)
        }
        return data
    }

    /// One page of the listing with its pagination, mapped to domain animals.
    public func fetchPage(near location: UserLocation?, page: Int = 1) async throws(AnimalRepositoryError) -> (animals: [Animal], pagination: AnimalListResponse.Pagination) {
        var url = requestURL(near: location)
        if page != 1, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.queryItems = (components.queryItems ?? []) + [URLQueryItem(name: "page", value: String(page))]
            url = components.url ?? url
        }
        let data = try await get(url)
        let decoder = PetAPICoding.makeDecoder()
        let list: AnimalListResponse
        do {
            list = try decoder.decode(AnimalListResponse.self, from: data)
        } catch {
            throw .decoding(message: String(describing: error))
        }
        var animals: [Animal] = []
        animals.reserveCapacity(list.animals.count)
        for (index, dto) in list.animals.enumerated() {
            do {
                animals.append(try dto.toDomain(allowingOlderIDs: true))
            } catch {
                throw .decoding(message: "animals[\(index)].\(error.field) \(error.message)")
            }
        }
        return (animals, list.pagination)
    }
}
