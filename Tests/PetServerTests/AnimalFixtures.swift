import Foundation
import Hummingbird
import Logging
import PetServer
import PetSpotDomain

/// Hand-placed animals and throwaway databases for the server tests.
enum AnimalFixtures {
    /// Kilometres per degree of latitude on the test sphere (distance along a meridian).
    static let kmPerDegree = GreatCircle.earthRadiusKm * .pi / 180

    static func animal(
        _ id: String,
        lat: Double,
        lon: Double,
        publishedAt: Date = Date(timeIntervalSince1970: 1_760_000_000),
        species: Animal.Species = .dog,
        photoURL: URL? = nil
    ) throws -> Animal {
        Animal(
            id: id, name: "Pet \(id)", species: species, breed: "Mixed Breed", sex: .female, ageMonths: 24,
            description: "A test pet.", photoURL: photoURL,
            shelter: Animal.Shelter(name: "Test Shelter", city: "Testville"),
            location: try GeoCoordinate(latitude: lat, longitude: lon),
            publishedAt: publishedAt
        )
    }

    /// A fresh, empty SQLite file in its own temporary directory.
    static func temporaryDatabasePath() -> String {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("petspot-tests-\(UUID().uuidString)")
            .appendingPathComponent("pets.sqlite").path
    }

    /// The server of ``buildApplication(configuration:onServerRunning:)`` over a new SQLite file holding
    /// exactly `animals`, with the response cache on. It reads the data version on every request, so
    /// that a test sees a change at once (``DataVersionMonitorTests`` covers the interval).
    static func application(
        _ animals: [Animal], path: String = temporaryDatabasePath(),
        responseCacheEntries: Int = PetServerConfiguration.defaultResponseCacheEntries,
        dataVersionInterval: Duration = .zero
    ) async throws -> some ApplicationProtocol {
        if !animals.isEmpty { try await SQLiteAnimalStore(path: path).insert(animals) }
        return try await buildApplication(configuration: PetServerConfiguration(
            port: 0, database: path, demoPetsWhenEmpty: 0, logLevel: .error,
            responseCacheEntries: responseCacheEntries, dataVersionInterval: dataVersionInterval
        ))
    }

    static func sqliteStore(_ animals: [Animal] = [], countCap: Int = AnimalPage.defaultCountCap) async throws -> SQLiteAnimalStore {
        let store = try SQLiteAnimalStore(path: temporaryDatabasePath(), countCap: countCap)
        if !animals.isEmpty { try await store.insert(animals) }
        return store
    }
}
