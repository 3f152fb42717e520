import Foundation
import PetSpotDomain

/// One place as it travels over the wire (`GET /api/places`, `GET /api/places/{id}`).
public struct PlaceDTO: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var region: String?
    public var countryCode: String
    /// Rounded to two decimals (about 1 km), as the app rounds a person's own coordinates.
    public var location: AnimalDTO.LocationDTO
    public var population: Int
    public var postalCode: String?
    public var label: String

    /// The coordinates' precision on the wire: what the app sends of a person's own (departure 6).
    public static let coordinateDecimals = 2

    public init(_ place: Place) {
        let scale = pow(10.0, Double(Self.coordinateDecimals))
        id = place.id
        name = place.name
        region = place.region
        countryCode = place.countryCode
        location = .init(
            lat: (place.location.latitude * scale).rounded() / scale, lon: (place.location.longitude * scale).rounded() / scale
        )
        population = place.population
        postalCode = place.postalCode
        label = place.label
    }

    /// The domain place; nil when the coordinates are out of range.
    public func toDomain() -> Place? {
        guard let location = try? GeoCoordinate(latitude: location.lat, longitude: location.lon) else { return nil }
        return Place(
            id: id, name: name, region: region, countryCode: countryCode, location: location,
            population: population, postalCode: postalCode, label: label
        )
    }

    private enum CodingKeys: String, CodingKey {
        case id, name, region, countryCode, location, population, postalCode, label
    }

    // `region` and `postalCode` are written as `null` when absent, never left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(region, forKey: .region)
        try container.encode(countryCode, forKey: .countryCode)
        try container.encode(location, forKey: .location)
        try container.encode(population, forKey: .population)
        try container.encode(postalCode, forKey: .postalCode)
        try container.encode(label, forKey: .label)
    }
}

/// Whose data the places are: GeoNames asks for this credit wherever its data is shown (CC BY 4.0).
public enum PlaceAttribution {
    public static let text = "Places from GeoNames (https://www.geonames.org), CC BY 4.0; US ZIP codes from the zipcodes package (MIT)."
}

/// The body of `GET /api/places`: suggestions, best first.
public struct PlaceListResponse: Codable, Sendable, Equatable {
    public var places: [PlaceDTO]
    public var attribution: String

    public init(places: [PlaceDTO], attribution: String = PlaceAttribution.text) {
        self.places = places
        self.attribution = attribution
    }
}

/// The body of `GET /api/places/{id}`.
public struct PlaceResponse: Codable, Sendable, Equatable {
    public var place: PlaceDTO
    public var attribution: String

    public init(place: PlaceDTO, attribution: String = PlaceAttribution.text) {
        self.place = place
        self.attribution = attribution
    }
}

/// What `GET /api/places` asks: places whose name starts with ``text`` (accents and case aside) or
/// whose postal code is it, at most ``limit`` of them.
public struct PlaceQuery: Sendable, Equatable {
    public var text: String
    public var limit: Int

    public static let limitRange: ClosedRange<Int> = 1...10
    public static let defaultLimit = 10
    public static let maximumTextLength = 100

    public init(text: String, limit: Int = defaultLimit) {
        self.text = text
        self.limit = limit
    }

    /// The parameters it reads; others are ignored.
    public static let parameterNames: Set<String> = ["q", "limit"]

    /// Parses and validates `q` and `limit`, as ``AnimalQuery/parse(_:)`` does the listing's: a
    /// parameter given twice, a `q` of spaces only, over 100 Unicode scalars or holding a control
    /// character, and a `limit` outside 1…10 are refused, naming the parameter. Spaces at either end
    /// of `q` are dropped.
    public static func parse(_ parameters: [(name: String, value: String)]) throws(AnimalQueryError) -> PlaceQuery {
        let first = try AnimalQuery.values(of: parameterNames, in: parameters)
        guard let raw = first["q"] else {
            throw AnimalQueryError(parameter: "q", message: "q is required: the start of a place's name, or a postal code")
        }
        // As the API document's schema says it (so that a schema-valid q is always taken): at most
        // 100 Unicode scalars as sent, no control character, something besides spaces.
        guard raw.unicodeScalars.count <= maximumTextLength else {
            throw AnimalQueryError(
                parameter: "q", message: "q must be at most \(maximumTextLength) characters (Unicode scalars; was \(raw.unicodeScalars.count))"
            )
        }
        guard !raw.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw AnimalQueryError(parameter: "q", message: "q must not hold a control character")
        }
        let text = String(raw.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
        guard !text.isEmpty else {
            throw AnimalQueryError(parameter: "q", message: "q must not be empty: the start of a place's name, or a postal code")
        }
        var query = PlaceQuery(text: text)
        if let limit = first["limit"] {
            guard let value = Int(limit), limitRange.contains(value) else {
                throw AnimalQueryError(
                    parameter: "limit", message: "limit must be a whole number between 1 and 10 (was \"\(limit.prefix(40))\")"
                )
            }
            query.limit = value
        }
        return query
    }
}
