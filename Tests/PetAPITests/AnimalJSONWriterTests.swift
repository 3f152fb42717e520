import Foundation
import PetAPI
import PetSpotDomain
import Testing

/// The server writes its bodies with `jsonBytes()`; clients read them with `PetAPICoding`. The two
/// must agree byte for byte, so every case compares with `PetAPICoding.makeEncoder()`.
@Suite struct AnimalJSONWriterTests {
    private static let hostileStrings = [
        "", "plain", "quote \" and backslash \\", "slash / and </script>", "tab\tnewline\nreturn\r",
        "\u{8}\u{C}\u{0}\u{1}\u{1F}\u{7F}", "Kraków, São Paulo, Reykjavík", "東京 🐕‍🦺 👍🏽", "\u{2028}\u{2029}",
        "e\u{301}", "~cursor~", "\\u0041",
    ]

    private static let hostileNumbers: [Double] = [
        0, -0.0, 1, -1, 52.23, -179.999999, 180, 90, 1e-7, 0.1 + 0.2, 123_456_789.125, 1e21, .leastNonzeroMagnitude,
        .greatestFiniteMagnitude, 0.15979637207899342,
    ]

    private static let hostileDates: [TimeInterval] = [
        0, -1, 1_767_225_600, 1_767_225_599.999, 951_782_400, 4_107_542_399, -86_400 * 365 * 300 - 0.5,
        -62_135_596_800, -11_676_096_000, -11_676_096_001, 253_402_300_799, 253_402_300_800, 1e12, -1e12,
    ]

    private func randomDTO(_ random: inout SplitMix64) -> AnimalDTO {
        func text() -> String { random.pick(Self.hostileStrings) + random.pick(Self.hostileStrings) }
        func number() -> Double {
            random.unit() < 0.5 ? random.pick(Self.hostileNumbers) : (random.unit() - 0.5) * 360
        }
        return AnimalDTO(
            id: text(), name: text(), species: text(), breed: text(), sex: text(),
            ageMonths: random.pick([0, 1, 12, 240, -5, Int.max, Int.min]),
            description: text(), photoURL: random.unit() < 0.3 ? nil : "https://photos.example/" + text(),
            shelter: .init(name: text(), city: text()), location: .init(lat: number(), lon: number()),
            publishedAt: Date(timeIntervalSince1970: random.unit() < 0.5
                ? random.pick(Self.hostileDates) : (random.unit() * 2 - 0.5) * 2e9),
            distanceKm: random.unit() < 0.3 ? nil : number()
        )
    }

    @Test func givenRandomAndHostileAnimals_whenWritten_thenTheBytesAreThoseOfTheAPIEncoder() throws {
        var random = SplitMix64(seed: 14)
        let encoder = PetAPICoding.makeEncoder()
        for _ in 0..<2_000 {
            let dto = randomDTO(&random)
            let expected = Array(try encoder.encode(dto))
            let written = try dto.jsonBytes()
            #expect(written == expected, "\(String(decoding: written, as: UTF8.self)) ≠ \(String(decoding: expected, as: UTF8.self))")
            if written != expected { return }
        }
    }

    @Test func givenPagesWithAndWithoutCursor_whenWritten_thenTheBytesAreThoseOfTheAPIEncoder() throws {
        var random = SplitMix64(seed: 15)
        let encoder = PetAPICoding.makeEncoder()
        for size in [0, 1, 2, 20, 100] {
            let animals = (0..<size).map { _ in randomDTO(&random) }
            for cursor in [nil, "1767225594.0~demo-474606", "\"~\\"] {
                for exact in [true, false] {
                    let page = AnimalListResponse(
                        animals: animals,
                        pagination: .init(page: 3, limit: 20, totalCount: 1_000_001, totalCountIsExact: exact, nextCursor: cursor)
                    )
                    #expect(try page.jsonBytes() == Array(try encoder.encode(page)))
                }
            }
        }
    }

    @Test func givenRandomAndHostilePlaces_whenWritten_thenTheBytesAreThoseOfTheAPIEncoder() throws {
        var random = SplitMix64(seed: 42)
        let encoder = PetAPICoding.makeEncoder()
        for size in [0, 1, 2, 10] {
            let places = try (0..<size).map { _ in
                func text() -> String { random.pick(Self.hostileStrings) + random.pick(Self.hostileStrings) }
                let place = Place(
                    id: text(), name: text(), region: random.unit() < 0.5 ? nil : text(), countryCode: text(),
                    location: try GeoCoordinate(latitude: random.unit() * 180 - 90, longitude: random.unit() * 360 - 180),
                    population: random.pick([0, 1, 12_400_232, Int.max]), postalCode: random.unit() < 0.5 ? nil : text(), label: text()
                )
                return PlaceDTO(place)
            }
            let list = PlaceListResponse(places: places)
            #expect(try list.jsonBytes() == Array(try encoder.encode(list)))
            for place in places {
                let one = PlaceResponse(place: place)
                #expect(try one.jsonBytes() == Array(try encoder.encode(one)))
                #expect(try PetAPICoding.makeDecoder().decode(PlaceResponse.self, from: Data(try one.jsonBytes())) == one)
            }
        }
    }

    @Test func givenAPageFromAServerBeforeCappedCounts_whenDecoded_thenItsCountIsExact() throws {
        let old = #"{"animals":[],"pagination":{"limit":20,"page":1,"totalCount":3,"totalPages":1}}"#
        let page = try PetAPICoding.makeDecoder().decode(AnimalListResponse.self, from: Data(old.utf8))
        #expect(page.pagination.totalCountIsExact)
        let capped = #"{"animals":[],"pagination":{"limit":20,"page":1,"totalCount":1000,"totalCountIsExact":false,"totalPages":50}}"#
        #expect(try !PetAPICoding.makeDecoder().decode(AnimalListResponse.self, from: Data(capped.utf8)).pagination.totalCountIsExact)
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity])
    func givenANonFiniteDistance_whenWritten_thenItIsRefusedAsByTheAPIEncoder(_ distance: Double) throws {
        var random = SplitMix64(seed: 16)
        var dto = randomDTO(&random)
        dto.distanceKm = distance
        #expect(throws: EncodingError.self) { try PetAPICoding.makeEncoder().encode(dto) }
        #expect(throws: EncodingError.self) { try dto.jsonBytes() }
    }
}
