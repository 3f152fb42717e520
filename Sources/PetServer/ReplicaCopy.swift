import Foundation
import PetAPI
import PetSpotDomain

/// One listed pet as a replica's copy holds it. A class, so that the copy's dictionary and its
/// newest-first array hold one reference each, and a copy made to catch up (copy-on-write) costs a
/// reference per pet, not a whole row.
final class StoredPet: Sendable {
    let seq: Int64
    let animal: Animal
    /// The stored time itself: a `Date` made of it may round two times into one.
    let publishedAt: Double
    /// ``AnimalFilter/traits(species:sex:ageMonths:)``, as the database computed it.
    let traits: UInt8

    init(seq: Int64, animal: Animal, publishedAt: Double, traits: UInt8) {
        self.seq = seq
        self.animal = animal
        self.publishedAt = publishedAt
        self.traits = traits
    }

    /// The listing's order: newest first, ties by id (the `ORDER BY published_at DESC, id` of the
    /// database).
    static func precedes(_ a: StoredPet, _ b: StoredPet) -> Bool {
        precedes(a.publishedAt, a.animal.id, b.publishedAt, b.animal.id)
    }

    /// Whether (time, id) comes first newest first, ids compared as UTF-8 bytes, as the database's
    /// `COLLATE "C"` compares them. (`String`'s `<` compares canonically equivalent texts as equal: a
    /// cursor a client wrote, with a decomposed accent, would land elsewhere than in the database.)
    static func precedes(_ time: Double, _ id: String, _ otherTime: Double, _ otherID: String) -> Bool {
        time != otherTime ? time > otherTime : id.utf8.lexicographicallyPrecedes(otherID.utf8)
    }
}

/// One instance of each breed, shelter, city and photo address among the rows read in one go: they
/// repeat across many pets, and each copy read from the database costs a heap block of its own (a
/// `URL` several). Names and ids are mostly short enough to live inside their `String`.
struct RowInterner {
    private var texts: Set<String> = []
    private var photos: [String: URL] = [:]

    mutating func intern(_ animal: Animal) -> Animal {
        var animal = animal
        animal.breed = texts.insert(animal.breed).memberAfterInsert
        animal.shelter.name = texts.insert(animal.shelter.name).memberAfterInsert
        animal.shelter.city = texts.insert(animal.shelter.city).memberAfterInsert
        if let photo = animal.photoURL {
            let key = photo.absoluteString
            if let kept = photos[key] { animal.photoURL = kept } else { photos[key] = photo }
        }
        return animal
    }
}

/// Every listed pet's row, by `seq` and newest first.
struct PetRows: Sendable {
    private(set) var bySeq: [Int64: StoredPet] = [:]
    /// Newest first, ties by id.
    private(set) var newestFirst: [StoredPet] = []

    init(_ pets: [StoredPet]) {
        bySeq = Dictionary(pets.map { ($0.seq, $0) }, uniquingKeysWith: { first, _ in first })
        newestFirst = bySeq.values.sorted(by: StoredPet.precedes)
    }

    var count: Int { bySeq.count }

    /// Drops the rows of `touched` (each `seq` a change names) and adds `pets`, their rows as they are
    /// now (a pet that left has none). Linear in the pets held: the newest-first order is merged, not
    /// sorted again.
    mutating func replace(_ touched: Set<Int64>, with pets: [StoredPet]) {
        guard !touched.isEmpty || !pets.isEmpty else { return }
        for seq in touched { bySeq.removeValue(forKey: seq) }
        for pet in pets { bySeq[pet.seq] = pet }
        let kept = touched.isEmpty ? newestFirst : newestFirst.filter { !touched.contains($0.seq) }
        let added = pets.sorted(by: StoredPet.precedes)
        var merged: [StoredPet] = []
        merged.reserveCapacity(kept.count + added.count)
        var next = 0
        for pet in kept {
            while next < added.count, StoredPet.precedes(added[next], pet) {
                merged.append(added[next])
                next += 1
            }
            merged.append(pet)
        }
        merged.append(contentsOf: added[next...])
        newestFirst = merged
    }

    /// The place in ``newestFirst`` of the first pet after `cursor`.
    func start(after cursor: AnimalCursor) -> Int {
        var low = 0
        var high = newestFirst.count
        while low < high {
            let mid = (low + high) / 2
            let pet = newestFirst[mid]
            // At or before the cursor: not yet.
            if !StoredPet.precedes(cursor.publishedAt, cursor.id, pet.publishedAt, pet.animal.id) { low = mid + 1 } else { high = mid }
        }
        return low
    }
}

/// What a PostgreSQL replica holds of every listed pet to answer from memory: the position index and
/// the rows, both of one data version of the database.
struct ReplicaCopy: Sendable {
    var index: PositionIndex
    var rows: PetRows

    /// The page `query` asks for, as the database would answer it in the snapshot this copy is of.
    func snapshot(matching query: AnimalQuery) -> AnimalSnapshot {
        AnimalSnapshot(page: query.center.map { nearby($0, query: query) } ?? newest(query), dataVersion: index.version)
    }

    private func nearby(_ center: GeoCoordinate, query: AnimalQuery) -> AnimalPage {
        let (needed, overflow) = query.offset.addingReportingOverflow(query.limit)
        let nearest = index.nearest(
            center: center, radiusKm: query.radiusKm, mask: query.filter.traitMask, order: query.ordering,
            offset: query.offset, needed: overflow ? .max : needed
        )
        guard query.offset < nearest.totalCount else { return AnimalPage(animals: [], totalCount: nearest.totalCount) }
        var keyed: [Int64: (id: String, publishedAt: Double)] = [:]
        keyed.reserveCapacity(nearest.leading.count)
        for candidate in nearest.leading {
            if let pet = rows.bySeq[candidate.key] { keyed[candidate.key] = (pet.animal.id, pet.publishedAt) }
        }
        let animals = nearest.window(of: query, rows: keyed).compactMap { candidate -> Animal? in
            guard var animal = rows.bySeq[candidate.key]?.animal else { return nil }
            animal.distanceKm = candidate.distanceKm
            return animal
        }
        return AnimalPage(animals: animals, totalCount: nearest.totalCount)
    }

    /// The listing without coordinates: newest first, after the cursor or past the offset, the filter
    /// checked pet by pet (as the database checks it along its newest-first index).
    private func newest(_ query: AnimalQuery) -> AnimalPage {
        let all = rows.newestFirst
        let filtered = !query.filter.keepsAll
        let mask = query.filter.traitMask
        let total = filtered ? index.count(mask: mask) : all.count
        var position = query.cursor.map(rows.start(after:)) ?? 0
        var skip = query.cursor == nil ? query.offset : 0
        if !filtered {
            position = min(all.count, position + min(skip, all.count))
            skip = 0
        }
        var page: [StoredPet] = []
        var hasMore = false
        while position < all.count {
            let pet = all[position]
            position += 1
            if filtered, mask & (1 << UInt64(pet.traits)) == 0 { continue }
            if skip > 0 {
                skip -= 1
                continue
            }
            if page.count == query.limit {
                hasMore = true
                break
            }
            page.append(pet)
        }
        let cursor = page.last.map { AnimalCursor(publishedAt: $0.publishedAt, id: $0.animal.id) }
        return AnimalPage(animals: page.map(\.animal), totalCount: total, nextCursor: hasMore ? cursor : nil)
    }
}
