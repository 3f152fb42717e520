import Foundation
import PetAPI
import PetSpotDomain
import Testing

@Suite struct AnimalDTOTests {
    private func dto() -> AnimalDTO {
        AnimalDTO(
            id: "demo-1", name: "Luna", species: "cat", breed: "Tabby", sex: "female", ageMonths: 30,
            description: "Calm.", photoURL: "https://example.com/luna.jpg",
            shelter: .init(name: "Paws", city: "Warsaw"), location: .init(lat: 52.23, lon: 21.01),
            publishedAt: Date(timeIntervalSince1970: 1_767_225_600), distanceKm: nil
        )
    }

    @Test func givenAnimalWithoutDistance_whenEncoding_thenDistanceIsNullAndDateIsISO8601() throws {
        let json = String(decoding: try PetAPICoding.makeEncoder().encode(dto()), as: UTF8.self)
        #expect(json.contains(#""distanceKm":null"#))
        #expect(json.contains(#""publishedAt":"2026-01-01T00:00:00Z""#))
        #expect(json.contains(#""location":{"lat":52.23,"lon":21.01}"#))
    }

    @Test func givenValidDTO_whenMappedToDomainAndBack_thenNothingIsLost() throws {
        let animal = try dto().toDomain()
        #expect(animal.species == .cat)
        #expect(animal.photoURL == URL(string: "https://example.com/luna.jpg"))
        #expect(AnimalDTO(animal) == dto())
    }

    @Test(arguments: ["species", "sex", "location.lat", "location.lon", "ageMonths", "photoURL", "id", "shelter.city"])
    func givenInvalidField_whenMappedToDomain_thenErrorNamesThatField(_ field: String) {
        var broken = dto()
        switch field {
        case "species": broken.species = "dragon"
        case "sex": broken.sex = "x"
        case "location.lat": broken.location.lat = 91
        case "location.lon": broken.location.lon = .infinity
        case "ageMonths": broken.ageMonths = -1
        case "photoURL": broken.photoURL = "not a url"
        case "id": broken.id = ""
        default: broken.shelter.city = ""
        }
        #expect(throws: AnimalValidationError.self) { try broken.toDomain() }
        do {
            _ = try broken.toDomain()
        } catch {
            #expect(error.field == field)
        }
    }

    @Test func givenPaginationOfSevenWithLimitThree_whenBuilt_thenThreePages() {
        #expect(AnimalListResponse.Pagination(page: 1, limit: 3, totalCount: 7).totalPages == 3)
        #expect(AnimalListResponse.Pagination(page: 1, limit: 3, totalCount: 0).totalPages == 0)
    }
}
