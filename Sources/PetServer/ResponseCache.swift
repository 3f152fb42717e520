import NIOCore
import Synchronization

/// Encoded bodies of recent `GET /api/pets` pages, so that the pages everyone asks for — the listing
/// without coordinates, and nearby pages of busy neighbourhoods, whose coordinates the app rounds to
/// two decimals — are queried and encoded once per data version, not once per request.
///
/// Entries are keyed by the data version and the canonical query, never by a hash alone, so a cached
/// body always answers the same query. It may be newer than its version: the version is read before
/// the query runs (see ``HTTPCaching``), so a body is never older than its tag. A new version simply
/// stops matching the old entries, which age out.
///
/// Entries live in two generations: stores go to the young one, which becomes the old one when it holds
/// half the capacity (the previous old one is dropped); a hit in the old generation moves back to the
/// young one. That is a cheap approximation of least-recently-used, and holds at most `capacity`
/// entries (an odd capacity is rounded up). A capacity of 0 keeps nothing.
public final class ResponseCache: Sendable {
    public let capacity: Int

    private struct Generations {
        var young: [String: ByteBuffer] = [:]
        var old: [String: ByteBuffer] = [:]
    }

    private let generations = Mutex(Generations())

    public init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    /// The cache key of `path` (its canonical form) at data version `version`.
    static func key(version: Int, path: String) -> String {
        "\(version) \(path)"
    }

    public func body(version: Int, path: String) -> ByteBuffer? {
        guard capacity > 0 else { return nil }
        let key = Self.key(version: version, path: path)
        return generations.withLock { generations in
            if let body = generations.young[key] { return body }
            guard let body = generations.old.removeValue(forKey: key) else { return nil }
            Self.insert(body, key: key, into: &generations, capacity: capacity)
            return body
        }
    }

    public func store(_ body: ByteBuffer, version: Int, path: String) {
        guard capacity > 0 else { return }
        let key = Self.key(version: version, path: path)
        generations.withLock { Self.insert(body, key: key, into: &$0, capacity: capacity) }
    }

    /// How many bodies are held (both generations).
    public var count: Int {
        generations.withLock { $0.young.count + $0.old.count }
    }

    private static func insert(_ body: ByteBuffer, key: String, into generations: inout Generations, capacity: Int) {
        if generations.young.count >= (capacity + 1) / 2 {
            generations.old = generations.young
            generations.young = [:]
        }
        generations.young[key] = body
        generations.old.removeValue(forKey: key)
    }
}
