/// A place a person can say they are at instead of sharing their location: a city, or a postal code,
/// from the server's gazetteer (docs/api.md, "Places"). Its coordinates are public, not the person's.
public struct Place: Sendable, Hashable, Codable, Identifiable {
    /// `geonames:<id>` for a city, `us-zip:<ZIP>` for a US postal code.
    public var id: String
    /// As the gazetteer writes it (`São Paulo`, `Köln`): shown as given, never translated.
    public var name: String
    /// The state of a US place; nil where the gazetteer names none.
    public var region: String?
    /// ISO 3166-1 alpha-2.
    public var countryCode: String
    public var location: GeoCoordinate
    /// 0 for a postal code, and for a city whose population the gazetteer does not know.
    public var population: Int
    public var postalCode: String?
    /// What a list of suggestions shows: `Lyon, France`, `New York, NY 10001`.
    public var label: String

    public init(
        id: String, name: String, region: String?, countryCode: String, location: GeoCoordinate,
        population: Int, postalCode: String?, label: String
    ) {
        self.id = id
        self.name = name
        self.region = region
        self.countryCode = countryCode
        self.location = location
        self.population = population
        self.postalCode = postalCode
        self.label = label
    }
}

/// Where suggestions of places come from (`GET /api/places`): places whose name starts with `text`
/// (accents and case aside) or whose postal code is `text`, best first.
public protocol PlaceSearching: Sendable {
    func searchPlaces(_ text: String, limit: Int) async throws -> [Place]
}

/// Where the chosen place is remembered across launches: UserDefaults on iOS, the simulated phone's
/// storage in scenarios. Synchronous, as UserDefaults is: the first screen reads it as it appears.
@MainActor
public protocol PlaceMemory: AnyObject {
    /// The place remembered; nil when none is (setting nil forgets it).
    var place: Place? { get set }
}

/// A ``PlaceMemory`` in memory: it lasts as long as the object (a scenario's phone, a test).
@MainActor
public final class InMemoryPlaceMemory: PlaceMemory {
    public var place: Place?

    public init(_ place: Place? = nil) {
        self.place = place
    }
}
