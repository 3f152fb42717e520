import Foundation
import HashTreeCollections
import PetAPI
import PetSpotDomain

/// One listed pet as the copy in memory holds it: its row read as a pet, or why it cannot be (a row
/// written by hand that breaks a field rule), so that the copy fails exactly the pages the database
/// would fail, and no others.
final class StoredPet: Sendable {
    let seq: Int64
    let id: String
    /// The stored time itself: a `Date` made of it may round two times into one.
    let publishedAt: Double
    /// ``AnimalFilter/traits(species:sex:ageMonths:)``, as the database computed it.
    let traits: UInt8
    private let row: Result<Animal, AnimalStoreError>

    init(seq: Int64, id: String, publishedAt: Double, traits: UInt8, row: Result<Animal, AnimalStoreError>) {
        self.seq = seq
        self.id = id
        self.publishedAt = publishedAt
        self.traits = traits
        self.row = row
    }

    func animal() throws(AnimalStoreError) -> Animal { try row.get() }

    /// Whether (time, id) comes first newest first, ids compared as UTF-8 bytes, as the database's
    /// `ORDER BY published_at DESC, id` compares them (`COLLATE "C"`, SQLite's `BINARY`). `String`'s
    /// `<` takes canonically equivalent texts as equal: a cursor a client wrote with a decomposed
    /// accent would land elsewhere than in the database.
    static func precedes(_ time: Double, _ id: String, _ otherTime: Double, _ otherID: String) -> Bool {
        isNewer(time, than: otherTime) || (isSameTime(time, otherTime) && id.utf8.lexicographicallyPrecedes(otherID.utf8))
    }

    /// Newest first as PostgreSQL orders `double precision`, NaN (written by hand) above every
    /// number: with `>` alone NaN is neither before nor after anything, and no order holds.
    static func isNewer(_ time: Double, than other: Double) -> Bool {
        time.isNaN ? !other.isNaN : time > other
    }

    static func isSameTime(_ time: Double, _ other: Double) -> Bool {
        time == other || (time.isNaN && other.isNaN)
    }

    static func precedes(_ a: StoredPet, _ b: StoredPet) -> Bool {
        precedes(a.publishedAt, a.id, b.publishedAt, b.id)
    }
}

/// One instance of each breed, shelter, city and photo address among the rows read in one go: they
/// repeat across many pets, and each copy read from the database costs a heap block of its own (a
/// `URL` several). Names and ids are mostly short enough to live inside their `String`. Texts are
/// told apart by their bytes: two canonically equivalent spellings stay as the database has them.
struct RowInterner {
    private struct Bytes: Hashable {
        let text: String
        static func == (a: Bytes, b: Bytes) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }
        func hash(into hasher: inout Hasher) {
            for byte in text.utf8 { hasher.combine(byte) }
        }
    }

    private var texts: Set<Bytes> = []
    private var photos: [Bytes: URL] = [:]

    mutating func intern(_ animal: Animal) -> Animal {
        var animal = animal
        animal.breed = texts.insert(Bytes(text: animal.breed)).memberAfterInsert.text
        animal.shelter.name = texts.insert(Bytes(text: animal.shelter.name)).memberAfterInsert.text
        animal.shelter.city = texts.insert(Bytes(text: animal.shelter.city)).memberAfterInsert.text
        if let photo = animal.photoURL {
            let key = Bytes(text: photo.absoluteString)
            if let kept = photos[key] { animal.photoURL = kept } else { photos[key] = photo }
        }
        return animal
    }
}

/// Every listed pet's row, by `seq`, and the listing's order (newest first, ties by id) as plain
/// arrays of `seq`s, times and traits.
///
/// The layout is for catching up while readers still hold the old copy: the arrays hold no
/// references, so copying them is a copy of bytes, and the pets live in a persistent hash tree, so
/// a change copies a path of it, not a million entries with a retain each.
struct PetRows: Sendable {
    private var bySeq: TreeDictionary<Int64, StoredPet>
    /// Newest first, ties by id.
    private(set) var newestFirst: [Int64]
    /// `publishedAt` of the pet at the same place of ``newestFirst``.
    private var times: [Double]
    /// `traits` of the pet at the same place of ``newestFirst``: a filtered listing walks these bytes.
    private(set) var traits: [UInt8]

    init(_ pets: [StoredPet]) {
        let sorted = pets.sorted(by: StoredPet.precedes)
        bySeq = TreeDictionary(sorted.map { ($0.seq, $0) }, uniquingKeysWith: { first, _ in first })
        newestFirst = sorted.map(\.seq)
        times = sorted.map(\.publishedAt)
        traits = sorted.map(\.traits)
    }

    var count: Int { bySeq.count }

    /// The pet whose row has this `seq`.
    func pet(seq: Int64) -> StoredPet? { bySeq[seq] }

    /// The pet at `place` of the listing's order.
    func pet(at place: Int) -> StoredPet? { bySeq[newestFirst[place]] }

    /// The place in ``newestFirst`` of the first pet after (time, id).
    private func place(after time: Double, _ id: String) -> Int {
        var low = 0
        var high = newestFirst.count
        while low < high {
            let mid = (low + high) / 2
            // At or before (time, id): not yet. The id is looked up only on a tie of times.
            let before = !StoredPet.isSameTime(times[mid], time)
                ? StoredPet.isNewer(times[mid], than: time)
                : bySeq[newestFirst[mid]].map { !StoredPet.precedes(time, id, $0.publishedAt, $0.id) } ?? false
            if before { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The place in ``newestFirst`` of the first pet after `cursor`.
    func start(after cursor: AnimalCursor) -> Int { place(after: cursor.publishedAt, cursor.id) }

    /// Whether the rows and the order hold the same `count` pets.
    func isConsistent(count: Int) -> Bool {
        bySeq.count == count && newestFirst.count == count
    }

    /// Drops the rows of `touched` (each `seq` a change names) and adds `pets`, their rows as they are
    /// now (a pet that left has none). A few changes are put in place (a search and a move of bytes
    /// each); many are merged in one pass. False when a leaving pet was not where its time and id
    /// say (two rows with one id and time, written by hand): the rows must then be built anew.
    @discardableResult
    mutating func replace(_ touched: Set<Int64>, with pets: [StoredPet]) -> Bool {
        var placed = true
        let leaving = touched.compactMap { bySeq[$0] }
        let arriving = pets.sorted(by: StoredPet.precedes)
        let few = leaving.count + arriving.count <= 64
        // The searches compare ids of the pets in the arrays: each must be in `bySeq` meanwhile, so
        // the leaving pets leave the arrays before `bySeq`, and the arriving enter it first.
        if few {
            for pet in leaving {
                // The last place at or before the pet is the pet itself: (time, id) is unique.
                let place = place(after: pet.publishedAt, pet.id) - 1
                guard place >= 0, newestFirst[place] == pet.seq else {
                    placed = false
                    continue
                }
                newestFirst.remove(at: place)
                times.remove(at: place)
                traits.remove(at: place)
            }
        }
        for seq in touched { bySeq.removeValue(forKey: seq) }
        for pet in pets { bySeq[pet.seq] = pet }
        if few {
            for pet in arriving {
                let place = place(after: pet.publishedAt, pet.id)
                newestFirst.insert(pet.seq, at: place)
                times.insert(pet.publishedAt, at: place)
                traits.insert(pet.traits, at: place)
            }
            return placed
        }
        let gone = Set(leaving.map(\.seq))
        var merged = (seqs: [Int64](), times: [Double](), traits: [UInt8]())
        let capacity = newestFirst.count - gone.count + arriving.count
        merged.seqs.reserveCapacity(capacity)
        merged.times.reserveCapacity(capacity)
        merged.traits.reserveCapacity(capacity)
        func append(_ seq: Int64, _ time: Double, _ trait: UInt8) {
            merged.seqs.append(seq)
            merged.times.append(time)
            merged.traits.append(trait)
        }
        var next = 0
        for place in newestFirst.indices where !gone.contains(newestFirst[place]) {
            let time = times[place]
            while next < arriving.count, !StoredPet.isNewer(time, than: arriving[next].publishedAt) {
                let pet = arriving[next]
                // On a tie of times the ids decide; the held pet's id is looked up only then.
                if StoredPet.isSameTime(pet.publishedAt, time), let held = bySeq[newestFirst[place]], !StoredPet.precedes(pet, held) { break }
                append(pet.seq, pet.publishedAt, pet.traits)
                next += 1
            }
            append(newestFirst[place], time, traits[place])
        }
        for pet in arriving[next...] { append(pet.seq, pet.publishedAt, pet.traits) }
        (newestFirst, times, traits) = merged
        return placed
    }
}

/// What a store holds of every listed pet to answer from memory: the position index and the rows,
/// both of one data version of the database.
struct ReplicaCopy: Sendable {
    var index: PositionIndex
    var rows: PetRows

    /// The page `query` asks for, as the database would answer it in the snapshot this copy is of.
    /// - Throws: ``AnimalStoreError/corruptRow(id:field:)`` when a pet of the page cannot be read, as
    ///   reading the page from the database would.
    func snapshot(matching query: AnimalQuery) throws -> AnimalSnapshot {
        AnimalSnapshot(page: try query.center.map { try nearby($0, query: query) } ?? newest(query), dataVersion: index.version)
    }

    private func nearby(_ center: GeoCoordinate, query: AnimalQuery) throws -> AnimalPage {
        let (needed, overflow) = query.offset.addingReportingOverflow(query.limit)
        let nearest = index.nearest(
            center: center, radiusKm: query.radiusKm, mask: query.filter.traitMask, order: query.ordering,
            offset: query.offset, needed: overflow ? .max : needed
        )
        guard query.offset < nearest.totalCount else { return AnimalPage(animals: [], totalCount: nearest.totalCount) }
        var keyed: [Int64: (id: String, publishedAt: Double)] = [:]
        keyed.reserveCapacity(nearest.leading.count)
        for candidate in nearest.leading {
            if let pet = rows.pet(seq: candidate.key) { keyed[candidate.key] = (pet.id, pet.publishedAt) }
        }
        let animals = try nearest.window(of: query, rows: keyed).compactMap { candidate -> Animal? in
            guard var animal = try rows.pet(seq: candidate.key)?.animal() else { return nil }
            animal.distanceKm = candidate.distanceKm
            return animal
        }
        return AnimalPage(animals: animals, totalCount: nearest.totalCount)
    }

    /// The listing without coordinates: newest first, after the cursor or past the offset. A filter
    /// is checked along the traits' bytes, and the walk ends once the page and one more match are
    /// found, or every match is.
    private func newest(_ query: AnimalQuery) throws -> AnimalPage {
        let filtered = !query.filter.keepsAll
        let mask = query.filter.traitMask
        let total = filtered ? index.count(mask: mask) : rows.count
        var place = query.cursor.map(rows.start(after:)) ?? 0
        var skip = query.cursor == nil ? query.offset : 0
        guard skip < total else { return AnimalPage(animals: [], totalCount: total) }
        if !filtered {
            place = min(rows.newestFirst.count, place + skip)
            skip = 0
        }
        var page: [StoredPet] = []
        var hasMore = false
        var seen = 0  // matches passed, for a listing after no cursor: all of them once it is `total`
        let traits = rows.traits
        while place < traits.count, query.cursor != nil || seen < total || !filtered {
            defer { place += 1 }
            if filtered {
                guard mask & (1 << UInt64(traits[place])) != 0 else { continue }
                seen += 1
            }
            if skip > 0 {
                skip -= 1
                continue
            }
            if page.count == query.limit {
                hasMore = true
                break
            }
            if let pet = rows.pet(at: place) { page.append(pet) }
        }
        let cursor = page.last.map { AnimalCursor(publishedAt: $0.publishedAt, id: $0.id) }
        return AnimalPage(animals: try page.map { try $0.animal() }, totalCount: total, nextCursor: hasMore ? cursor : nil)
    }
}
