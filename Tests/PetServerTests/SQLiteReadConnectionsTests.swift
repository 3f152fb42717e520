import Foundation
import GRDB
import PetAPI
import PetSpotDomain
import Testing

@testable import PetServer

/// The store's own read connections: taken only when free, never waited for, always given back, and
/// closed before the pool's writer.
@Suite(.timeLimit(.minutes(1))) struct SQLiteReadConnectionsTests {
    /// A new migrated file, whose store is closed again.
    private func database() throws -> String {
        let path = AnimalFixtures.temporaryDatabasePath()
        _ = try SQLiteAnimalStore(path: path)
        return path
    }

    /// One connection, configured as the store's are: to wait 10 s for a lock.
    private func connections(_ path: String) -> SQLiteReadConnections {
        var configuration = Configuration()
        configuration.busyMode = .timeout(10)
        return SQLiteReadConnections(path: path, configuration: configuration, limit: 1)
    }

    private func count(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT pets FROM pet_stats") ?? -1
    }

    @Test func givenTheOnlyConnectionInUse_whenAnotherReadAsks_thenItIsLeftToThePoolAtOnce() throws {
        let connections = connections(try database())
        let inner = try connections.readIfFree { _ in try connections.readIfFree { _ in "inner" } }
        #expect(inner == .some(nil))
        #expect(try connections.readIfFree { _ in "again" } == "again")
    }

    @Test func givenAWriteCommittedElsewhere_whenReadAgain_thenTheReadSeesIt() async throws {
        let path = AnimalFixtures.temporaryDatabasePath()
        let store = try SQLiteAnimalStore(path: path)
        let connections = connections(path)
        #expect(try connections.readIfFree(count) == 0)
        try await store.insert([try AnimalFixtures.animal("a", lat: 52.23, lon: 21.01)])
        // Each read is a transaction of its own: no snapshot outlives it.
        #expect(try connections.readIfFree(count) == 1)
    }

    /// Locks the file as another process can: in exclusive locking mode a connection keeps every
    /// other one out of a WAL file once it wrote. Returns the unlock.
    private func lock(_ path: String) throws -> () throws -> Void {
        let locker = try DatabaseQueue(path: path)
        try locker.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA locking_mode = EXCLUSIVE")
            try db.execute(sql: "UPDATE pet_stats SET version = version")
        }
        return {
            try locker.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA locking_mode = NORMAL")
                _ = try Int.fetchOne(db, sql: "SELECT pets FROM pet_stats")  // the lock goes at the next access
            }
        }
    }

    @Test func givenTheFileLockedByAnotherConnection_whenRead_thenItIsLeftToThePoolAtOnce() throws {
        let path = try database()
        let connections = connections(path)
        // Opening the connection meets the lock (a connection open before would have kept the locker out).
        let unlock = try lock(path)
        let started = ContinuousClock.now
        #expect(try connections.readIfFree(count) == nil)
        // A busy handler would have waited for the lock; this gives up at once (bound generous for CI).
        #expect(ContinuousClock.now - started < .seconds(5))
        try unlock()
        #expect(try connections.readIfFree(count) == 0)
    }

    @Test(arguments: [ResultCode.SQLITE_BUSY, .SQLITE_BUSY_RECOVERY, .SQLITE_BUSY_SNAPSHOT])
    func givenABusyStatement_whenRead_thenItIsLeftToThePoolAndTheConnectionGivenBack(_ code: ResultCode) throws {
        let connections = connections(try database())
        #expect(try connections.readIfFree { _ in throw DatabaseError(resultCode: code) } == nil)
        #expect(try connections.readIfFree(count) == 0)
    }

    @Test func givenAReadThatWouldBeSlow_whenItSaysSo_thenItIsLeftToThePoolAndTheConnectionGivenBack() throws {
        let connections = connections(try database())
        #expect(try connections.readIfFree { _ in throw SQLiteReadConnections.LeaveToPool() } == nil)
        #expect(try connections.readIfFree(count) == 0)
    }

    @Test func givenAReadThatThrows_whenReadAgain_thenTheConnectionWasGivenBack() throws {
        struct Refused: Error {}
        let connections = connections(try database())
        #expect(throws: Refused.self) { try connections.readIfFree { _ in throw Refused() } }
        #expect(try connections.readIfFree(count) == 0)
    }

    @Test func givenConnectionsClosedDuringARead_whenTheReadEnds_thenItsConnectionClosesToo() throws {
        let connections = connections(try database())
        let during = try connections.readIfFree { db in
            connections.close()
            return try count(db)
        }
        #expect(during == 0)
        #expect(try connections.readIfFree(count) == nil)
        #expect(connections.reads == 1)
    }

    @Test func givenClosedConnections_whenRead_thenItIsLeftToThePool() throws {
        let connections = connections(try database())
        #expect(try connections.readIfFree(count) == 0)
        connections.close()
        #expect(try connections.readIfFree(count) == nil)
    }

    @Test func givenAStoreThatWroteAndReadOnItsOwnConnections_whenClosed_thenItsWALIsFoldedInAndRemoved() async throws {
        let path = AnimalFixtures.temporaryDatabasePath()
        do {
            let store = try SQLiteAnimalStore(path: path)
            try await store.insert([try AnimalFixtures.animal("a", lat: 52.23, lon: 21.01)])
            #expect(try await store.count() == 1)
            #expect(store.quickReads == 1)
            #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        }
        // Only the last connection to close checkpoints and removes the WAL, and only a writer can.
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        let reopened = try DatabaseQueue(path: path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        #expect(try await reopened.read { db in try Int.fetchOne(db, sql: "SELECT pets FROM pet_stats") } == 1)
    }

    @Test func givenAStore_whenPagesFiltersAndNearbyQueriesAreAsked_thenOnlyCheapReadsRunOnTheCallingThread() async throws {
        let store = try await AnimalFixtures.sqliteStore([
            try AnimalFixtures.animal("a", lat: 52.23, lon: 21.01), try AnimalFixtures.animal("b", lat: 52.24, lon: 21.01),
        ])
        func ranHere(_ query: AnimalQuery) async throws -> Bool {
            let before = store.quickReads
            _ = try await store.snapshot(matching: query)
            return store.quickReads > before
        }
        let warsaw = try GeoCoordinate(latitude: 52.23, longitude: 21.01)
        #expect(try await ranHere(AnimalQuery()))
        #expect(try await ranHere(AnimalQuery(limit: 1, page: 1001)))  // offset 1,000
        #expect(try await !ranHere(AnimalQuery(limit: 1, page: 1002)))
        // Nearest first reads at most the cap and a page or two; newest first reads the whole circle.
        #expect(try await ranHere(AnimalQuery(center: warsaw)))
        #expect(try await ranHere(AnimalQuery(center: warsaw, filter: AnimalFilter(species: [.dog]))))
        #expect(try await !ranHere(AnimalQuery(center: warsaw, sort: .recent)))
        #expect(try await !ranHere(AnimalQuery(center: warsaw, limit: 1, page: 1002)))
        #expect(try await !ranHere(AnimalQuery(filter: AnimalFilter(species: [.dog]))))
    }
}
