import NIOCore
import Synchronization

/// Encoded bodies of recent `GET /api/pets` pages, so that the pages everyone asks for — the listing
/// without coordinates, and nearby pages of busy neighbourhoods, whose coordinates the app rounds to
/// two decimals — are queried and encoded once per data version, not once per request.
///
/// Entries are keyed by the data version and the canonical query, never by a hash alone, so a cached
/// body always answers the same query, and it is stored under the version read in the same snapshot
/// as the page. The key is the query's UTF-8 bytes, not a `String`: Swift's `String` equality would
/// take a cursor after `é` and one after `e` + U+0301 (two pets, two pages) for one key. A new version simply stops matching the old entries, which age out.
///
/// Entries live in two generations: stores go to the young one, which becomes the old one when it holds
/// half the capacity or half the bytes (the previous old one is dropped); a hit in the old generation
/// moves back to the young one. That is a cheap approximation of least-recently-used, and holds at
/// most `capacity` entries (an odd capacity is rounded up) and `byteCapacity` bytes of bodies: a body
/// larger than half of it is not kept. A capacity of 0 keeps nothing.
public final class ResponseCache: Sendable {
    public let capacity: Int
    /// The most bytes of bodies held (both generations; keys and bookkeeping come on top).
    public let byteCapacity: Int

    /// The data version and the query, as bytes.
    struct Key: Hashable {
        let bytes: [UInt8]

        init(version: Int, path: String) {
            bytes = Array("\(version) \(path)".utf8)
        }
    }

    private struct Generation {
        var bodies: [Key: ByteBuffer] = [:]
        var bytes = 0

        mutating func remove(_ key: Key) -> ByteBuffer? {
            guard let body = bodies.removeValue(forKey: key) else { return nil }
            bytes -= body.readableBytes
            return body
        }
    }

    private struct Generations {
        var young = Generation()
        var old = Generation()
    }

    private let generations = Mutex(Generations())

    public init(capacity: Int, byteCapacity: Int = PetServerConfiguration.defaultResponseCacheBytes) {
        self.capacity = max(0, capacity)
        self.byteCapacity = max(0, byteCapacity)
    }

    public func body(version: Int, path: String) -> ByteBuffer? {
        guard capacity > 0 else { return nil }
        let key = Key(version: version, path: path)
        return generations.withLock { generations in
            if let body = generations.young.bodies[key] { return body }
            guard let body = generations.old.remove(key) else { return nil }
            insert(body, key: key, into: &generations)
            return body
        }
    }

    public func store(_ body: ByteBuffer, version: Int, path: String) {
        guard capacity > 0 else { return }
        let key = Key(version: version, path: path)
        generations.withLock { insert(body, key: key, into: &$0) }
    }

    /// How many bodies are held (both generations).
    public var count: Int {
        generations.withLock { $0.young.bodies.count + $0.old.bodies.count }
    }

    /// How many bytes of bodies are held (both generations).
    public var bytes: Int {
        generations.withLock { $0.young.bytes + $0.old.bytes }
    }

    private func insert(_ body: ByteBuffer, key: Key, into generations: inout Generations) {
        let halfBytes = byteCapacity / 2
        guard body.readableBytes <= halfBytes else { return }
        _ = generations.young.remove(key)
        _ = generations.old.remove(key)
        if generations.young.bodies.count >= (capacity + 1) / 2 || generations.young.bytes + body.readableBytes > halfBytes {
            generations.old = generations.young
            generations.young = Generation()
        }
        generations.young.bodies[key] = body
        generations.young.bytes += body.readableBytes
    }
}
