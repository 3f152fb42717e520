import PetServer
import PetSpotDomain

extension BenchCommand.Store {
    /// The SQLite store benchmark repeated on PostgreSQL: the same deterministic demo pets and the same
    /// query centres, so the two stores' figures compare directly.
    func benchmarkPostgres(_ configuration: PostgresAnimalStore.Configuration, centers: [GeoCoordinate]) async throws {
        try await PostgresAnimalStore.withStore(configuration) { store in try await benchmark(store, configuration, centers: centers) }
    }

    private func benchmark(_ store: PostgresAnimalStore, _ configuration: PostgresAnimalStore.Configuration, centers: [GeoCoordinate]) async throws {
        let clock = ContinuousClock()
        let existing = try await store.count()
        if existing < pets {
            let elapsed = try await clock.measure {
                try await store.insert(streaming: DemoPetGenerator().sequence(count: pets), skippingExistingIDs: true)
            }
            print("inserted \(pets - existing) pets in \(elapsed) (one transaction, then ANALYZE)")
            if cluster {
                print("CLUSTER by the location index in \(try await clock.measure { try await store.clusterByLocation() })")
            }
        }
        print("store: \(try await store.count()) pets in \(configuration.displayURL) (schema \(configuration.schema))")
        _ = try await AnimalStoreBenchmark.nearby(store: store, centers: Array(centers.prefix(50)))
        print("nearby (PostGIS GiST, ST_DWithin + KNN <->, count capped), 50 km, limit 20: \(try await AnimalStoreBenchmark.nearby(store: store, centers: centers))")
    }
}
