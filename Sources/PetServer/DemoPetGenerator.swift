import Foundation
import PetSpotDomain

/// Makes the same believable demo animals every time for a given seed: spread around real cities on
/// six continents, with names, breeds, ages and shelters that read like real listings.
public struct DemoPetGenerator: Sendable {
    public static let defaultSeed: UInt64 = 0x5045_5453_504F_54 // "PETSPOT"
    /// Listings are published in the 180 days before this fixed instant (2026-01-01T00:00:00Z).
    static let newestDate = Date(timeIntervalSince1970: 1_767_225_600)

    public let seed: UInt64

    public init(seed: UInt64 = defaultSeed) {
        self.seed = seed
    }

    /// `count` animals with ids `demo-000001`, `demo-000002`, …
    public func animals(count: Int) -> [Animal] {
        Array(sequence(count: count))
    }

    /// The same animals as ``animals(count:)``, made one at a time (for millions of them).
    public func sequence(count: Int) -> DemoPets {
        DemoPets(generator: self, count: max(0, count))
    }

    /// A lazily generated run of demo animals.
    public struct DemoPets: Sequence, Sendable {
        let generator: DemoPetGenerator
        let count: Int

        public func makeIterator() -> Iterator {
            Iterator(generator: generator, random: SplitMix64(seed: generator.seed), remaining: count)
        }

        public struct Iterator: IteratorProtocol {
            let generator: DemoPetGenerator
            var random: SplitMix64
            var remaining: Int
            var number = 0

            public mutating func next() -> Animal? {
                guard remaining > 0 else { return nil }
                remaining -= 1
                number += 1
                return generator.makeAnimal(number: number, random: &random)
            }
        }
    }

    fileprivate func makeAnimal(number: Int, random: inout SplitMix64) -> Animal {
        let city = DemoCity.all[random.index(DemoCity.all.count)]
        let kind = random.pick(DemoVocabulary.kinds)
        let sex: Animal.Sex = random.unit() < 0.48 ? .female : (random.unit() < 0.95 ? .male : .unknown)
        let name = random.pick(sex == .female ? DemoVocabulary.femaleNames : DemoVocabulary.maleNames)
        let breed = random.pick(kind.breeds)
        let ageMonths = 2 + random.index(kind.maxAgeMonths - 1)
        let trait = random.pick(DemoVocabulary.traits)
        let home = random.pick(DemoVocabulary.homes)
        let shelter = random.pick(DemoVocabulary.shelterPatterns).replacingOccurrences(of: "{city}", with: city.name)
        let photo: URL? = random.unit() < 0.8
            ? URL(string: "https://photos.petspot.example/demo/\(kind.species.rawValue)/\(number % 97).jpg")
            : nil
        let publishedAt = Self.newestDate.addingTimeInterval(-(random.unit() * 180 * 86_400).rounded())
        return Animal(
            id: Self.id(number),
            name: name,
            species: kind.species,
            breed: breed,
            sex: sex,
            ageMonths: ageMonths,
            description: "\(name) is \(Self.article(trait)) \(trait) \(breed.lowercased()) who would love \(home).",
            photoURL: photo,
            shelter: Animal.Shelter(name: shelter, city: city.name),
            location: Self.scatter(around: city, random: &random),
            publishedAt: publishedAt
        )
    }

    static func article(_ word: String) -> String {
        word.first.map { "aeiou".contains($0) } == true ? "an" : "a"
    }

    /// `demo-000042`: zero-padded to six digits so ids sort in generation order.
    static func id(_ number: Int) -> String {
        let digits = String(number)
        return "demo-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// A point uniformly spread over a disc of the city's spread radius.
    private static func scatter(around city: DemoCity, random: inout SplitMix64) -> GeoCoordinate {
        let distance = city.spreadKm * sqrt(random.unit()) / GreatCircle.earthRadiusKm
        let bearing = random.unit() * 2 * .pi
        let lat1 = city.lat * .pi / 180
        let lon1 = city.lon * .pi / 180
        let lat2 = asin(sin(lat1) * cos(distance) + cos(lat1) * sin(distance) * cos(bearing))
        let lon2 = lon1 + atan2(sin(bearing) * sin(distance) * cos(lat1), cos(distance) - sin(lat1) * sin(lat2))
        var lon = lon2 * 180 / .pi
        if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
        let lat = (lat2 * 180 / .pi * 1e6).rounded() / 1e6
        lon = (lon * 1e6).rounded() / 1e6
        // Rounded values of a valid point stay in range; fall back to the city centre regardless.
        return (try? GeoCoordinate(latitude: lat, longitude: lon))
            ?? (try? GeoCoordinate(latitude: city.lat, longitude: city.lon))
            ?? Self.origin
    }

    private static let origin: GeoCoordinate = {
        // 0,0 is always valid.
        guard let zero = try? GeoCoordinate(latitude: 0, longitude: 0) else { preconditionFailure("0,0 is valid") }
        return zero
    }()
}
