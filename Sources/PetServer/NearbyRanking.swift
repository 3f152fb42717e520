/// Picks one page of "nearest first, ties by id" out of distance-checked candidates without sorting
/// them all. Store-agnostic: `Key` is whatever cheaply identifies a row (an SQLite rowid, say).
public struct NearbyRanking<Key: Hashable & Comparable & Sendable>: Sendable {
    public struct Candidate: Sendable {
        public var key: Key
        public var distanceKm: Double

        public init(key: Key, distanceKm: Double) {
            self.key = key
            self.distanceKm = distanceKm
        }
    }

    /// Every candidate within the radius (the total count of the query).
    public private(set) var matches: [Candidate] = []
    public let radiusKm: Double

    public init(radiusKm: Double) {
        self.radiusKm = radiusKm
    }

    /// Records a candidate if it lies within the radius.
    @inline(__always)
    public mutating func consider(key: Key, distanceKm: Double) {
        if distanceKm <= radiusKm { matches.append(Candidate(key: key, distanceKm: distanceKm)) }
    }

    /// The candidates that can appear in the first `count` places once ties are broken by id: the
    /// `count` nearest, plus every further candidate exactly as far as the last of them. The caller
    /// sorts these by (distance, id) and keeps the first `count`.
    public func leading(_ count: Int) -> [Candidate] {
        guard count > 0, !matches.isEmpty else { return [] }
        var top: [Candidate]
        if count >= matches.count || count > 512 {
            top = matches.sorted { ($0.distanceKm, $0.key) < ($1.distanceKm, $1.key) }
            top = Array(top.prefix(count))
        } else {
            top = []
            top.reserveCapacity(count + 1)
            for candidate in matches {
                if top.count == count, let last = top.last, candidate.distanceKm >= last.distanceKm { continue }
                let index = insertionIndex(of: candidate.distanceKm, in: top)
                top.insert(candidate, at: index)
                if top.count > count { top.removeLast() }
            }
        }
        guard let boundary = top.last?.distanceKm else { return top }
        let included = Set(top.map(\.key))
        for candidate in matches where candidate.distanceKm == boundary && !included.contains(candidate.key) {
            top.append(candidate)
        }
        return top
    }

    private func insertionIndex(of distance: Double, in sorted: [Candidate]) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid].distanceKm <= distance { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
