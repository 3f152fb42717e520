import Foundation
import Hummingbird

/// HTTP caching of the listing and of single pets (`docs/api.md`, departure 6): every such response
/// carries a strong `ETag` made of the store's data version and the request, and a short
/// `Cache-Control` lifetime, so a CDN, a reverse proxy or the app's `URLCache` can serve repeats and
/// revalidate them. A request whose `If-None-Match` holds the current `ETag` gets `304 Not Modified`
/// without the query being run: the data version is all it costs.
///
/// The version is read before the query runs. If pets are added in between, the body is newer than
/// its tag, which is harmless: the next revalidation sees another version and gets the full page.
enum HTTPCaching {
    /// Fresh for a minute; after that a cache may serve the stale copy for another minute while it
    /// revalidates in the background.
    static let cacheControl = "public, max-age=60, stale-while-revalidate=60"

    /// `"v<version>-<hash of key>"`: strong, and the same on every replica that shares the database.
    static func entityTag(version: Int, key: String) -> String {
        "\"v\(version)-\(String(fnv1a64(key), radix: 16))\""
    }

    /// What an `If-None-Match` header says about a resource whose current tag is `entityTag`.
    enum Match {
        /// No header, or no tag in it is current: answer in full.
        case none
        /// It names the current tag: `304`.
        case tag
        /// It is `*`: `304` if the resource exists (RFC 9110: `*` matches any current representation,
        /// and a pet that does not exist has none), otherwise answer as without the header.
        case any
    }

    /// Compares as RFC 9110 prescribes for `If-None-Match`: weakly, a `W/` prefix ignored.
    static func match(ifNoneMatch: String?, entityTag: String) -> Match {
        guard let ifNoneMatch else { return .none }
        var sawAny = false
        for candidate in ifNoneMatch.split(separator: ",") {
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag == "*" { sawAny = true }
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            if tag == entityTag { return .tag }
        }
        return sawAny ? .any : .none
    }

    /// The caching headers of a `200` (or `304`) for `entityTag`.
    static func headers(entityTag: String) -> HTTPFields {
        var headers = HTTPFields()
        headers[.eTag] = entityTag
        headers[.cacheControl] = cacheControl
        return headers
    }

    static func notModified(entityTag: String) -> Response {
        Response(status: .notModified, headers: headers(entityTag: entityTag))
    }

    /// FNV-1a, 64 bits: a fixed hash (Swift's `Hasher` is seeded per process, and tags must agree
    /// across restarts and replicas).
    static func fnv1a64(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}
