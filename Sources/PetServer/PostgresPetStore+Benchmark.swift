import PetAPI
import PetSpotDomain
import PostgresNIO

extension PetStoreBenchmark {
    /// The same queries on PostgreSQL answered without the index: every row's coordinates are read and
    /// checked with the haversine, as ``fullScan(store:centers:radiusKm:)`` does on SQLite.
    public static func fullScan(store: PostgresPetStore, centers: [GeoCoordinate], radiusKm: Double = 50) async throws -> Summary {
        let clock = ContinuousClock()
        var durations: [Duration] = []
        var matches: [Int] = []
        for center in centers {
            var total = 0
            durations.append(try await clock.measure {
                total = try await store.withConnection(timeoutAfterLease: false) { connection in
                    var ranking = NearbyRanking<Int>(radiusKm: radiusKm)
                    var index = 0
                    let rows = try await connection.query("SELECT lat, lon FROM \(unescaped: store.table)", logger: store.logger)
                    for try await (lat, lon) in rows.decode((Double, Double).self) {
                        ranking.consider(key: index, distanceKm: GreatCircle.distanceKm(
                            lat1: center.latitude, lon1: center.longitude, lat2: lat, lon2: lon))
                        index += 1
                    }
                    _ = ranking.leading(20)
                    return ranking.matches.count
                }
            })
            matches.append(total)
        }
        return Summary(durations: durations, matches: matches)
    }
}
