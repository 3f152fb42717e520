import PetServer
import Testing

/// Failures that need no server at all.
@Suite(.timeLimit(.minutes(1))) struct PostgresAnimalStoreOpeningTests {
    @Test func givenNothingListeningOnThePort_whenOpening_thenUnreachableErrorInsteadOfAHang() async throws {
        let configuration = PostgresAnimalStore.Configuration(
            host: "127.0.0.1", port: 1, username: "petspot", password: "secret", database: "petspot", tls: .disable
        )
        let error = await #expect(throws: PostgresAnimalStoreError.self) {
            try await PostgresAnimalStore.withStore(configuration) { _ in }
        }
        guard case .unreachable(let url, _) = error else {
            Issue.record("expected unreachable, got \(String(describing: error))")
            return
        }
        #expect(url == "postgres://petspot@127.0.0.1:1/petspot")
        #expect(error?.description.contains("cannot reach PostgreSQL at postgres://petspot@127.0.0.1:1/petspot") == true)
        #expect(error?.description.contains("secret") == false)
    }
}
