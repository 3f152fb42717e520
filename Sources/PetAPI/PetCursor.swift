import Foundation

/// Where the next page of the listing without coordinates starts: the publication time and id of the
/// last animal of the page before (the listing's order is newest first, ties by id). A store continues
/// from it through its newest-first index, so a deep page costs what the first one does, where
/// `page=N` costs O(N · limit). Opaque on the wire (``encoded``): a client sends back the
/// `nextCursor` it was given.
public struct PetCursor: Sendable, Equatable, Hashable {
    /// Seconds since 1970, exactly as stored (taken from the stored column, not through `Date`, whose
    /// arithmetic from 2001 could move it by a bit).
    public var publishedAt: Double
    public var id: String

    public init(publishedAt: Double, id: String) {
        self.publishedAt = publishedAt
        self.id = id
    }

    /// URL-safe base64 (no padding) of the time's 64 bits in hex and the id.
    public var encoded: String {
        let text = String(publishedAt.bitPattern, radix: 16) + ":" + id
        return Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Reads a cursor made by ``encoded``; nil for anything else.
    public init?(encoded: String) {
        guard encoded.count <= 400, encoded.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else { return nil }
        var base64 = encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8),
              let colon = text.firstIndex(of: ":"),
              let bits = UInt64(text[..<colon], radix: 16)
        else { return nil }
        let publishedAt = Double(bitPattern: bits)
        let id = String(text[text.index(after: colon)...])
        guard publishedAt.isFinite, !id.isEmpty else { return nil }
        self.init(publishedAt: publishedAt, id: id)
    }
}
