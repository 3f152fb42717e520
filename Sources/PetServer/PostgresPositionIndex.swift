import Logging
import PetAPI
import PetSpotDomain
import PostgresNIO
import Synchronization

/// The ``PositionIndex`` of one PostgreSQL store, that is of one API replica: every pet's position in
/// memory, so that a nearby query is counted and ranked here and the database reads only the page's
/// rows, as with SQLite.
///
/// PostgreSQL stays the source of truth. Each read brings the index to the data version of its own
/// transaction from the database's log of position changes (`pet_log`, written by the triggers of
/// migration 7), so a replica answers exactly what the database holds in that snapshot: there is no
/// interval in which it lags. One read at a time builds or catches up; the reads that come meanwhile
/// answer from the database (``PostgresAnimalStore``'s query by PostGIS), as do reads whose snapshot
/// is older than the index. A restarted database changes nothing here: the next read catches up.
final class PostgresPositionIndex: Sendable {
    /// What a read transaction sees of the statistics row.
    struct Stats: Sendable {
        var version: Int
        var pets: Int
        /// The log holds every change after this version (older entries are pruned).
        var logStartsAfter: Int
        /// The newest log entry's id (0 when the log is empty). With the version it tells one state of
        /// the database from another that reached the same version by other changes (a failover
        /// that lost transactions: the sequence had handed out ids past them). A restored dump sets
        /// the sequence back; the random steps of the version (migration 8) keep the pair from
        /// repeating, and ``lastLogVersion`` tells its entry from another with the same id.
        var lastLogID: Int64
        /// The version the newest log entry was written under (0 when the log is empty).
        var lastLogVersion = 0
    }

    enum Plan {
        case use(PositionIndex)
        case answerFromDatabase
        case catchUp(from: PositionIndex)
        case build
    }

    struct State {
        var latest: PositionIndex?
        /// The rows of `latest`'s pets, when the index keeps rows.
        var rows: PetRows?
        /// The start of the latest read whose snapshot showed the database at `latest`'s state: every
        /// commit before it is in `latest`.
        var confirmedAt: ContinuousClock.Instant?
        /// When this replica's own last write ended: a confirmation must be later, so that a replica
        /// reads its own writes.
        var ownWriteEndedAt: ContinuousClock.Instant?
        var memoryAnswers = 0
        /// The read building or catching up, and until when the others leave it the work.
        var busy: (work: Int, until: ContinuousClock.Instant)?
        var works = 0
        var fullBuilds = 0
        var answersFromDatabase = 0
    }

    private let state = Mutex(State())
    private let table: String
    private let log: String
    private let logger: Logger
    /// How long one read may hold the work before another takes it over. The trap it closes: a build
    /// on a connection whose server vanished without a reset never returns (the caller stops waiting
    /// at its deadline, the query goes on), and would otherwise keep every later read on PostGIS
    /// until the connection died.
    private let lease: Duration
    let now: @Sendable () -> ContinuousClock.Instant
    /// How long a confirmed copy answers without the database (``fresh()``); zero: never, and no rows
    /// are kept.
    let lag: Duration
    var keepsRows: Bool { lag > .zero }

    init(
        table: String, log: String, logger: Logger, lease: Duration, lag: Duration = .zero,
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.table = table
        self.log = log
        self.logger = logger
        self.lease = lease
        self.lag = lag
        self.now = now
    }

    /// The copy to answer from without asking the database: the index with its rows, confirmed by a
    /// read that began less than ``lag`` ago and after this replica's last own write. Nil otherwise
    /// (never confirmed yet, as at start; not confirmed lately, as while the database is down).
    func fresh() -> ReplicaCopy? {
        guard keepsRows else { return nil }
        let now = now()
        return state.withLock { state in
            guard let latest = state.latest, let rows = state.rows, let confirmed = state.confirmedAt,
                  now < confirmed.advanced(by: lag), state.ownWriteEndedAt.map({ $0 < confirmed }) ?? true else { return nil }
            state.memoryAnswers += 1
            return ReplicaCopy(index: latest, rows: rows)
        }
    }

    /// A read that began at `readBegan` saw the database at `index`'s state.
    func confirm(_ index: PositionIndex, readBegan: ContinuousClock.Instant) {
        state.withLock { state in
            guard let latest = state.latest, latest.version == index.version, latest.lastChange == index.lastChange,
                  state.confirmedAt.map({ $0 < readBegan }) ?? true else { return }
            state.confirmedAt = readBegan
        }
    }

    /// This replica wrote (or tried to): the copy answers again only once a later read confirms it.
    func noteOwnWrite() {
        let now = now()
        state.withLock { $0.ownWriteEndedAt = now }
    }

    /// How many reads the copy answered from memory: for tests.
    var memoryAnswers: Int { state.withLock { $0.memoryAnswers } }

    /// The index as the last read left it, whatever version the database is at now.
    var latest: PositionIndex? { state.withLock { $0.latest } }

    /// How many times the index was built from every row, the first time included: for tests and
    /// diagnostics, since catching up is what should happen.
    var fullBuilds: Int { state.withLock { $0.fullBuilds } }
    /// How many reads this index could not answer (busy, or of an older snapshot): for tests.
    var answersFromDatabase: Int { state.withLock { $0.answersFromDatabase } }

    /// Drops `index` if it is still the one held: a snapshot taken after it was read showed an older
    /// version, so the database went back (restored, or failed over to a standby that lost
    /// transactions). The next read builds anew.
    func forget(_ index: PositionIndex) {
        state.withLock { state in
            guard state.busy == nil, let latest = state.latest, latest.version == index.version,
                  latest.lastChange == index.lastChange else { return }
            state.latest = nil
            state.rows = nil
            state.confirmedAt = nil
        }
    }

    /// Whether `index` is of the database state that `stats` were read in.
    static func reflects(_ index: PositionIndex, _ stats: Stats) -> Bool {
        index.version == stats.version && index.lastChange == stats.lastLogID
    }

    /// The index at `stats.version` (with its rows when it keeps them), read on `connection` inside
    /// the caller's repeatable-read transaction (the one `stats` was read in, begun at `readBegan`);
    /// nil when the caller must answer from the database.
    func index(
        at stats: Stats, on connection: PostgresConnection, readBegan: ContinuousClock.Instant
    ) async throws -> (index: PositionIndex, rows: PetRows?)? {
        // The rows are taken in the same step as the plan: they are of the very index it names, which
        // another read may replace right after.
        let (plan, work, rowsOfLatest) = state.withLock { state in
            let (plan, work) = Self.plan(&state, at: stats, now: now(), lease: lease)
            return (plan, work, state.rows)
        }
        let held: (index: PositionIndex, rows: PetRows?)?
        switch plan {
        case .use(let latest):
            confirm(latest, readBegan: readBegan)
            return (latest, rowsOfLatest)
        case .answerFromDatabase: return nil
        case .catchUp(let latest): held = (latest, rowsOfLatest)
        case .build: held = nil
        }
        do {
            var made: (index: PositionIndex, rows: PetRows?)?
            if var caughtUp = held?.index,
               let touched = try await applyLog(after: caughtUp.version, to: &caughtUp, checking: caughtUp.version > stats.logStartsAfter, on: connection),
               caughtUp.count == stats.pets {
                if !keepsRows {
                    made = (caughtUp, nil)
                } else if var rows = held?.rows {
                    let (fetched, _) = try await self.rows(touched.listed, on: connection)
                    // A row it could not place, or a count that disagrees: built anew below.
                    if rows.replace(touched.changed, with: fetched.map(\.pet)), rows.isConsistent(count: stats.pets) {
                        made = (caughtUp, rows)
                    }
                }
            }
            var index: PositionIndex
            let rows: PetRows?
            if let made { (index, rows) = made } else { (index, rows) = try await build(stats, on: connection) }
            index.restoreTimeOrder()
            index.version = stats.version
            index.lastChange = stats.lastLogID
            index.lastChangeVersion = stats.lastLogVersion
            let kept = index
            // Only the busy read builds or catches up, and only from a newer snapshot or another
            // database's: what it made replaces the index whatever its version, unless its lease ran
            // out and a later read took the work over.
            state.withLock { state in
                guard state.busy?.work == work else { return }
                state.busy = nil
                state.latest = kept
                state.rows = rows
                state.confirmedAt = readBegan
            }
            return (index, rows)
        } catch {
            state.withLock { state in
                if state.busy?.work == work { state.busy = nil }
            }
            throw error
        }
    }

    /// What a read of `stats` does, decided under the lock: use the index, leave the answer to the
    /// database, or take the work (the returned work number) of catching it up or building it.
    static func plan(_ state: inout State, at stats: Stats, now: ContinuousClock.Instant, lease: Duration) -> (Plan, Int) {
        if let latest = state.latest, reflects(latest, stats) { return (.use(latest), 0) }
        if let busy = state.busy, now < busy.until {
            state.answersFromDatabase += 1
            return (.answerFromDatabase, 0)
        }
        // A snapshot older than the index cannot be answered by it. (A database that went back
        // below the index's version is told apart by ``forget(_:)``.)
        if let latest = state.latest, latest.version > stats.version {
            state.answersFromDatabase += 1
            return (.answerFromDatabase, 0)
        }
        state.works += 1
        state.busy = (state.works, now.advanced(by: lease))
        if let latest = state.latest, latest.version < stats.version, latest.version >= stats.logStartsAfter,
           stats.lastLogID >= latest.lastChange {
            return (.catchUp(from: latest), state.works)
        }
        return (.build, state.works)
    }

    /// Every row's position (and whole row, when the index keeps rows), read in the caller's snapshot.
    private func build(_ stats: Stats, on connection: PostgresConnection) async throws -> (PositionIndex, PetRows?) {
        state.withLock { $0.fullBuilds += 1 }
        var index = PositionIndex(version: stats.version)
        var rows: PetRows?
        if keepsRows {
            let (pets, unreadable) = try await self.rows(nil, on: connection)
            for (pet, lat, lon) in pets {
                index.add(seq: pet.seq, lat: lat, lon: lon, publishedAt: pet.publishedAt, traits: pet.traits)
            }
            rows = PetRows(pets.map(\.pet))
            if unreadable > 0 {
                // Not the pets themselves: their ids say nothing, their rows may hold anything.
                logger.warning("stored pets cannot be read: the pages holding them fail", metadata: ["pets": "\(unreadable)"])
            }
        } else {
            let rows = try await connection.query(
                "SELECT seq, lat, lon, published_at, \(unescaped: AnimalFilter.traitsSQL) FROM \(unescaped: table)", logger: logger
            )
            for try await (seq, lat, lon, publishedAt, traits) in rows.decode((Int64, Double, Double, Double, Int).self) {
                index.add(seq: seq, lat: lat, lon: lon, publishedAt: publishedAt, traits: UInt8(clamping: traits))
            }
        }
        if index.count != stats.pets {
            logger.warning("pet_stats disagrees with the pet table", metadata: ["counted": "\(stats.pets)", "rows": "\(index.count)"])
        }
        return (index, rows)
    }

    /// The rows of `seqs` (of every pet when nil) as the caller's snapshot has them, each with its
    /// position, and how many cannot be read as a pet (written by hand, breaking a field rule): those
    /// are kept as such, and fail the pages that hold them, as the database's rows would.
    private func rows(
        _ seqs: [Int64]?, on connection: PostgresConnection
    ) async throws -> (pets: [(pet: StoredPet, lat: Double, lon: Double)], unreadable: Int) {
        if let seqs, seqs.isEmpty { return ([], 0) }
        let select = "SELECT \(PostgresAnimalStore.columns), seq, \(AnimalFilter.traitsSQL) FROM \(table)"
        let result = try await connection.query(
            seqs.map { "\(unescaped: select) WHERE seq = ANY(\($0))" } ?? "\(unescaped: select)", logger: logger
        )
        var pets: [(pet: StoredPet, lat: Double, lon: Double)] = []
        var interner = RowInterner()
        var unreadable = 0
        for try await row in result {
            let columns = row.makeRandomAccess()
            let animal: Result<Animal, AnimalStoreError>
            do {
                animal = .success(interner.intern(try PostgresAnimalStore.animal(from: columns, distanceKm: nil)))
            } catch let error as AnimalStoreError {
                animal = .failure(error)
                unreadable += 1
            }
            let pet = StoredPet(
                seq: try columns[13].decode(Int64.self), id: try columns[0].decode(String.self),
                publishedAt: try columns[12].decode(Double.self), traits: UInt8(clamping: try columns[14].decode(Int.self)), row: animal
            )
            pets.append((pet, try columns[10].decode(Double.self), try columns[11].decode(Double.self)))
        }
        return (pets, unreadable)
    }

    /// Replays the log entries after `version` that the snapshot shows, and returns the `seq`s they
    /// name (and of those, the ones listed now); nil when one names a position the index does not
    /// hold, or, when `checking` (the log still reaches back to it), the entry the index was last
    /// brought to is gone or is another one (logged under another version): another database, that
    /// reached the version by other changes, or a restored one whose log's ids started again. The
    /// index is then of no use. An index brought to an empty log has no such entry: then no entry may
    /// be logged under its version or before, since every later change of its own history is logged
    /// under a later one.
    private func applyLog(
        after version: Int, to index: inout PositionIndex, checking: Bool, on connection: PostgresConnection
    ) async throws -> (changed: Set<Int64>, listed: [Int64])? {
        if checking, index.lastChange == 0 {
            let foreign = try await connection.query(
                "SELECT EXISTS (SELECT 1 FROM \(unescaped: log) WHERE version <= \(version))", logger: logger
            )
            for try await exists in foreign.decode(Bool.self) where exists { return nil }
        }
        let marker = checking ? index.lastChange : 0
        let entries = try await connection.query("""
            SELECT id, version, seq, listed, lat, lon, coalesce(published_at, 0), \(unescaped: AnimalFilter.traitsSQL)
            FROM \(unescaped: log) WHERE version > \(version) OR id = \(marker) ORDER BY id
            """, logger: logger)
        var consistent = true
        var markerSeen = marker == 0
        // Per seq, whether its last entry lists it.
        var lastly: [Int64: Bool] = [:]
        for try await (id, loggedUnder, seq, listed, lat, lon, publishedAt, traits)
            in entries.decode((Int64, Int, Int64, Bool, Double, Double, Double, Int).self)
        {
            if id == marker {
                markerSeen = loggedUnder == index.lastChangeVersion
                continue
            }
            lastly[seq] = listed
            if listed {
                index.add(seq: seq, lat: lat, lon: lon, publishedAt: publishedAt, traits: UInt8(clamping: traits))
            } else if !index.remove(seq: seq, lat: lat, lon: lon) {
                consistent = false
            }
        }
        guard consistent, markerSeen else { return nil }
        return (Set(lastly.keys), lastly.filter(\.value).map(\.key))
    }
}
