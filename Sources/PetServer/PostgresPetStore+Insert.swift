import Foundation
import Logging
import PetSpotDomain
import PostgresNIO

extension PostgresPetStore {
    /// Rows sent per INSERT statement (as arrays, unpacked with `unnest`).
    static let batchSize = 5_000
    /// Loads at least this large are followed by `ANALYZE`.
    static let analyzeAfter = 10_000

    public func insert(_ animals: [Animal]) async throws {
        try await insert(streaming: animals, skippingExistingIDs: false)
    }

    /// Inserts a long sequence (for instance generated demo animals) in one transaction, in batches, without
    /// holding it all in memory. Same all-or-nothing rule as ``insert(_:)``.
    /// With `skippingExistingIDs`, animals whose id is already stored (or repeats) are left out.
    /// - Returns: how many animals were added.
    @discardableResult
    public func insert<Animals: Sequence & Sendable>(
        streaming animals: Animals, skippingExistingIDs: Bool = false
    ) async throws -> Int where Animals.Element == Animal {
        let added = try await withConnection(timeoutAfterLease: false) { connection in
            try await Self.transaction(on: connection, logger: logger) {
                var added = 0
                var start = 0
                var batch: [Animal] = []
                batch.reserveCapacity(Self.batchSize)
                for animal in animals {
                    batch.append(animal)
                    if batch.count == Self.batchSize {
                        added += try await insertBatch(batch, startingAt: start, skippingExistingIDs: skippingExistingIDs, on: connection)
                        start += batch.count
                        batch.removeAll(keepingCapacity: true)
                    }
                }
                if !batch.isEmpty {
                    added += try await insertBatch(batch, startingAt: start, skippingExistingIDs: skippingExistingIDs, on: connection)
                }
                return added
            }
        }
        if added >= Self.analyzeAfter {
            // Fresh statistics right after a bulk load, so the planner picks the location index at once.
            try await withConnection(timeoutAfterLease: false) { connection in
                _ = try await connection.query("ANALYZE \(unescaped: table)", logger: logger)
            }
        }
        return added
    }

    private func insertBatch(
        _ batch: [Animal], startingAt start: Int, skippingExistingIDs: Bool, on connection: PostgresConnection
    ) async throws -> Int {
        let ids = batch.map(\.id)
        if !skippingExistingIDs, let index = try await firstTakenID(ids, on: connection) {
            throw PetStoreError.duplicateID(index: start + index, id: ids[index])
        }
        let photos = batch.map { $0.photoURL?.absoluteString ?? "" }
        let hasPhoto = batch.map { $0.photoURL != nil }
        let query: PostgresQuery = """
            WITH added AS (
                INSERT INTO \(unescaped: table) (\(unescaped: Self.columns))
                SELECT id, name, species, breed, sex, age_months, description, CASE WHEN has_photo THEN photo_url END,
                       shelter_name, shelter_city, lat, lon, published_at
                FROM unnest(\(ids)::text[], \(batch.map(\.name))::text[], \(batch.map(\.species.rawValue))::text[],
                            \(batch.map(\.breed))::text[], \(batch.map(\.sex.rawValue))::text[], \(batch.map(\.ageMonths))::int8[],
                            \(batch.map(\.description))::text[], \(photos)::text[], \(hasPhoto)::bool[],
                            \(batch.map(\.shelter.name))::text[], \(batch.map(\.shelter.city))::text[],
                            \(batch.map(\.location.latitude))::float8[], \(batch.map(\.location.longitude))::float8[],
                            \(batch.map(\.publishedAt.timeIntervalSince1970))::float8[])
                    AS input(id, name, species, breed, sex, age_months, description, photo_url, has_photo,
                             shelter_name, shelter_city, lat, lon, published_at)
                \(unescaped: skippingExistingIDs ? "ON CONFLICT (id) DO NOTHING" : "")
                RETURNING cell_row, cell_col),
            counted AS (
                INSERT INTO \(unescaped: cellTable) (cell_row, cell_col, pets)
                SELECT cell_row, cell_col, count(*) FROM added GROUP BY cell_row, cell_col ORDER BY cell_row, cell_col
                ON CONFLICT (cell_row, cell_col) DO UPDATE SET pets = \(unescaped: cellTable).pets + excluded.pets)
            SELECT count(*) FROM added
            """
        do {
            for try await added in try await connection.query(query, logger: logger).decode(Int.self) { return added }
            return 0
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            // Another writer stored one of these ids since the check above; the server names it.
            let detail = error.serverInfo?[.detail] ?? ""
            let index = ids.indices.first { detail.contains("=(\(ids[$0]))") } ?? 0
            throw PetStoreError.duplicateID(index: start + index, id: ids[index])
        }
    }

    /// Rewrites the table in the order of the location index, so that pets near each other share disk
    /// pages and a nearby query reads a few hundred pages instead of one per pet. A one-off step for an
    /// operator after a large import: it locks the table against reads while it runs, and later inserts
    /// are not kept in that order.
    public func clusterByLocation() async throws {
        try await withConnection(timeoutAfterLease: false) { connection in
            try await connection.query("CLUSTER \(unescaped: table) USING pet_location", logger: logger)
            try await connection.query("ANALYZE \(unescaped: table)", logger: logger)
        }
    }

    /// The first position in `ids` whose id is stored already or repeats an earlier one of `ids`.
    private func firstTakenID(_ ids: [String], on connection: PostgresConnection) async throws -> Int? {
        var seen = Set<String>()
        let repeated = ids.indices.first { !seen.insert(ids[$0]).inserted }
        var stored = Set<String>()
        for try await id in try await connection.query(
            "SELECT id FROM \(unescaped: table) WHERE id = ANY(\(ids))", logger: logger
        ).decode(String.self) {
            stored.insert(id)
        }
        let taken = ids.indices.first { stored.contains(ids[$0]) }
        return [repeated, taken].compactMap { $0 }.min()
    }
}
