import Foundation
import PetSpotDomain

/// Animals and places for tests, fixed so that results are the same on every run.
public enum Fixtures {
    /// Central Warsaw.
    public static let warsaw = location(latitude: 52.229_676, longitude: 21.012_229)
    /// Central Kraków.
    public static let krakow = location(latitude: 50.064_650, longitude: 19.944_980)

    /// Four animals in three cities, published on different days.
    public static let animals: [Animal] = [
        animal(id: "a1", name: "Burek", species: .dog, city: "Warsaw", at: (52.2300, 21.0100), day: 1),
        animal(id: "a2", name: "Mruczek", species: .cat, city: "Warsaw", at: (52.2500, 21.0300), day: 3),
        animal(id: "a3", name: "Kicia", species: .cat, city: "Kraków", at: (50.0600, 19.9400), day: 2),
        animal(id: "a4", name: "Fafik", species: .dog, city: "Gdańsk", at: (54.3520, 18.6466), day: 4),
    ]

    /// A valid location; stops the test run with a clear message if a fixture is out of range.
    public static func location(latitude: Double, longitude: Double) -> UserLocation {
        do {
            return try UserLocation(
                latitude: latitude,
                longitude: longitude,
                horizontalAccuracy: 35,
                timestamp: Date(timeIntervalSince1970: 1_764_000_000)
            )
        } catch {
            preconditionFailure("fixture location is invalid: \(error)")
        }
    }

    /// Great-circle distance in kilometres (haversine).
    public static func distanceKm(from a: GeoCoordinate, to b: GeoCoordinate) -> Double {
        let radians = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * radians
        let dLon = (b.longitude - a.longitude) * radians
        let h = sin(dLat / 2) * sin(dLat / 2)
            + cos(a.latitude * radians) * cos(b.latitude * radians) * sin(dLon / 2) * sin(dLon / 2)
        return 2 * 6371.0 * asin(min(1, sqrt(h)))
    }

    private static func animal(
        id: String,
        name: String,
        species: Animal.Species,
        city: String,
        at point: (Double, Double),
        day: Double
    ) -> Animal {
        let coordinate: GeoCoordinate
        do {
            coordinate = try GeoCoordinate(latitude: point.0, longitude: point.1)
        } catch {
            preconditionFailure("fixture coordinate is invalid: \(error)")
        }
        return Animal(
            id: id,
            name: name,
            species: species,
            breed: species == .dog ? "mixed" : "European shorthair",
            sex: .unknown,
            ageMonths: 12,
            description: "\(name) is looking for a home.",
            shelter: Animal.Shelter(name: "Schronisko \(city)", city: city),
            location: coordinate,
            publishedAt: Date(timeIntervalSince1970: 1_763_000_000 + day * 86_400)
        )
    }
}
