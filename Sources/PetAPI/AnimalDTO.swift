import Foundation
import PetSpotDomain

/// One animal as it travels over the wire (`GET /api/pets`, `GET /api/pets/{id}`, `petspot import`).
public struct AnimalDTO: Codable, Sendable, Equatable {
    public struct ShelterDTO: Codable, Sendable, Equatable {
        public var name: String
        public var city: String

        public init(name: String, city: String) {
            self.name = name
            self.city = city
        }
    }

    public struct LocationDTO: Codable, Sendable, Equatable {
        public var lat: Double
        public var lon: Double

        public init(lat: Double, lon: Double) {
            self.lat = lat
            self.lon = lon
        }
    }

    public var id: String
    public var name: String
    public var species: String
    public var breed: String
    public var sex: String
    public var ageMonths: Int
    public var description: String
    public var photoURL: String?
    public var shelter: ShelterDTO
    public var location: LocationDTO
    public var publishedAt: Date
    /// Kilometres from the searched point; `null` when the listing was asked without coordinates.
    public var distanceKm: Double?

    public init(
        id: String, name: String, species: String, breed: String, sex: String, ageMonths: Int,
        description: String, photoURL: String?, shelter: ShelterDTO, location: LocationDTO,
        publishedAt: Date, distanceKm: Double?
    ) {
        self.id = id
        self.name = name
        self.species = species
        self.breed = breed
        self.sex = sex
        self.ageMonths = ageMonths
        self.description = description
        self.photoURL = photoURL
        self.shelter = shelter
        self.location = location
        self.publishedAt = publishedAt
        self.distanceKm = distanceKm
    }

    /// The wire form of a domain animal.
    public init(_ animal: Animal) {
        self.init(
            id: animal.id, name: animal.name, species: animal.species.rawValue, breed: animal.breed,
            sex: animal.sex.rawValue, ageMonths: animal.ageMonths, description: animal.description,
            photoURL: animal.photoURL?.absoluteString,
            shelter: ShelterDTO(name: animal.shelter.name, city: animal.shelter.city),
            location: LocationDTO(lat: animal.location.latitude, lon: animal.location.longitude),
            publishedAt: animal.publishedAt, distanceKm: animal.distanceKm
        )
    }

    // `distanceKm` is always written, as `null` when absent, so clients can rely on the key.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(name, forKey: .name)
        try container.encode(species, forKey: .species)
        try container.encode(breed, forKey: .breed)
        try container.encode(sex, forKey: .sex)
        try container.encode(ageMonths, forKey: .ageMonths)
        try container.encode(description, forKey: .description)
        try container.encode(photoURL, forKey: .photoURL)
        try container.encode(shelter, forKey: .shelter)
        try container.encode(location, forKey: .location)
        try container.encode(publishedAt, forKey: .publishedAt)
        try container.encode(distanceKm, forKey: .distanceKm)
    }
}
