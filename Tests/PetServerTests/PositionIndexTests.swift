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

    /// 3,000 pets within about 0.5° of the centre, published at 50 distinct moments (many ties), in
    /// random order of time; 300 of them removed again.
    private func pets(_ random: inout SplitMix64) -> (kept: [Pet], removed: [Pet]) {
        var pets: [Pet] = (1...3000).map { seq in
            Pet(seq: Int64(seq), lat: center.lat + random.unit() - 0.5, lon: center.lon + random.unit() - 0.5,
                publishedAt: 1_760_000_000 + Double(random.index(50)) * 3600, traits: UInt8(random.index(64)))
        }
        pets.shuffle(using: &random)
        return (Array(pets.dropFirst(300)), Array(pets.prefix(300)))
    }

    private func index(of pets: (kept: [Pet], removed: [Pet]), restoringOrder: Bool) -> PositionIndex {
        var index = PositionIndex(version: 1)
        for pet in pets.kept + pets.removed {
            index.add(seq: pet.seq, lat: pet.lat, lon: pet.lon, publishedAt: pet.publishedAt, traits: pet.traits)
        }
        for pet in pets.removed {
            let removed = index.remove(seq: pet.seq, lat: pet.lat, lon: pet.lon)
            #expect(removed)
        }
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
            let needed = 1 + random.index(60)
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
