import Foundation
import PetSpotDomain

/// Why a wire animal cannot become a domain ``Animal``: names the field and what was wrong.
public struct AnimalValidationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The JSON field, e.g. `species` or `location.lat`.
    public var field: String
    public var message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field): \(message)" }
}

extension AnimalDTO {
    /// The domain animal this DTO describes, after checking every field.
    /// - Throws: ``AnimalValidationError`` naming the first field that is wrong.
    ///
    /// `allowingOlderIDs` reads what a store holds or a server sends: an id of up to 128 characters
    /// passes, as the import took them before ids were counted in scalars — a pet stored then is
    /// still served and shown (only a `nextCursor` after it, over 128 scalars, is one the server
    /// refuses). The import checks without it.
    public func toDomain(allowingOlderIDs: Bool = false) throws(AnimalValidationError) -> Animal {
        func fail(_ field: String, _ message: String) -> AnimalValidationError {
            AnimalValidationError(field: field, message: message)
        }
        // Every stored pet read back passes here: the cheap tests first (AnimalID's; a visible ASCII
        // first byte means not blank), the exact ones when they fail.
        guard allowingOlderIDs ? AnimalID.mayNameStoredPet(id) : AnimalID.hasAllowedLength(id) else {
            throw fail("id", AnimalID.lengthRule)
        }
        guard name.utf8.first.map({ (0x21..<0x7f).contains($0) }) == true || !name.trimmingCharacters(in: .whitespaces).isEmpty
        else { throw fail("name", "must not be empty") }
        guard let species = Animal.Species(rawValue: species) else {
            throw fail("species", "must be one of dog, cat, rabbit, bird, other (was \"\(self.species)\")")
        }
        guard let sex = Animal.Sex(rawValue: sex) else {
            throw fail("sex", "must be one of female, male, unknown (was \"\(self.sex)\")")
        }
        guard (0...600).contains(ageMonths) else { throw fail("ageMonths", "must be between 0 and 600") }
        var photo: URL?
        if let photoURL {
            guard let url = URL(string: photoURL), url.scheme == "https" || url.scheme == "http" else {
                throw fail("photoURL", "must be an http(s) URL or null")
            }
            photo = url
        }
        guard !shelter.name.isEmpty else { throw fail("shelter.name", "must not be empty") }
        guard !shelter.city.isEmpty else { throw fail("shelter.city", "must not be empty") }
        let coordinate: GeoCoordinate
        do {
            coordinate = try GeoCoordinate(latitude: location.lat, longitude: location.lon)
        } catch .latitudeOutOfRange {
            throw fail("location.lat", "must be a finite number between -90 and 90")
        } catch {
            throw fail("location.lon", "must be a finite number between -180 and 180")
        }
        if let distanceKm, !(distanceKm.isFinite && distanceKm >= 0) {
            throw fail("distanceKm", "must be a finite number ≥ 0 or null")
        }
        return Animal(
            id: id, name: name, species: species, breed: breed, sex: sex, ageMonths: ageMonths,
            description: description, photoURL: photo,
            shelter: Animal.Shelter(name: shelter.name, city: shelter.city),
            location: coordinate, publishedAt: publishedAt, distanceKm: distanceKm
        )
    }
}
