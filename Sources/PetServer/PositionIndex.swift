import Foundation
import GRDB
import PetAPI
import PetSpotDomain
import Synchronization

/// Every stored pet's position, in memory, grouped by 0.05° ``GeoCell``: what ``SQLiteAnimalStore``
/// counts and ranks a nearby query with, so that the database is read only for the page's own rows.
///
/// Each point also keeps its unit vector on the sphere. Comparing the dot product of two unit vectors
/// with the cosine of the radius decides "within the radius?" with a few multiplications instead of
/// the haversine's five trigonometric calls; only points within ``dotMargin`` of the rim (centimetres)
/// are decided by ``GreatCircle/distanceKm(lat1:lon1:lat2:lon2:)`` itself, so every answer is the
/// haversine's. Ranking works the same way: dot products pick the candidates, haversine distances
/// order them. Each point also carries what the filters and `sort=recent` read (species, sex and age
/// band in one byte, the publication time), and the index counts pets per such combination, in all and
/// per cell, so that a filtered count reads no point of a cell lying wholly inside the circle. Those
/// live in an array beside the points (``Cell``), so that an unfiltered nearby query reads 48-byte
/// points only; 64 bytes per pet in all, with the cells' arrays about 80 MB for a million, plus a
/// few hundred bytes per cell ever occupied since the index was built (a cell emptied keeps its place).
///
/// Cells are found without hashing: each latitude row lists its cells by column, so a query walks the
/// rows its circle spans and, in each, the columns it spans.
struct PositionIndex: Sendable {
    struct Point: Sendable {
        var seq: Int64
        var lat: Double
        var lon: Double
        var x: Double
        var y: Double
        var z: Double

        init(seq: Int64, lat: Double, lon: Double) {
            self.seq = seq
            self.lat = lat
            self.lon = lon
            (x, y, z) = PositionIndex.unitVector(lat: lat, lon: lon)
        }
    }

    /// What the filters and `sort=recent` read of a point.
    struct Traits: Sendable {
        /// Seconds since 1970, as stored: the order of `sort=recent`.
        var publishedAt: Double
        /// The pet's species, sex and age band (``AnimalFilter/traits(species:sex:ageMonths:)``).
        var combination: UInt8
    }

    /// The pets of one ``GeoCell``: `traits[i]` belongs to `points[i]`. A cell emptied by removals
    /// keeps its place (it is skipped), so that places stay valid.
    struct Cell: Sendable {
        var points: [Point] = []
        var traits: [Traits] = []
        /// Pets per combination of traits, kept once the cell has held ``countedFrom`` pets: a smaller
        /// cell is counted by reading its traits, and spares the 256 bytes.
        private var countsByTraits: [Int32] = []
        static let countedFrom = 64

        /// How many of the cell's pets have a combination of traits whose bit is set in `mask`.
        func count(mask: UInt64) -> Int {
            if countsByTraits.isEmpty {
                return traits.reduce(0) { total, pet in mask & (1 << UInt64(pet.combination)) != 0 ? total + 1 : total }
            }
            return PositionIndex.sum(countsByTraits, mask: mask)
        }

        /// Counts a pet of `combination` that was just appended to (`change` 1) or removed from (-1) `traits`.
        mutating func count(_ combination: UInt8, change: Int32) {
            if countsByTraits.isEmpty {
                guard traits.count >= Self.countedFrom else { return }
                countsByTraits = Array(repeating: 0, count: 64)
                for pet in traits { countsByTraits[Int(pet.combination)] += 1 }
            } else {
                countsByTraits[Int(combination)] += change
            }
        }
    }

    /// A cell's column in its latitude row, and its place in ``cells``.
    private struct Place: Sendable {
        var column: Int32
        var slot: Int32
    }

    /// What a nearby query needs from the index.
    struct Nearest {
        /// Pets within the radius.
        var totalCount: Int
        /// Exact distances of the pets that can take the first `needed` places once ties are broken
        /// by id (``NearbyRanking/leading(_:)``); in newest-first order, of the `needed` newest and
        /// every pet published at the same time as the last of them.
        var leading: [NearbyRanking<Int64>.Candidate]
    }

    /// The store's data version this index reflects.
    var version: Int
    /// The last entry of the store's change log this index reflects (SQLite's `pet_change`,
    /// PostgreSQL's `pet_log`).
    var lastChange: Int64 = 0
    /// PostgreSQL: the data version `lastChange` was logged under. The log's ids start again in a
    /// restored database, so an entry with that id may be another one; its version tells (data versions
    /// move by random steps, migration 8).
    var lastChangeVersion = 0
    private(set) var count = 0
    /// Pets per ``AnimalFilter/traits(species:sex:ageMonths:)`` combination.
    private var countsByTraits = [Int](repeating: 0, count: 64)
    /// The highest `seq` held, once ``settleLastSeq()`` ran after removals: rows appended since have
    /// higher ones.
    private(set) var lastSeq: Int64 = 0
    /// Whether the point of `lastSeq` was removed since.
    private var lastSeqRemoved = false
    private var cells: [Cell] = []
    /// Per ``GeoCell`` row, the places of its cells in ``cells``, by column.
    private var rows = [[Place]](repeating: [], count: GeoCell.latitudeCells)
    /// Places of the cells not in order of publication (``restoreTimeOrder()``).
    private var disordered: Set<Int32> = []

    /// Dot products of unit vectors are within about 1e-15 of the truth; within this margin of the
    /// rim's cosine (8 cm at 50 km) the haversine decides.
    static let dotMargin = 1e-10

    init(version: Int) {
        self.version = version
    }

    /// Adds a point at the end of its cell. A cell stays in order of publication (oldest first), which
    /// `sort=recent` walks newest first, only as long as points come in that order: a point older than
    /// its cell's last one leaves the cell out of order until ``restoreTimeOrder()``, and until then
    /// `sort=recent` reads every match instead (right, but slower). So whoever adds calls it once done.
    mutating func add(seq: Int64, lat: Double, lon: Double, publishedAt: Double, traits: UInt8) {
        let slot = place(of: GeoCell(lat: lat, lon: lon))
        if let last = cells[slot].traits.last, last.publishedAt > publishedAt { disordered.insert(Int32(slot)) }
        cells[slot].points.append(Point(seq: seq, lat: lat, lon: lon))
        cells[slot].traits.append(Traits(publishedAt: publishedAt, combination: traits))
        cells[slot].count(traits, change: 1)
        count += 1
        countsByTraits[Int(traits)] += 1
        lastSeq = max(lastSeq, seq)
    }

    /// Puts every cell that ``add(seq:lat:lon:publishedAt:traits:)`` left out of order back in order
    /// of publication (equal times keep the order they came in).
    mutating func restoreTimeOrder() {
        for slot in disordered.map(Int.init) {
            let cell = cells[slot]
            let order = cell.traits.indices.sorted { (cell.traits[$0].publishedAt, $0) < (cell.traits[$1].publishedAt, $1) }
            cells[slot].points = order.map { cell.points[$0] }
            cells[slot].traits = order.map { cell.traits[$0] }
        }
        disordered = []
    }

    /// How many pets have a combination of traits whose bit is set in `mask` (``AnimalFilter/traitMask``).
    func count(mask: UInt64) -> Int {
        Self.sum(countsByTraits, mask: mask)
    }

    private static func sum<Count: BinaryInteger>(_ counts: [Count], mask: UInt64) -> Int {
        var total = 0
        var bits = mask
        while bits != 0 {
            total += Int(counts[bits.trailingZeroBitCount])
            bits &= bits - 1
        }
        return total
    }

    /// Drops the point of row `seq`, which the index holds at `lat`, `lon`; false if it holds none there.
    @discardableResult
    mutating func remove(seq: Int64, lat: Double, lon: Double) -> Bool {
        let geoCell = GeoCell(lat: lat, lon: lon)
        guard let slot = existingPlace(of: geoCell), let index = cells[slot].points.firstIndex(where: { $0.seq == seq }) else {
            return false
        }
        cells[slot].points.remove(at: index)
        let removed = cells[slot].traits.remove(at: index)
        cells[slot].count(removed.combination, change: -1)
        countsByTraits[Int(removed.combination)] -= 1
        count -= 1
        if seq == lastSeq { lastSeqRemoved = true }
        return true
    }

    /// Brings ``lastSeq`` down to the highest `seq` still held when its point was removed, reading
    /// every point (a millisecond or two for a million). The trap it closes: SQLite gives a new row
    /// the highest rowid plus one, so once the newest row is deleted its `seq` comes back, below an
    /// unsettled `lastSeq`, where appends are not looked for.
    mutating func settleLastSeq() {
        guard lastSeqRemoved else { return }
        lastSeqRemoved = false
        lastSeq = cells.reduce(0) { highest, cell in cell.points.reduce(highest) { max($0, $1.seq) } }
    }

    /// Where in its row's list the cell of `column` is, or would be inserted.
    private static func position(ofColumn column: Int, in places: [Place]) -> Int {
        var low = 0
        var high = places.count
        while low < high {
            let mid = (low + high) / 2
            if Int(places[mid].column) < column { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private func existingPlace(of geoCell: GeoCell) -> Int? {
        let places = rows[geoCell.row]
        let position = Self.position(ofColumn: geoCell.column, in: places)
        guard position < places.count, Int(places[position].column) == geoCell.column else { return nil }
        return Int(places[position].slot)
    }

    /// The place of `geoCell` in ``cells``, made if it has none.
    private mutating func place(of geoCell: GeoCell) -> Int {
        if let slot = existingPlace(of: geoCell) { return slot }
        let position = Self.position(ofColumn: geoCell.column, in: rows[geoCell.row])
        cells.append(Cell())
        rows[geoCell.row].insert(Place(column: Int32(geoCell.column), slot: Int32(cells.count - 1)), at: position)
        return cells.count - 1
    }

    static func unitVector(lat: Double, lon: Double) -> (x: Double, y: Double, z: Double) {
        let radians = Double.pi / 180
        let cosLat = cos(lat * radians)
        return (cosLat * cos(lon * radians), cosLat * sin(lon * radians), sin(lat * radians))
    }

    /// Every combination of traits, ``AnimalFilter/unknownTraits`` too: the mask of a filter that keeps every pet.
    static let everyTrait = UInt64.max

    /// The number of pets within `radiusKm` of `center` whose traits `mask` keeps, and the candidates
    /// for the first `needed` places in `order`; none when the page starting at `offset` lies past the
    /// last match (nothing to rank).
    func nearest(
        center: GeoCoordinate, radiusKm: Double, mask: UInt64 = everyTrait, order: AnimalSort = .distance,
        offset: Int, needed: Int
    ) -> Nearest {
        let (cx, cy, cz) = Self.unitVector(lat: center.latitude, lon: center.longitude)
        let rimCosine = cos(radiusKm / GreatCircle.earthRadiusKm)
        func dot(_ point: Point) -> Double { point.x * cx + point.y * cy + point.z * cz }
        func isWithinRadius(_ point: Point, dot: Double) -> Bool {
            if dot > rimCosine + Self.dotMargin { return true }
            if dot < rimCosine - Self.dotMargin { return false }
            return distanceKm(point) <= radiusKm
        }
        func distanceKm(_ point: Point) -> Double {
            GreatCircle.distanceKm(lat1: center.latitude, lon1: center.longitude, lat2: point.lat, lon2: point.lon)
        }
        // Unfiltered, the traits are never read: the scans touch the points alone.
        let filtered = mask != Self.everyTrait
        func isKept(slot: Int, index: Int) -> Bool { !filtered || mask & (1 << UInt64(cells[slot].traits[index].combination)) != 0 }

        // 1. Count, and keep the cells that hold any match with the nearest distance they allow.
        var totalCount = 0
        var touched: [(nearestKm: Double, slot: Int)] = []
        let circle = CellCircle(radiusKm: radiusKm)
        let rowTrig = CellCircle.rowTrig
        let columnTrig = CellCircle.columnTrig
        for box in SearchBox.covering(center: center, radiusKm: radiusKm) {
            let range = GeoCell.range(of: box)
            for row in range.rows {
                let places = rows[row]
                guard !places.isEmpty else { continue }
                let bounds = circle.bounds(ofRow: row)
                var position = Self.position(ofColumn: range.columns.lowerBound, in: places)
                while position < places.count, Int(places[position].column) <= range.columns.upperBound {
                    let column = Int(places[position].column)
                    let slot = Int(places[position].slot)
                    position += 1
                    guard !cells[slot].points.isEmpty else { continue }
                    // The dot product of the cell's centre with the circle's.
                    let cellDot = rowTrig[row].cos * (columnTrig[column].cos * cx + columnTrig[column].sin * cy) + rowTrig[row].sin * cz
                    switch bounds.position(ofCellWithCenterDot: cellDot) {
                    case .outside: continue
                    case .inside where !filtered: totalCount += cells[slot].points.count
                    case .inside: totalCount += cells[slot].count(mask: mask)
                    case .boundary:
                        let cell = cells[slot]
                        for (index, point) in cell.points.enumerated() where isKept(slot: slot, index: index) && isWithinRadius(point, dot: dot(point)) {
                            totalCount += 1
                        }
                    }
                    touched.append((bounds.nearestKm(ofCellWithCenterDot: cellDot), slot))
                }
            }
        }
        let wanted = min(needed, totalCount)
        guard wanted > 0, offset < totalCount else { return Nearest(totalCount: totalCount, leading: []) }

        if order == .recent {
            // 2'. Newest first. When matches are common (at least 8 per place wanted), walk the touched
            //     cells newest first all at once, always taking the newest point not yet taken, until
            //     the `wanted` newest matches and whatever is published at the same time as the last of
            //     them are found: when time is unrelated to place and traits, as many points per place
            //     as there are points per match, instead of every match. Otherwise, with cells out of
            //     order, or when the walk reads a quarter of the points, gather every match and select.
            if disordered.isEmpty, totalCount / 8 >= wanted {
                var newest = NewestFirst()
                var points = 0
                for (_, slot) in touched where !filtered || cells[slot].count(mask: mask) > 0 {
                    let last = cells[slot].points.count - 1
                    newest.push(publishedAt: cells[slot].traits[last].publishedAt, slot: slot, index: last)
                    points += last + 1
                }
                // Matches may all be older than what the filter or the circle leaves out: past a
                // quarter of the points, gathering costs less than walking on.
                var budget = points / 4
                var leading: [NearbyRanking<Int64>.Candidate] = []
                var wantedTime = -Double.infinity
                var walked = true
                while let (publishedAt, slot, index) = newest.pop() {
                    if leading.count >= wanted, publishedAt < wantedTime { break }
                    guard budget > 0 else {
                        walked = false
                        break
                    }
                    budget -= 1
                    let point = cells[slot].points[index]
                    if isKept(slot: slot, index: index), isWithinRadius(point, dot: dot(point)) {
                        leading.append(NearbyRanking<Int64>.Candidate(key: point.seq, distanceKm: distanceKm(point)))
                        if leading.count == wanted { wantedTime = publishedAt }
                    }
                    if index > 0 { newest.push(publishedAt: cells[slot].traits[index - 1].publishedAt, slot: slot, index: index - 1) }
                }
                if walked { return Nearest(totalCount: totalCount, leading: leading) }
            }
            var matches: [(point: Point, publishedAt: Double)] = []
            for (_, slot) in touched {
                let cell = cells[slot]
                for (index, point) in cell.points.enumerated() where isKept(slot: slot, index: index) && isWithinRadius(point, dot: dot(point)) {
                    matches.append((point, cell.traits[index].publishedAt))
                }
            }
            guard !matches.isEmpty else { return Nearest(totalCount: totalCount, leading: []) }
            var times = matches.map(\.publishedAt)
            let wantedTime = Self.select(&times, largest: min(wanted, matches.count))
            let leading = matches.filter { $0.publishedAt >= wantedTime }.map {
                NearbyRanking<Int64>.Candidate(key: $0.point.seq, distanceKm: distanceKm($0.point))
            }
            return Nearest(totalCount: totalCount, leading: leading)
        }

        // 2. Gather matches cell by cell, nearest cells first, until no further cell can hold a pet
        //    nearer than the `wanted`-th one gathered.
        touched.sort { $0.nearestKm < $1.nearestKm }
        var gathered: [(dot: Double, point: Point)] = []
        var wantedDot = -Double.infinity  // the dot product of the `wanted`-th nearest so far
        for (nearestKm, slot) in touched {
            if gathered.count >= wanted, nearestKm > Self.distanceKm(dot: wantedDot) + 0.001 { break }
            let cell = cells[slot]
            for (index, point) in cell.points.enumerated() where isKept(slot: slot, index: index) {
                let pointDot = dot(point)
                if isWithinRadius(point, dot: pointDot) { gathered.append((pointDot, point)) }
            }
            if gathered.count >= wanted {
                var dots = gathered.map(\.dot)
                wantedDot = Self.select(&dots, largest: wanted)
            }
        }

        // 3. Exact distances for everything that may tie with or beat the `wanted`-th (1 m of slack,
        //    far beyond the dot products' error), then ties by id as the ranking breaks them.
        let slackDot = cos(min(Double.pi, (Self.distanceKm(dot: wantedDot) + 0.001) / GreatCircle.earthRadiusKm))
        var ranking = NearbyRanking<Int64>(radiusKm: radiusKm)
        for (pointDot, point) in gathered where pointDot >= slackDot {
            ranking.consider(key: point.seq, distanceKm: distanceKm(point))
        }
        return Nearest(totalCount: totalCount, leading: ranking.leading(wanted))
    }

    /// The great-circle distance whose unit vectors have dot product `dot` (0 for anything ≥ 1).
    fileprivate static func distanceKm(dot: Double) -> Double {
        GreatCircle.earthRadiusKm * acos(min(1, max(-1, dot)))
    }

    /// The `rank`-th largest of `values` (1-based; Hoare selection, reorders `values`).
    private static func select(_ values: inout [Double], largest rank: Int) -> Double {
        let target = rank - 1
        var low = 0
        var high = values.count - 1
        while low < high {
            let pivot = values[(low + high) / 2]
            var i = low
            var j = high
            while i <= j {
                while values[i] > pivot { i += 1 }
                while values[j] < pivot { j -= 1 }
                if i <= j {
                    values.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if target <= j { high = j } else if target >= i { low = i } else { break }
        }
        return values[target]
    }
}

/// The cells of a `sort=recent` walk, each at its newest point not yet taken: a binary heap by time.
private struct NewestFirst {
    private var entries: [(publishedAt: Double, slot: Int, index: Int)] = []

    mutating func push(publishedAt: Double, slot: Int, index: Int) {
        entries.append((publishedAt, slot, index))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[parent].publishedAt < entries[child].publishedAt else { break }
            entries.swapAt(parent, child)
            child = parent
        }
    }

    /// The entry of the newest point, removed.
    mutating func pop() -> (publishedAt: Double, slot: Int, index: Int)? {
        guard !entries.isEmpty else { return nil }
        entries.swapAt(0, entries.count - 1)
        let newest = entries.removeLast()
        var parent = 0
        while true {
            var largest = parent
            let left = 2 * parent + 1
            let right = left + 1
            if left < entries.count, entries[left].publishedAt > entries[largest].publishedAt { largest = left }
            if right < entries.count, entries[right].publishedAt > entries[largest].publishedAt { largest = right }
            guard largest != parent else { return newest }
            entries.swapAt(parent, largest)
            parent = largest
        }
    }
}

/// Where the ``GeoCell``s of one row lie relative to a circle, told by the dot product of a cell's
/// centre with the circle's (unit vectors): the same bounds as ``GeoCell/position(fromLat:lon:radiusKm:)``,
/// the centre's distance ± the cell's half diagonal with ``GeoCell/safetyKm`` to spare, without a
/// haversine per cell. The trap: near zero distance the arc cosine of a rounded dot product is off
/// by up to about 15 cm, so this is exact only because the safety margin (1 m) is far larger; a
/// margin of 1 cm would call cells inside that are not.
struct CellCircle {
    let radiusKm: Double

    struct RowBounds {
        /// A cell whose centre's dot product exceeds this lies wholly inside the circle.
        var insideDot: Double
        /// A cell whose centre's dot product is below this lies wholly outside.
        var outsideDot: Double
        var halfDiagonalKm: Double

        func position(ofCellWithCenterDot dot: Double) -> GeoCell.Position {
            if dot > insideDot { return .inside }
            if dot < outsideDot { return .outside }
            return .boundary
        }

        /// The nearest distance from the circle's centre that a point of the cell can have.
        func nearestKm(ofCellWithCenterDot dot: Double) -> Double {
            max(0, PositionIndex.distanceKm(dot: dot) - halfDiagonalKm)
        }
    }

    func bounds(ofRow row: Int) -> RowBounds {
        let halfDiagonal = GeoCell.halfDiagonalKm[row]
        // Inside: distance + half diagonal < radius − safety; outside: distance − half diagonal >
        // radius + safety. As angles: the centre's angle below (above) these, its cosine above (below).
        let inside = (radiusKm - GeoCell.safetyKm - halfDiagonal) / GreatCircle.earthRadiusKm
        let outside = (radiusKm + GeoCell.safetyKm + halfDiagonal) / GreatCircle.earthRadiusKm
        return RowBounds(
            insideDot: inside <= 0 ? .infinity : inside >= .pi ? -.infinity : cos(inside),
            outsideDot: outside >= .pi ? -.infinity : cos(outside),
            halfDiagonalKm: halfDiagonal
        )
    }

    /// Sine and cosine of each row's centre latitude.
    static let rowTrig: [(sin: Double, cos: Double)] = (0..<GeoCell.latitudeCells).map { row in
        let cell = GeoCell(row: row, column: 0)
        let radians = (cell.minLat + cell.maxLat) / 2 * .pi / 180
        return (sin(radians), cos(radians))
    }

    /// Sine and cosine of each column's centre longitude.
    static let columnTrig: [(sin: Double, cos: Double)] = (0..<GeoCell.longitudeCells).map { column in
        let cell = GeoCell(row: 0, column: column)
        let radians = (cell.minLon + cell.maxLon) / 2 * .pi / 180
        return (sin(radians), cos(radians))
    }
}

extension PositionIndex.Nearest {
    /// Whether so few candidates lead that a store reads their whole rows at once (a statement with at
    /// most 2 × limit + 8 keys: few enough shapes to keep them all prepared) rather than first their
    /// ids and times, then the page's rows.
    func isSmall(for query: AnimalQuery) -> Bool { leading.count <= 2 * query.limit + 8 }

    /// The leading candidates at places `query.offset ..< query.offset + query.limit` of the page's
    /// order: (distance, id), or for `sort=recent` (stored time, newest first, id). `rows` gives each
    /// one's id and stored time: the stored number itself, since a `Date` made of it may round two
    /// times into one.
    func window(of query: AnimalQuery, rows: [Int64: (id: String, publishedAt: Double)]) -> [NearbyRanking<Int64>.Candidate] {
        let known = leading.compactMap { candidate in rows[candidate.key].map { (candidate, $0.id, $0.publishedAt) } }
        let ordered = known.sorted { a, b in
            query.ordering == .recent ? (-a.2, a.1) < (-b.2, b.1) : (a.0.distanceKm, a.1) < (b.0.distanceKm, b.1)
        }
        let (end, overflow) = query.offset.addingReportingOverflow(query.limit)
        let upper = min(overflow ? totalCount : min(end, totalCount), ordered.count)
        return ordered[min(query.offset, upper)..<upper].map(\.0)
    }
}

/// The ``PositionIndex`` of one SQLite store, brought up to the data version of whichever read
/// transaction asks for it; with `keepsRows`, also every pet's row (``ReplicaCopy``), so that a
/// listing whose snapshot the copy is of reads no row from the file.
final class PositionIndexCache: Sendable {
    private struct Held {
        var index: PositionIndex
        /// `index`'s pets' rows, when kept and readable.
        var rows: PetRows?
    }

    private let latest = Mutex<Held?>(nil)
    let keepsRows: Bool

    init(keepsRows: Bool = false) {
        self.keepsRows = keepsRows
    }

    /// How many times an index was built from every row (the first time included): for tests and
    /// diagnostics, since catching up is what should happen.
    var fullBuilds: Int { builds.withLock { $0 } }
    private let builds = Mutex(0)

    /// The index held when it is of `db`'s snapshot, without catching up or building: else `nil`.
    func current(in db: Database) throws -> PositionIndex? {
        let (pets, version) = try Self.stats(db)
        return current(pets: pets, version: version)
    }

    /// The index held when it is of the snapshot whose ``stats(_:)`` are `pets` and `version`.
    func current(pets: Int, version: Int) -> PositionIndex? {
        current(pets, version)?.index
    }

    /// The copy held when it is of the snapshot whose ``stats(_:)`` are `pets` and `version`.
    func currentCopy(pets: Int, version: Int) -> ReplicaCopy? {
        guard let held = current(pets, version), let rows = held.rows else { return nil }
        copyAnswers.add(1, ordering: .relaxed)
        return ReplicaCopy(index: held.index, rows: rows)
    }

    /// How many reads ``currentCopy(pets:version:)`` answered: for tests.
    let copyAnswers = Atomic(0)

    /// The maintained count of pets and the data version.
    static func stats(_ db: Database) throws -> (pets: Int, version: Int) {
        let stats = try Row.fetchOne(db.cachedStatement(sql: "SELECT pets, version FROM pet_stats"))
        return (stats?[0] ?? 0, stats?[1] ?? 0)
    }

    /// `db`'s snapshot is older than the index held: a read that began before another caught the
    /// index up. A new read transaction sees at least the index's version.
    struct SnapshotBehind: Error {}

    /// The index as of `db`'s snapshot (see ``copy(in:replacingNewer:)``).
    func index(in db: Database, replacingNewer: Bool = false) throws -> PositionIndex {
        try held(in: db, replacingNewer: replacingNewer).index
    }

    /// The index with its rows as of `db`'s snapshot; nil when rows are not kept.
    /// - Throws: ``SnapshotBehind`` when the index held is newer than the snapshot, unless
    ///   `replacingNewer` (the database went back: restored from a backup): then this snapshot's
    ///   index is built and held instead.
    func copy(in db: Database, replacingNewer: Bool = false) throws -> ReplicaCopy? {
        let held = try held(in: db, replacingNewer: replacingNewer)
        return held.rows.map { ReplicaCopy(index: held.index, rows: $0) }
    }

    /// The held index and rows when they are of the snapshot whose stats are `pets` and `version`.
    private func current(_ pets: Int, _ version: Int) -> Held? {
        latest.withLock { $0 }.flatMap { $0.index.version == version && $0.index.count == pets ? $0 : nil }
    }

    /// One read at a time catches up or builds; the others wait for it and use what it made (a pool
    /// reader's thread, not one of the cooperative pool's). Without it every pool reader built its
    /// own copy of a million rows at once, after a large import.
    private let work = Mutex(())

    /// Catching up moves or drops the points of rows the change log (`pet_change`, written by the
    /// triggers) names since the index's last entry, then adds the rows after its highest `seq`;
    /// kept rows follow the same entries. An index older than the oldest entry kept, or whose count
    /// then disagrees with the maintained one, is rebuilt from every row.
    private func held(in db: Database, replacingNewer: Bool) throws -> Held {
        let (pets, version) = try Self.stats(db)
        if let current = current(pets, version) { return current }
        return try work.withLock { _ in
            if let current = current(pets, version) { return current }
            return try catchUp(db, pets: pets, version: version, replacingNewer: replacingNewer)
        }
    }

    private func catchUp(_ db: Database, pets: Int, version: Int, replacingNewer: Bool) throws -> Held {
        let newest = latest.withLock { $0 }
        if let newest, newest.index.version > version, !replacingNewer { throw SnapshotBehind() }
        let held = newest.flatMap { $0.index.version <= version ? $0 : nil }
        let oldestKept = try Int64.fetchOne(db.cachedStatement(sql: "SELECT min(id) FROM pet_change")) ?? 0
        var index: PositionIndex
        var rows: PetRows?
        if let held, oldestKept == 0 || held.index.lastChange >= oldestKept - 1 {
            index = held.index
            let touched = try Self.applyChanges(db, to: &index)
            index.settleLastSeq()
            let appendedAfter = index.lastSeq
            try Self.add(db, rowsAfter: appendedAfter, to: &index)
            if var kept = held.rows {
                // A row it could not place (an order the database does not have) is built anew below.
                let placed = kept.replace(Set(touched), with: try Self.pets(db, touched: touched, after: appendedAfter))
                rows = placed ? kept : nil
            }
        } else {
            (index, rows) = try build(db, version: version)
        }
        if index.count != pets || (keepsRows && rows.map { !$0.isConsistent(count: pets) } ?? true) {
            (index, rows) = try build(db, version: version)
        }
        index.restoreTimeOrder()
        index.version = version
        let made = Held(index: index, rows: rows)
        latest.withLock { $0 = made }
        return made
    }

    private func build(_ db: Database, version: Int) throws -> (PositionIndex, PetRows?) {
        builds.withLock { $0 += 1 }
        var index = PositionIndex(version: version)
        index.lastChange = try Int64.fetchOne(db.cachedStatement(sql: "SELECT coalesce(max(id), 0) FROM pet_change")) ?? 0
        try Self.add(db, rowsAfter: 0, to: &index)
        let rows = keepsRows ? PetRows(try Self.pets(db, touched: [], after: 0)) : nil
        return (index, rows)
    }

    /// The rows of the `seq`s in `touched` that still exist and of every row after `seq` `after`. A
    /// row that cannot be read as a pet (written by hand, breaking a field rule) is kept as such: it
    /// fails the pages that hold it, as reading them from the file would.
    private static func pets(_ db: Database, touched: [Int64], after: Int64) throws -> [StoredPet] {
        var pets: [StoredPet] = []
        var interner = RowInterner()
        func read(_ cursor: RowCursor) throws {
            while let row = try cursor.next() {
                let animal: Result<Animal, AnimalStoreError>
                do {
                    animal = .success(interner.intern(try SQLiteAnimalStore.animal(from: row, distanceKm: nil)))
                } catch let error as AnimalStoreError {
                    animal = .failure(error)
                }
                let traits: Int = row[14]
                pets.append(StoredPet(seq: row[13], id: row[0], publishedAt: row[12], traits: UInt8(clamping: traits), row: animal))
            }
        }
        let select = "SELECT \(SQLiteAnimalStore.columns), seq, \(AnimalFilter.traitsSQL) FROM pet"
        let present = touched.filter { $0 <= after }
        for chunk in stride(from: 0, to: present.count, by: 10_000) {
            let keys = Array(present[chunk..<min(present.count, chunk + 10_000)])
            try read(Row.fetchCursor(db, sql: "\(select) WHERE seq IN (\(databaseQuestionMarks(count: keys.count)))", arguments: StatementArguments(keys)))
        }
        try read(Row.fetchCursor(db, sql: "\(select) WHERE seq > ?", arguments: [after]))
        return pets
    }

    /// Moves or drops the points of rows changed or deleted since `index.lastChange`, and returns
    /// every `seq` the entries name. A row changed twice is moved once: the index holds it where the
    /// first entry says it was, and where it is now is read from the row.
    private static func applyChanges(_ db: Database, to index: inout PositionIndex) throws -> [Int64] {
        let entries = try Row.fetchAll(
            db.cachedStatement(sql: "SELECT id, old_seq, old_lat, old_lon, new_seq FROM pet_change WHERE id > ? ORDER BY id"),
            arguments: [index.lastChange]
        )
        guard let last = entries.last else { return [] }
        var touched: [Int64] = []
        var seen: Set<Int64> = []
        for entry in entries {
            let old: Int64 = entry[1]
            if seen.insert(old).inserted, old <= index.lastSeq {
                index.remove(seq: old, lat: entry[2], lon: entry[3])
                touched.append(old)
            }
            if let new: Int64 = entry[4], new != old, seen.insert(new).inserted { touched.append(new) }
        }
        // Where each touched row is now (rows after lastSeq are added with the appends).
        let present = touched.filter { $0 <= index.lastSeq }
        for chunk in stride(from: 0, to: present.count, by: 10_000) {
            let keys = Array(present[chunk..<min(present.count, chunk + 10_000)])
            let sql = "SELECT \(pointColumns) FROM pet WHERE seq IN (\(databaseQuestionMarks(count: keys.count)))"
            for row in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(keys)) {
                addPoint(of: row, to: &index)
            }
        }
        index.lastChange = last[0]
        return touched
    }

    private static func add(_ db: Database, rowsAfter seq: Int64, to index: inout PositionIndex) throws {
        let rows = try Row.fetchCursor(db, sql: "SELECT \(pointColumns) FROM pet WHERE seq > ? ORDER BY seq", arguments: [seq])
        while let row = try rows.next() {
            addPoint(of: row, to: &index)
        }
    }

    /// What the index holds of a row, read by ``addPoint(of:to:)``.
    private static let pointColumns = "seq, lat, lon, published_at, \(AnimalFilter.traitsSQL)"

    private static func addPoint(of row: Row, to index: inout PositionIndex) {
        let traits: Int = row[4]
        index.add(seq: row[0], lat: row[1], lon: row[2], publishedAt: row[3], traits: UInt8(clamping: traits))
    }
}
