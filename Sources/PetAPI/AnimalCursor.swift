/// Where the next page of the listing without coordinates starts: the publication time and id of the
/// last animal of the page before (the listing's order is newest first, ties by id). A store continues
/// from it through its newest-first index, so a deep page costs what the first one does, where
/// `page=N` costs O(N · limit).
///
/// On the wire (``encoded``) it is the time in seconds since 1970 as a decimal number, `~`, and the
/// id: `1767225600.5~demo-000042`. Any such text is a position in the listing's order, so every cursor
/// the API document allows is one the server accepts; a client normally sends back the `nextCursor`
/// it was given.
public struct AnimalCursor: Sendable, Equatable, Hashable {
    /// Seconds since 1970, exactly as stored (taken from the stored column, not through `Date`, whose
    /// arithmetic from 2001 could move it by a bit). May be infinite in a cursor a client wrote.
    public var publishedAt: Double
    public var id: String

    public init(publishedAt: Double, id: String) {
        self.publishedAt = publishedAt
        self.id = id
    }

    /// The longest id a cursor may carry, in Unicode scalars (the API document's pattern says the
    /// same): the longest an import takes, so every stored pet's id fits in a cursor.
    public static let maximumIDLength = AnimalID.maximumLength

    /// The shortest decimal text that reads back as the same time to the last bit, then `~` and the id.
    public var encoded: String {
        "\(publishedAt)~\(id)"
    }

    /// Reads `<decimal number>~<id>`; nil when the number is not a bounded plain decimal
    /// (``isPlainDecimal(_:)``: `1e309` is none), or the id is empty, longer than ``maximumIDLength``
    /// Unicode scalars or holds a control character (U+0000–U+001F, U+007F), which no database takes
    /// as text and no stored id holds.
    public init?(encoded: String) {
        // By Unicode scalars: an id may begin with a mark that would join `~` into one Character.
        let scalars = encoded.unicodeScalars
        guard let separator = scalars.firstIndex(of: "~") else { return nil }
        let number = Substring(String(scalars[..<separator]))
        let id = String(scalars[scalars.index(after: separator)...])
        guard !id.isEmpty, id.unicodeScalars.count <= Self.maximumIDLength,
              !id.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }),
              Self.isPlainDecimal(number), let publishedAt = Double(number), publishedAt.isFinite
        else {
            return nil
        }
        self.init(publishedAt: publishedAt, id: id)
    }

    /// `-?digits[.digits][e[+-]digits]` with at most ``maximumIntegerDigits`` digits before the point
    /// and ``maximumExponentDigits`` in the exponent: what JSON calls a number, bounded so that every
    /// such text is a finite `Double` (below 10^120) and the OpenAPI document's pattern says exactly
    /// which cursors are taken. (Swift's `Double(_:)` also reads `inf`, `nan` and hexadecimal, which a
    /// cursor never holds.) A cursor the server writes has a time in seconds since 1970, which needs
    /// neither bound.
    private static func isPlainDecimal(_ text: Substring) -> Bool {
        var rest = text[...]
        if rest.first == "-" { rest = rest.dropFirst() }
        let integer = rest.prefix(while: \.isASCIIDigit)
        guard !integer.isEmpty, integer.count <= maximumIntegerDigits else { return false }
        rest = rest.dropFirst(integer.count)
        if rest.first == "." {
            let fraction = rest.dropFirst().prefix(while: \.isASCIIDigit)
            guard !fraction.isEmpty else { return false }
            rest = rest.dropFirst(1 + fraction.count)
        }
        if rest.first == "e" || rest.first == "E" {
            rest = rest.dropFirst()
            if rest.first == "+" || rest.first == "-" { rest = rest.dropFirst() }
            let exponent = rest.prefix(while: \.isASCIIDigit)
            guard !exponent.isEmpty, exponent.count <= maximumExponentDigits else { return false }
            rest = rest.dropFirst(exponent.count)
        }
        return rest.isEmpty
    }

    public static let maximumIntegerDigits = 20
    public static let maximumExponentDigits = 2

    /// Ids compare as bytes (``AnimalID``): cursors after `é` and after `e` + U+0301 are two positions.
    public static func == (a: Self, b: Self) -> Bool {
        a.publishedAt == b.publishedAt && a.id.utf8.elementsEqual(b.id.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(publishedAt)
        for byte in id.utf8 { hasher.combine(byte) }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
