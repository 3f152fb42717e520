import GRDB
import Testing

@testable import PetServer

/// The store's own read connections: taken only when free, never waited for, and given back.
@Suite(.timeLimit(.minutes(1))) struct SQLiteReadConnectionsTests {
    /// A new migrated file, and the store that made it.
    private func database() throws -> (path: String, store: SQLiteAnimalStore) {
        let path = AnimalFixtures.temporaryDatabasePath()
        return (path, try SQLiteAnimalStore(path: path))
    }

    private func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT pets FROM pet_stats") ?? -1
    }

    @Test func givenTheOnlyConnectionInUse_whenAnotherReadAsks_thenItIsToldNoneIsFreeAtOnce() throws {
        let (path, _) = try database()
        let connections = try SQLiteReadConnections(path: path, configuration: Configuration(), count: 1)
        let inner = try connections.readIfFree { _ in try connections.readIfFree { _ in "inner" } }
        #expect(inner == .some(nil))
        // Given back: the next read runs.
        #expect(try connections.readIfFree { _ in "again" } == "again")
    }

    @Test func givenAWriteCommittedElsewhere_whenReadAgain_thenTheReadSeesIt() async throws {
        let (path, store) = try database()
        let connections = try SQLiteReadConnections(path: path, configuration: Configuration(), count: 1)
        #expect(try connections.readIfFree(count) == 0)
        try await store.insert([try AnimalFixtures.animal("a", lat: 52.23, lon: 21.01)])
        // Each read is a transaction of its own: no snapshot outlives it.
        #expect(try connections.readIfFree(count) == 1)
    }

    @Test func givenTheDatabaseBusy_whenRead_thenNoneIsFreeAndTheConnectionIsGivenBack() throws {
        let (path, _) = try database()
        let connections = try SQLiteReadConnections(path: path, configuration: Configuration(), count: 1)
        // What a statement meets while another connection recovers the WAL, say: the pool, whose
        // connections wait for a lock, reads instead.
        #expect(try connections.readIfFree { _ in throw DatabaseError(resultCode: .SQLITE_BUSY) } == nil)
        #expect(try connections.readIfFree(count) == 0)
    }

    @Test func givenAReadThatThrows_whenReadAgain_thenTheConnectionWasGivenBack() throws {
        struct Refused: Error {}
        let (path, _) = try database()
        let connections = try SQLiteReadConnections(path: path, configuration: Configuration(), count: 1)
        #expect(throws: Refused.self) { try connections.readIfFree { _ in throw Refused() } }
        #expect(try connections.readIfFree(count) == 0)
    }
}
