import Foundation
import PetAPI
import PetSpotDomain

/// The places a person can choose instead of sharing their location (docs/api.md, "Places"). Both
/// stores keep them beside the pets, in the same database.
public protocol PlaceStore: Sendable {
    /// Places whose folded name starts with the folded `query.text`, or whose postal code is it;
    /// postal codes first, then names by population (largest first), ties by id in byte order.
    func places(matching query: PlaceQuery) async throws -> [Place]
    func place(id: String) async throws -> Place?
    /// Replaces every stored place by `places`, in one transaction; returns how many are stored.
    @discardableResult
    func replacePlaces(with places: [Place]) async throws -> Int
    func placeCount() async throws -> Int
}

/// How a place's name is searched: each name folded to a key (``fold(_:)``); the first one to
/// ``indexedPrefixLength`` characters of every key indexed with the places that rank first under it.
enum PlaceSearch {
    /// A query of up to this many characters (folded) is answered from the prefix table alone.
    static let indexedPrefixLength = 4

    /// Letters with no decomposition that a person types without their mark (`lodz` for Łódź).
    private static let plainLetters: [Unicode.Scalar: String] = [
        "ł": "l", "ø": "o", "đ": "d", "ð": "d", "ħ": "h", "ı": "i", "ß": "ss", "æ": "ae", "œ": "oe", "þ": "th",
    ]

    /// Whether `text` may be a postal code: every one the gazetteer holds has a digit.
    static func mayBePostalCode(_ text: String) -> Bool {
        text.utf8.contains { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// Lowercase, without accents (canonical and compatibility decomposition, combining marks
    /// dropped), every run of other than letters and digits one space: `Saint-Étienne` is
    /// `saint etienne`, `São Paulo` is `sao paulo`, `KÖLN` is `koln`.
    static func fold(_ text: String) -> String {
        // What a person types is mostly ASCII: folded here byte by byte, without Foundation's
        // decomposition (most of a suggestion request's time before this).
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf8.count)
            var pendingSpace = false
            for byte in text.utf8 {
                let isAlphanumeric = (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                guard isAlphanumeric else { pendingSpace = true; continue }
                if pendingSpace, !bytes.isEmpty { bytes.append(0x20) }
                pendingSpace = false
                bytes.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        var folded = ""
        var pendingSpace = false
        for scalar in text.lowercased().decomposedStringWithCompatibilityMapping.unicodeScalars {
            let properties = scalar.properties
            if properties.generalCategory == .nonspacingMark || properties.generalCategory == .spacingMark
                || properties.generalCategory == .enclosingMark {
                continue
            }
            if properties.isAlphabetic || properties.numericType != nil {
                if pendingSpace, !folded.isEmpty { folded.append(" ") }
                pendingSpace = false
                if let plain = plainLetters[scalar] { folded += plain } else { folded.unicodeScalars.append(scalar) }
            } else {
                pendingSpace = true
            }
        }
        return folded
    }

    /// The prefixes of `key` the prefix table holds: its first 1 to ``indexedPrefixLength`` characters.
    static func prefixes(of key: String) -> [String] {
        (1...indexedPrefixLength).compactMap { length in key.count >= length ? String(key.prefix(length)) : nil }
    }

    /// What answers one prefix: up to ``PlaceQuery/limitRange``'s upper bound of the places under it,
    /// largest population first, ties by id in byte order. Postal-code places are found by their
    /// code, not their name (their names are the cities'), so they are left out.
    static func prefixRows(of places: [Place]) -> [(prefix: String, population: Int, id: String)] {
        var byPrefix: [String: [Place]] = [:]
        for place in places where place.postalCode == nil {
            for prefix in prefixes(of: fold(place.name)) { byPrefix[prefix, default: []].append(place) }
        }
        var rows: [(prefix: String, population: Int, id: String)] = []
        for (prefix, places) in byPrefix {
            let best = places.sorted(by: ranksFirst).prefix(PlaceQuery.limitRange.upperBound)
            rows += best.map { (prefix, $0.population, $0.id) }
        }
        return rows
    }

    /// The order of suggestions: population, then id as bytes.
    static func ranksFirst(_ a: Place, _ b: Place) -> Bool {
        a.population != b.population ? a.population > b.population : AnimalID.precedes(a.id, b.id)
    }

    /// The upper bound of the keys that start with `prefix`, for a range scan: no valid UTF-8 text
    /// goes past `prefix` followed by U+10FFFF's bytes in byte order.
    static func upperBound(of prefix: String) -> String {
        prefix + "\u{10FFFF}"
    }
}

/// A gazetteer file (`scripts/fetch-places.sh` writes one; `petspot places import FILE` reads it):
/// a header line, then `id name region country lat lon population postalCode label`, tab-separated.
public enum GazetteerFile {
    static let header = ["id", "name", "region", "country", "lat", "lon", "population", "postalCode", "label"]

    /// The file the server answers with when its database holds no place (`petspot serve`).
    public static var bundled: URL? {
        Bundle.module.url(forResource: "places", withExtension: "tsv")
    }

    /// A sample of ``bundled`` that loads in a moment, for the scenarios and the end-to-end suite:
    /// the cities of 100,000 inhabitants or more and New York City's 100xx ZIP codes.
    public static var sample: URL? {
        Bundle.module.url(forResource: "places-sample", withExtension: "tsv")
    }

    /// Every place of `data`.
    /// - Throws: ``GazetteerFileError`` naming the line and the field that is wrong; nothing is read
    ///   past it.
    public static func parse(_ data: Data) throws(GazetteerFileError) -> [Place] {
        guard let text = String(data: data, encoding: .utf8) else {
            throw GazetteerFileError(line: nil, field: nil, message: "the file is not UTF-8 text")
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        guard let first = lines.first, first.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) == header else {
            throw GazetteerFileError(line: 1, field: nil, message: "the first line must be the header: \(header.joined(separator: " "))")
        }
        var places: [Place] = []
        places.reserveCapacity(lines.count - 1)
        var seen = Set<[UInt8]>()
        for (offset, line) in lines.enumerated().dropFirst() {
            let number = offset + 1
            func fail(_ field: String?, _ message: String) -> GazetteerFileError {
                GazetteerFileError(line: number, field: field, message: message)
            }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == header.count else {
                throw fail(nil, "has \(fields.count) fields; every line has \(header.count), separated by tabs")
            }
            let id = fields[0], name = fields[1], country = fields[3], label = fields[8]
            guard AnimalID.hasAllowedLength(id) else { throw fail("id", AnimalID.lengthRule) }
            guard seen.insert(Array(id.utf8)).inserted else { throw fail("id", "\"\(id)\" repeats an earlier line") }
            guard !name.isEmpty, !PlaceSearch.fold(name).isEmpty || fields[7] != "" else {
                throw fail("name", "must hold a letter or a digit")
            }
            guard country.count == 2, country.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
                throw fail("country", "must be an ISO 3166-1 alpha-2 code such as FR (was \"\(country.prefix(20))\")")
            }
            guard let lat = Double(fields[4]), let lon = Double(fields[5]),
                  let location = try? GeoCoordinate(latitude: lat, longitude: lon) else {
                throw fail("lat", "lat and lon must be decimal degrees within -90…90 and -180…180")
            }
            guard let population = Int(fields[6]), population >= 0 else {
                throw fail("population", "must be a whole number ≥ 0 (was \"\(fields[6].prefix(20))\")")
            }
            guard !label.isEmpty else { throw fail("label", "must not be empty") }
            if let (field, message) = TextRule.firstBreak(in: zip(header, fields).map { (field: $0, text: $1) }) {
                throw fail(field, message)
            }
            places.append(Place(
                id: id, name: name, region: fields[2].isEmpty ? nil : fields[2], countryCode: country, location: location,
                population: population, postalCode: fields[7].isEmpty ? nil : fields[7], label: label
            ))
        }
        return places
    }
}

/// What is wrong in a gazetteer file, and where.
public struct GazetteerFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// 1 is the header line.
    public var line: Int?
    public var field: String?
    public var message: String

    public var description: String {
        [line.map { "line \($0)" }, field.map { "field \($0)" }].compactMap { $0 }.joined(separator: ": ")
            + (line == nil && field == nil ? "" : ": ") + message
    }
}
