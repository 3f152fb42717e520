import AppFeature
import Foundation
import PetSpotDomain
import Testing

@MainActor @Suite struct UserDefaultsPlaceMemoryTests {
    private func defaults() throws -> UserDefaults {
        let name = "petspot.tests.\(UUID().uuidString)"
        return try #require(UserDefaults(suiteName: name))
    }

    @Test func givenAPlaceRemembered_whenReadByAnotherMemoryOnTheSameDefaults_thenItIsThatPlace_andNilForgetsIt() throws {
        let defaults = try defaults()
        let place = Place(
            id: "us-zip:10001", name: "New York", region: "New York", countryCode: "US",
            location: try GeoCoordinate(latitude: 40.75, longitude: -74), population: 0, postalCode: "10001",
            label: "New York, NY 10001"
        )
        UserDefaultsPlaceMemory(defaults: defaults).place = place
        // Another launch: a new memory over the same defaults.
        #expect(UserDefaultsPlaceMemory(defaults: defaults).place == place)
        UserDefaultsPlaceMemory(defaults: defaults).place = nil
        #expect(UserDefaultsPlaceMemory(defaults: defaults).place == nil)
    }

    @Test func givenAStoredValueThatIsNoPlace_whenRead_thenNilNotACrash() throws {
        let defaults = try defaults()
        defaults.set(Data("{\"id\": 3}".utf8), forKey: "petspot.chosenPlace")
        #expect(UserDefaultsPlaceMemory(defaults: defaults).place == nil)
        // Out of range coordinates are refused as GeoCoordinate refuses them.
        defaults.set(Data(#"{"id":"x","name":"x","countryCode":"FR","location":{"latitude":99,"longitude":0},"population":0,"label":"x"}"#.utf8),
                     forKey: "petspot.chosenPlace")
        #expect(UserDefaultsPlaceMemory(defaults: defaults).place == nil)
    }
}
