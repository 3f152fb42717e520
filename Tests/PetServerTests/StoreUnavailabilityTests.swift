import Foundation
import GRDB
import Hummingbird
import HummingbirdTesting
import PetAPI
@testable import PetServer
import PetSpotDomain
import Testing

/// A database that cannot answer just now is a 503 the client may retry, never a 500.
@Suite(.timeLimit(.minutes(1))) struct StoreUnavailabilityTests {
    /// A store whose every call fails with `error`.
    private struct FailingStore: AnimalStore {
        let error: any Error & Sendable

        func snapshot(matching query: AnimalQuery) async throws -> AnimalSnapshot { throw error }
        func lookup(id: String) async throws -> AnimalLookup { throw error }
        func insert(_ animals: [Animal]) async throws { throw error }
        func apply(_ changes: [AnimalChange], sync: Bool) async throws -> ImportSummary { throw error }
        func count() async throws -> Int { throw error }
        func dataVersion() async throws -> Int { throw error }
    }

    private func answer(
        _ uri: String, from error: any Error & Sendable
    ) async throws -> (status: HTTPResponse.Status, retryAfter: String?, body: APIErrorBody.Detail?) {
        let store = FailingStore(error: error)
        let router = buildRouter(
            store: store, versions: DataVersionMonitor(store: store, interval: .zero, clock: ContinuousClock()),
            cache: ResponseCache(capacity: 8)
        )
        return try await Application(router: router).test(.router) { client in
            try await client.execute(uri: uri, method: .get) { response in
                let body = try? PetAPICoding.makeDecoder().decode(APIErrorBody.self, from: Data(String(buffer: response.body).utf8))
                return (response.status, response.headers[.retryAfter], body?.error)
            }
        }
    }

    @Test(arguments: [
        PostgresAnimalStoreError.timedOut(url: "postgres://db/petspot", after: .seconds(5)),
        PostgresAnimalStoreError.unreachable(url: "postgres://db/petspot", reason: "connection refused"),
    ])
    func givenPostgreSQLDownOrSlow_whenListingOrFetching_then503WithRetryAfter(_ error: PostgresAnimalStoreError) async throws {
        for uri in ["/api/pets", "/api/pets?lat=52.23&lon=21.01", "/api/pets/a"] {
            let (status, retryAfter, body) = try await answer(uri, from: error)
            #expect(status == .serviceUnavailable, "\(uri)")
            #expect(retryAfter == "1", "\(uri)")
            #expect(body?.code == "unavailable", "\(uri)")
        }
    }

    @Test func givenSQLiteLockedPastItsBusyTimeout_whenListing_then503() async throws {
        let (status, _, body) = try await answer("/api/pets", from: DatabaseError(resultCode: .SQLITE_BUSY))
        #expect(status == .serviceUnavailable)
        #expect(body?.code == "unavailable")
    }

    @Test func givenAStoredRowThatCannotBeRead_whenListing_then500NotRetryable() async throws {
        let (status, retryAfter, body) = try await answer("/api/pets", from: AnimalStoreError.corruptRow(id: "a", field: "lat"))
        #expect(status == .internalServerError)
        #expect(retryAfter == nil)
        #expect(body?.code == "internal_error")
    }
}
