import Foundation

/// An animal offered for adoption.
public struct Animal: Sendable, Equatable, Hashable, Identifiable {
    public enum Species: String, Sendable, Hashable, CaseIterable, Codable {
        case dog, cat, rabbit, bird, other
    }

    public enum Sex: String, Sendable, Hashable, CaseIterable, Codable {
        case female, male, unknown
    }

    /// The shelter that looks after the animal.
    public struct Shelter: Sendable, Equatable, Hashable, Codable {
        public var name: String
        public var city: String

        public init(name: String, city: String) {
            self.name = name
            self.city = city
        }
    }

    public var id: String
    public var name: String
    public var species: Species
    public var breed: String
    public var sex: Sex
    public var ageMonths: Int
    public var description: String
    public var photoURL: URL?
    public var shelter: Shelter
    public var location: GeoCoordinate
    public var publishedAt: Date
    /// Kilometres from the place the listing was asked for; nil when it was asked without a location.
    public var distanceKm: Double?

    public init(
        id: String,
        name: String,
        species: Species,
        breed: String,
        sex: Sex,
        ageMonths: Int,
        description: String,
        photoURL: URL? = nil,
        shelter: Shelter,
        location: GeoCoordinate,
        publishedAt: Date,
        distanceKm: Double? = nil
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
}
