import Foundation
import PetServer
import PetSpotDomain
import Testing

@Suite struct DemoPetGeneratorTests {
    @Test func givenSameSeed_whenGeneratingTwice_thenIdenticalAnimals() {
        #expect(DemoPetGenerator().animals(count: 200) == DemoPetGenerator().animals(count: 200))
        #expect(DemoPetGenerator(seed: 1).animals(count: 50) != DemoPetGenerator(seed: 2).animals(count: 50))
    }

    @Test func givenLongerRun_whenGenerating_thenShorterRunIsItsPrefix() {
        #expect(Array(DemoPetGenerator().animals(count: 300).prefix(100)) == DemoPetGenerator().animals(count: 100))
    }

    @Test func givenFiveHundredPets_whenGenerating_thenManyCitiesOnSeveralContinentsAndAllSpecies() {
        let animals = DemoPetGenerator().animals(count: 500)
        #expect(Set(animals.map(\.id)).count == 500)
        #expect(animals.first?.id == "demo-000001")
        #expect(Set(animals.map(\.shelter.city)).count >= 20)
        #expect(Set(animals.map(\.species)) == Set(Animal.Species.allCases))
        // Continents by hemisphere and longitude band: Europe, Americas, Asia, Oceania, Africa.
        #expect(animals.contains { $0.location.longitude < -30 && $0.location.latitude > 0 })
        #expect(animals.contains { $0.location.longitude < -30 && $0.location.latitude < 0 })
        #expect(animals.contains { $0.location.longitude > 100 && $0.location.latitude > 0 })
        #expect(animals.contains { $0.location.longitude > 100 && $0.location.latitude < 0 })
        #expect(animals.contains { $0.shelter.city == "Nairobi" || $0.shelter.city == "Cape Town" })
    }

    @Test func givenFiveHundredPets_whenLookingAroundWarsaw_thenSomeAreWithin50Km() throws {
        let warsaw = try GeoCoordinate(latitude: 52.23, longitude: 21.01)
        let near = DemoPetGenerator().animals(count: 500).filter { GreatCircle.distanceKm(warsaw, $0.location) <= 50 }
        #expect(near.count >= 5)
        #expect(near.allSatisfy { $0.shelter.city == "Warsaw" })
    }

    @Test func givenGeneratedPets_whenInspected_thenFieldsLookLikeRealListings() {
        for animal in DemoPetGenerator().animals(count: 200) {
            #expect(!animal.name.isEmpty && !animal.breed.isEmpty)
            #expect((2...192).contains(animal.ageMonths))
            #expect(animal.description.hasPrefix(animal.name))
            #expect(!animal.description.contains(" a e") && !animal.description.contains(" a a"))
            #expect(animal.publishedAt <= Date(timeIntervalSince1970: 1_767_225_600))
            #expect(animal.photoURL.map { $0.scheme == "https" } ?? true)
        }
    }
}
