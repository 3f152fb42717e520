import Foundation
import PetAPI
import PetSpotDomain
import Testing

@testable import PetServer

/// The in-memory index both stores count and rank nearby queries with, against a brute force over
/// its points. The store contract covers it through the stores; these cover many points, many ties
/// and cells out of order, which a store's small fixtures rarely reach.
@Suite struct PositionIndexTests {
    private struct Pet {
        var seq: Int64
        var lat: Double
        var lon: Double
        var publishedAt: Double
        var traits: UInt8
    }

    private let center = (lat: 52.23, lon: 21.01)

    /// 3,000 pets within 0.5° of the centre, published at 50 distinct moments (many ties), in
    /// random order of time, 300 of them removed again; then 200 more, as a catch-up adds them (half
    /// newer than all before, half at any of the moments).
    private struct Pets {
        var first: [Pet]
        var removed: [Pet]
        var late: [Pet]
        var kept: [Pet] { first + late }
    }

    private func pets(_ random: inout SplitMix64) -> Pets {
        // A third of them within 0.03° of the centre: a few cells of hundreds, counted per combination.
        func pet(_ seq: Int, hour: Int) -> Pet {
            let spread = seq % 3 == 0 ? 0.06 : 1
            return Pet(seq: Int64(seq), lat: center.lat + (random.unit() - 0.5) * spread, lon: center.lon + (random.unit() - 0.5) * spread,
                       publishedAt: 1_760_000_000 + Double(hour) * 3600, traits: UInt8(random.index(64)))
        }
        var pets = (1...3000).map { pet($0, hour: random.index(50)) }
        pets.shuffle(using: &random)
        let late = (3001...3200).map { pet($0, hour: $0 % 2 == 0 ? 50 + random.index(3) : random.index(50)) }
        return Pets(first: Array(pets.dropFirst(300)), removed: Array(pets.prefix(300)), late: late)
    }

    private func index(of pets: Pets, restoringOrder: Bool) -> PositionIndex {
        var index = PositionIndex(version: 1)
        func add(_ pet: Pet) {
            index.add(seq: pet.seq, lat: pet.lat, lon: pet.lon, publishedAt: pet.publishedAt, traits: pet.traits)
        }
        (pets.first + pets.removed).forEach(add)
        if restoringOrder { index.restoreTimeOrder() }
        for pet in pets.removed {
            let removed = index.remove(seq: pet.seq, lat: pet.lat, lon: pet.lon)
            #expect(removed)
        }
        pets.late.forEach(add)
        if restoringOrder { index.restoreTimeOrder() }
        return index
    }

    /// What `nearest` must answer: the count, and the keys of the `needed` best matches in `order`
    /// together with every match tied with the last of them.
    private func bruteForce(
        _ pets: [Pet], center: GeoCoordinate, radiusKm: Double, mask: UInt64, order: AnimalSort, needed: Int
    ) -> (count: Int, leading: Set<Int64>) {
        let matches = pets.compactMap { pet -> (Pet, Double)? in
            let distance = GreatCircle.distanceKm(lat1: center.latitude, lon1: center.longitude, lat2: pet.lat, lon2: pet.lon)
            return distance <= radiusKm && mask & (1 << UInt64(pet.traits)) != 0 ? (pet, distance) : nil
        }
        let wanted = min(needed, matches.count)
        guard wanted > 0 else { return (matches.count, []) }
        if order == .recent {
            let last = matches.map(\.0.publishedAt).sorted(by: >)[wanted - 1]
            return (matches.count, Set(matches.filter { $0.0.publishedAt >= last }.map(\.0.seq)))
        }
        let last = matches.map(\.1).sorted()[wanted - 1]
        return (matches.count, Set(matches.filter { $0.1 <= last }.map(\.0.seq)))
    }

    @Test func givenManyTiedPets_whenQueriedNearby_thenCountsAndLeadersEqualABruteForce() throws {
        var random = SplitMix64(seed: 11)
        let pets = pets(&random)
        let ordered = index(of: pets, restoringOrder: true)
        let unordered = index(of: pets, restoringOrder: false)

        for round in 0..<80 {
            let center = try GeoCoordinate(latitude: center.lat + random.unit() * 0.4 - 0.2, longitude: center.lon + random.unit() * 0.4 - 0.2)
            let radiusKm = [2.0, 10, 25, 60][random.index(4)]
            let mask = round % 3 == 0 ? PositionIndex.everyTrait : random.next() | random.next()
            let order: AnimalSort = round % 2 == 0 ? .recent : .distance
            let needed = round % 5 == 4 ? 100 + random.index(400) : 1 + random.index(60)
            let expected = bruteForce(pets.kept, center: center, radiusKm: radiusKm, mask: mask, order: order, needed: needed)

            for index in [ordered, unordered] {
                let nearest = index.nearest(center: center, radiusKm: radiusKm, mask: mask, order: order, offset: 0, needed: needed)
                #expect(nearest.totalCount == expected.count, "round \(round)")
                #expect(Set(nearest.leading.map(\.key)) == expected.leading, "round \(round), \(order)")
            }
        }
    }

    @Test func givenAFilter_whenCountedWithoutCoordinates_thenItEqualsTheKeptPets() {
        var random = SplitMix64(seed: 12)
        let pets = pets(&random)
        let index = index(of: pets, restoringOrder: true)

        for _ in 0..<20 {
            let mask = random.next()
            #expect(index.count(mask: mask) == pets.kept.filter { mask & (1 << UInt64($0.traits)) != 0 }.count)
        }
    }
}
