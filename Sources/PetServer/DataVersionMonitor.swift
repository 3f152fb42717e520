import Synchronization

/// The store's data version as the server hands it out: read from the store at most once per
/// `interval`, so a revalidation (`If-None-Match`) is answered from memory instead of a database
/// round trip.
///
/// The server itself never writes (the API is read-only); pets arrive through `petspot import` or
/// `seed`, in another process, or through another replica. A change is therefore seen within
/// `interval` of its commit — `docs/api.md` says so — while clients already accept a minute of
/// staleness through `Cache-Control: max-age=60`. With an `interval` of zero every call reads the store.
/// The version follows the store's answer, whatever it is; it is not required to grow.
public final class DataVersionMonitor<C: Clock<Duration>>: Sendable {
    private struct Reading {
        var version: Int
        var readAt: C.Instant
    }

    private let store: any AnimalStore
    private let interval: Duration
    private let clock: C
    private let last = Mutex<Reading?>(nil)

    public init(store: any AnimalStore, interval: Duration, clock: C) {
        self.store = store
        self.interval = interval
        self.clock = clock
    }

    /// The version read within the last `interval`, or a fresh one.
    public func current() async throws -> Int {
        let now = clock.now
        if let reading = last.withLock({ $0 }), reading.readAt.duration(to: now) < interval {
            return reading.version
        }
        let version = try await store.dataVersion()
        last.withLock { reading in
            // Of two overlapping reads, keep the one that started later.
            if reading.map({ $0.readAt <= now }) ?? true { reading = Reading(version: version, readAt: now) }
        }
        return version
    }
}
