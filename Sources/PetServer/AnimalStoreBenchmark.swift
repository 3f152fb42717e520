import Foundation
import GRDB
import PetAPI
import PetSpotDomain

/// Timings of nearby queries on the SQLite store (`petspot bench store`). Not a test: numbers depend
/// on the machine.
public enum AnimalStoreBenchmark {
    /// Median and 99th percentile of a set of samples, in milliseconds.
    public struct Summary: Sendable, CustomStringConvertible {
        public var samples: Int
        public var medianMs: Double
        public var p99Ms: Double
        public var meanMatches: Double

        public init(durations: [Duration], matches: [Int]) {
            let ms = durations.map(\.milliseconds).sorted()
            samples = ms.count
            medianMs = ms.isEmpty ? 0 : ms[ms.count / 2]
            p99Ms = ms.isEmpty ? 0 : ms[min(ms.count - 1, Int((Double(ms.count) * 0.99).rounded(.up)) - 1)]
            meanMatches = matches.isEmpty ? 0 : Double(matches.reduce(0, +)) / Double(matches.count)
        }

        public var description: String {
            String(format: "median %.3f ms, p99 %.3f ms over %d queries (mean %.0f matches within radius)", medianMs, p99Ms, samples, meanMatches)
        }
    }

    /// Query centres: demo pets' own positions (where people looking for pets are), deterministic.
    public static func centers(count: Int, seed: UInt64 = 7) -> [GeoCoordinate] {
        DemoPetGenerator(seed: seed).sequence(count: count).map(\.location)
    }

    /// Times `store.animals(matching:)` for a 50 km, limit-20 query at each centre.
    public static func nearby(store: any AnimalStore, centers: [GeoCoordinate], radiusKm: Double = 50) async throws -> Summary {
        try await time(centers) { center in
            try await store.animals(matching: AnimalQuery(center: center, radiusKm: radiusKm, limit: 20)).totalCount
        }
    }

    /// Times `query` once per centre; it returns how many pets lie within the radius.
    static func time(
        _ centers: [GeoCoordinate], _ query: (GeoCoordinate) async throws -> Int
    ) async throws -> Summary {
        let clock = ContinuousClock()
        var durations: [Duration] = []
        var matches: [Int] = []
        for center in centers {
            var total = 0
            durations.append(try await clock.measure { total = try await query(center) })
            matches.append(total)
        }
        return Summary(durations: durations, matches: matches)
    }

    /// The same queries answered by reading every row and checking its distance (no index).
    public static func fullScan(store: SQLiteAnimalStore, centers: [GeoCoordinate], radiusKm: Double = 50) async throws -> Summary {
        try await time(centers) { center in
            try await store.pool.read { db in
                var matches: [(distanceKm: Double, seq: Int64)] = []
                let rows = try Row.fetchCursor(db, sql: "SELECT seq, lat, lon FROM pet NOT INDEXED")
                while let row = try rows.next() {
                    let distance = GreatCircle.distanceKm(lat1: center.latitude, lon1: center.longitude, lat2: row[1], lon2: row[2])
                    if distance <= radiusKm { matches.append((distance, row[0])) }
                }
                _ = matches.sorted { ($0.distanceKm, $0.seq) < ($1.distanceKm, $1.seq) }.prefix(20)
                return matches.count
            }
        }
    }
}
