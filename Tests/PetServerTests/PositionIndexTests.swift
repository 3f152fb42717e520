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

    @Test func givenTheNewestPetsAllFilteredOut_whenNewestNearby_thenTheOlderMatchesLead() throws {
        // 900 newest pets of one combination, 100 older ones of another, which the filter keeps: the
        // newest-first walk reads a quarter of the points without finding enough and gathers instead.
        var random = SplitMix64(seed: 13)
        let pets = (1...1000).map { (seq: Int) -> Pet in
            let minute: Int = seq > 100 ? seq : seq / 10
            let lat: Double = center.lat + random.unit() * 0.2 - 0.1
            let lon: Double = center.lon + random.unit() * 0.2 - 0.1
            return Pet(seq: Int64(seq), lat: lat, lon: lon, publishedAt: 1_760_000_000 + Double(minute) * 60, traits: seq > 100 ? 0 : 1)
        }
        var index = PositionIndex(version: 1)
        for pet in pets.shuffled(using: &random) {
            index.add(seq: pet.seq, lat: pet.lat, lon: pet.lon, publishedAt: pet.publishedAt, traits: pet.traits)
        }
        index.restoreTimeOrder()
        let origin = try GeoCoordinate(latitude: center.lat, longitude: center.lon)

        let nearest = index.nearest(center: origin, radiusKm: 50, mask: 1 << 1, order: .recent, offset: 0, needed: 5)

        let expected = bruteForce(pets, center: origin, radiusKm: 50, mask: 1 << 1, order: .recent, needed: 5)
        #expect(nearest.totalCount == 100)
        #expect(Set(nearest.leading.map(\.key)) == expected.leading)
        #expect(expected.leading == Set(90...100))  // the newest, then 10 tied at the next time
    }

    @Test func givenACellFillingAndEmptying_whenCounted_thenTheCountFollowsIt() throws {
        // Every pet in the cell 52.20–52.25° N, 21.00–21.05° E, which lies wholly inside the circle:
        // counted per combination once it has held 64 pets, by reading its traits before.
        var random = SplitMix64(seed: 14)
        let center = try GeoCoordinate(latitude: 52.225, longitude: 21.025)
        let mask: UInt64 = 0x5555_5555_5555_5555
        var index = PositionIndex(version: 1)
        var held: [Pet] = []
        var lastSeq: Int64 = 0
        func add(_ count: Int) {
            for _ in 0..<count {
                lastSeq += 1
                let pet = Pet(seq: lastSeq, lat: 52.201 + random.unit() * 0.048,
                              lon: 21.001 + random.unit() * 0.048, publishedAt: 1_760_000_000, traits: UInt8(random.index(64)))
                index.add(seq: pet.seq, lat: pet.lat, lon: pet.lon, publishedAt: pet.publishedAt, traits: pet.traits)
                held.append(pet)
            }
        }
        func remove(_ count: Int) {
            for pet in held.suffix(count) {
                let removed = index.remove(seq: pet.seq, lat: pet.lat, lon: pet.lon)
                #expect(removed)
            }
            held.removeLast(count)
        }
        func expectCount(_ step: String) {
            let nearest = index.nearest(center: center, radiusKm: 30, mask: mask, offset: 0, needed: 1)
            #expect(nearest.totalCount == held.filter { mask & (1 << UInt64($0.traits)) != 0 }.count, "\(step)")
        }

        add(63); expectCount("63 pets")
        add(1); expectCount("64 pets")
        remove(1); expectCount("back to 63")
        remove(63); expectCount("emptied")
        add(10); expectCount("refilled with 10")
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
