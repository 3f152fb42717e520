import GRDB
import Synchronization

/// A few read-only connections to the store's file, used on the calling thread and never waited for.
///
/// `DatabasePool.read` from async code hops to a queue that waits for a free reader, then to that
/// reader's queue, then back: three thread wake-ups that cost a listing more CPU than its query. A
/// read here runs on the thread that asks, in a transaction of its own, when one of these connections
/// is free. When none is, or SQLite answers `SQLITE_BUSY`, the caller reads through the pool instead.
///
/// The trap this avoids: waiting for a connection on a thread of Swift's cooperative pool. GRDB's
/// blocking `read` does, on a semaphore; when every reader is held by async reads whose release
/// needs a cooperative thread to run, every cooperative thread waits and the process stops. Here a
/// connection is only ever taken if free, under a lock held for no more than the take.
final class SQLiteReadConnections: Sendable {
    private let connections: [DatabaseQueue]
    private let free: Mutex<[Int]>

    /// Opens `count` read-only connections to the database at `path`, prepared by `configuration`
    /// (whose busy mode is replaced: a busy database sends the read to the pool, which may wait).
    init(path: String, configuration: Configuration, count: Int) throws {
        var configuration = configuration
        configuration.readonly = true
        configuration.busyMode = .immediateError
        connections = try (0..<count).map { _ in try DatabaseQueue(path: path, configuration: configuration) }
        free = Mutex(Array(connections.indices))
    }

    /// The result of `body` run in a read transaction on a free connection, on this thread; `nil`
    /// when every connection is in use or the database is busy (`body` may then have run in part,
    /// inside a transaction that was rolled back).
    func readIfFree<T>(_ body: (Database) throws -> T) throws -> T? {
        guard let index = free.withLock({ $0.popLast() }) else { return nil }
        defer { free.withLock { $0.append(index) } }
        do {
            return try connections[index].read(body)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY {
            return nil
        }
    }
}
