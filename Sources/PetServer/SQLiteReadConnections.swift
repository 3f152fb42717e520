import GRDB
import Synchronization

/// Read-only connections to the store's file, used on the calling thread and never waited for.
///
/// `DatabasePool.read` from async code hops to a queue that waits for a free reader, then to that
/// reader's queue, then back: three thread wake-ups, a tenth of an uncached listing's CPU. A read here
/// runs on the thread that asks, in a transaction of its own, when a connection is free; when none is,
/// when SQLite answers `SQLITE_BUSY`, or when the read says it may be slow (``LeaveToPool``), the
/// caller reads through the pool instead.
///
/// Two traps. Waiting for a connection on a thread of Swift's cooperative pool: GRDB's blocking `read`
/// does, and when async reads hold every reader while their release needs a cooperative thread, every
/// cooperative thread waits and the process stops. Here a connection is taken only if free, under a
/// lock held for the take alone. And a slow read on those threads stalls every request behind it
/// (`/health` too) where the pool's threads would not: callers send the work they know to be long,
/// such as building the position index or reading a deep page, to the pool.
///
/// Connections open when first needed (a store that only writes opens none), up to `limit`.
final class SQLiteReadConnections: Sendable {
    /// Thrown by a read that finds it would be slow on the calling thread: it is run by the pool.
    struct LeaveToPool: Error {}

    private struct Slots {
        var free: [DatabaseQueue] = []
        var opened = 0
        var closed = false
        var reads = 0
    }

    private let path: String
    private let configuration: Configuration
    private let limit: Int
    private let slots = Mutex(Slots())

    /// Read-only connections to the database at `path`, at most `limit`, prepared by `configuration`
    /// (whose busy mode is replaced: a busy database sends the read to the pool, which may wait).
    init(path: String, configuration: Configuration, limit: Int) {
        var configuration = configuration
        configuration.readonly = true
        configuration.busyMode = .immediateError
        self.path = path
        self.configuration = configuration
        self.limit = limit
    }

    /// The result of `body` run in a read transaction on a free connection, on this thread; `nil` when
    /// every connection is in use, none could be opened, the database is busy or `body` threw
    /// ``LeaveToPool`` (`body` may then have run in part, in a transaction that was rolled back).
    func readIfFree<T>(_ body: (Database) throws -> T) throws -> T? {
        guard let connection = take() else { return nil }
        var done = false
        defer { giveBack(connection, afterRead: done) }
        do {
            let value = try connection.read(body)
            done = true
            return value
        } catch is LeaveToPool {
            return nil
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            return nil
        }
    }

    /// How many reads ran to the end on these connections.
    var reads: Int { slots.withLock { $0.reads } }

    /// Closes every connection; one in use closes when given back. The pool's writer must close after
    /// them (so after any read in progress here): only the last connection to a file checkpoints its
    /// WAL and removes it, and these cannot.
    func close() {
        let idle = slots.withLock { slots in
            slots.closed = true
            defer { slots.free = [] }
            return slots.free
        }
        for connection in idle { try? connection.close() }
    }

    private func take() -> DatabaseQueue? {
        enum Taken { case connection(DatabaseQueue), open, noneFree }
        let taken = slots.withLock { slots -> Taken in
            guard !slots.closed else { return .noneFree }
            if let connection = slots.free.popLast() { return .connection(connection) }
            guard slots.opened < limit else { return .noneFree }
            slots.opened += 1
            return .open
        }
        switch taken {
        case .connection(let connection):
            return connection
        case .noneFree:
            return nil
        case .open:
            // Opened outside the lock (it reads the file). One that is busy frees its place for a later
            // try; one that fails otherwise (a file that cannot be opened read-only) keeps it, so that it
            // is not tried again on every request: the pool reads instead.
            do {
                return try DatabaseQueue(path: path, configuration: configuration)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
                slots.withLock { $0.opened -= 1 }
                return nil
            } catch {
                return nil
            }
        }
    }

    private func giveBack(_ connection: DatabaseQueue, afterRead done: Bool) {
        let closed = slots.withLock { slots in
            if done { slots.reads += 1 }
            if !slots.closed { slots.free.append(connection) }
            return slots.closed
        }
        if closed { try? connection.close() }
    }
}
