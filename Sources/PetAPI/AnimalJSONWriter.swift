import Foundation

/// The server's hot path: writes ``AnimalListResponse``, ``AnimalDTO`` and the places' bodies byte for byte as
/// `PetAPICoding.makeEncoder()` writes them (sorted keys, unescaped slashes, ISO-8601 dates in whole
/// seconds, `distanceKm` and `photoURL` always present), without `JSONEncoder`'s boxing, dynamic casts
/// and key sorting. `AnimalJSONWriterTests` compares the two on random and hostile values.
struct AnimalJSONWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    mutating func write(_ response: AnimalListResponse) throws {
        append("{\"animals\":[")
        for (index, animal) in response.animals.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            try write(animal)
        }
        let pagination = response.pagination
        append("],\"pagination\":{\"limit\":")
        append(pagination.limit.description)
        if let nextCursor = pagination.nextCursor {
            append(",\"nextCursor\":")
            write(string: nextCursor)
        }
        append(",\"page\":")
        append(pagination.page.description)
        append(",\"totalCount\":")
        append(pagination.totalCount.description)
        append(pagination.totalCountIsExact ? ",\"totalCountIsExact\":true" : ",\"totalCountIsExact\":false")
        append(",\"totalPages\":")
        append(pagination.totalPages.description)
        append("}}")
    }

    mutating func write(_ animal: AnimalDTO) throws {
        append("{\"ageMonths\":")
        append(animal.ageMonths.description)
        append(",\"breed\":")
        write(string: animal.breed)
        append(",\"description\":")
        write(string: animal.description)
        append(",\"distanceKm\":")
        if let distanceKm = animal.distanceKm { try write(number: distanceKm, key: "distanceKm") } else { append("null") }
        append(",\"id\":")
        write(string: animal.id)
        append(",\"location\":{\"lat\":")
        try write(number: animal.location.lat, key: "lat")
        append(",\"lon\":")
        try write(number: animal.location.lon, key: "lon")
        append("},\"name\":")
        write(string: animal.name)
        append(",\"photoURL\":")
        if let photoURL = animal.photoURL { write(string: photoURL) } else { append("null") }
        append(",\"publishedAt\":")
        write(date: animal.publishedAt)
        append(",\"sex\":")
        write(string: animal.sex)
        append(",\"shelter\":{\"city\":")
        write(string: animal.shelter.city)
        append(",\"name\":")
        write(string: animal.shelter.name)
        append("},\"species\":")
        write(string: animal.species)
        append("}")
    }

    mutating func write(_ response: PlaceListResponse) throws {
        append("{\"attribution\":")
        write(string: response.attribution)
        append(",\"places\":[")
        for (index, place) in response.places.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            try write(place)
        }
        append("]}")
    }

    mutating func write(_ response: PlaceResponse) throws {
        append("{\"attribution\":")
        write(string: response.attribution)
        append(",\"place\":")
        try write(response.place)
        append("}")
    }

    mutating func write(_ place: PlaceDTO) throws {
        append("{\"countryCode\":")
        write(string: place.countryCode)
        append(",\"id\":")
        write(string: place.id)
        append(",\"label\":")
        write(string: place.label)
        append(",\"location\":{\"lat\":")
        try write(number: place.location.lat, key: "lat")
        append(",\"lon\":")
        try write(number: place.location.lon, key: "lon")
        append("},\"name\":")
        write(string: place.name)
        append(",\"population\":")
        append(place.population.description)
        append(",\"postalCode\":")
        if let postalCode = place.postalCode { write(string: postalCode) } else { append("null") }
        append(",\"region\":")
        if let region = place.region { write(string: region) } else { append("null") }
        append("}")
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    /// As `JSONEncoder`: the shortest round-tripping `description`, a trailing `.0` dropped; NaN and
    /// infinities are refused, since JSON has no spelling for them.
    private mutating func write(number: Double, key: String) throws {
        guard number.isFinite else {
            throw EncodingError.invalidValue(number, .init(
                codingPath: [], debugDescription: "\(key) is \(number), which JSON cannot represent"
            ))
        }
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        append(text)
    }

    /// Quotes `string`, escaping what JSON requires: `"` and `\`, and control characters (the usual
    /// short forms, `\u00xx` for the rest). Everything else, `/` included, goes out as UTF-8.
    private mutating func write(string: String) {
        bytes.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            // Copy runs of plain bytes at once; most strings have nothing to escape.
            var runStart = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                runStart = index + 1
                switch byte {
                case UInt8(ascii: "\""): append("\\\"")
                case UInt8(ascii: "\\"): append("\\\\")
                case 0x08: append("\\b")
                case 0x0C: append("\\f")
                case UInt8(ascii: "\n"): append("\\n")
                case UInt8(ascii: "\r"): append("\\r")
                case UInt8(ascii: "\t"): append("\\t")
                default:
                    append("\\u00")
                    bytes.append(Self.hexDigits[Int(byte >> 4)])
                    bytes.append(Self.hexDigits[Int(byte & 0x0F)])
                }
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `yyyy-MM-ddTHH:mm:ssZ` in UTC, seconds rounded down, as the `.iso8601` strategy writes them.
    /// Dates before 1600 or after 9999 go through Foundation's formatter, which switches to the Julian
    /// calendar before 1582 and has its own conventions for years of five digits.
    private mutating func write(date: Date) {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        // 1600-01-01 and 9999-12-31T23:59:59 in seconds since 1970.
        guard seconds >= -11_676_096_000, seconds <= 253_402_300_799 else {
            write(string: date.formatted(.iso8601))
            return
        }
        let whole = Int(seconds)
        let (days, secondOfDay) = whole.quotientAndRemainder(dividingBy: 86_400)
        let (dayCount, second) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        let (year, month, day) = Self.civilDate(daysSince1970: dayCount)
        bytes.append(UInt8(ascii: "\""))
        appendDigits(year, width: 4)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(month, width: 2)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(day, width: 2)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(second / 3600, width: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(second / 60 % 60, width: 2)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(second % 60, width: 2)
        append("Z\"")
    }

    private mutating func appendDigits(_ value: Int, width: Int) {
        var divisor = 1
        for _ in 1..<width { divisor *= 10 }
        var rest = value
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }

    /// The proleptic Gregorian date `days` after 1970-01-01 (Howard Hinnant's `civil_from_days`).
    static func civilDate(daysSince1970 days: Int) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension AnimalListResponse {
    /// This page as JSON, exactly as `PetAPICoding.makeEncoder()` encodes it.
    public func jsonBytes() throws -> [UInt8] {
        var writer = AnimalJSONWriter(capacity: 512 + 420 * animals.count)
        try writer.write(self)
        return writer.bytes
    }
}

extension AnimalDTO {
    /// This animal as JSON, exactly as `PetAPICoding.makeEncoder()` encodes it.
    public func jsonBytes() throws -> [UInt8] {
        var writer = AnimalJSONWriter(capacity: 512)
        try writer.write(self)
        return writer.bytes
    }
}

extension PlaceListResponse {
    /// These suggestions as JSON, exactly as `PetAPICoding.makeEncoder()` encodes them.
    public func jsonBytes() throws -> [UInt8] {
        var writer = AnimalJSONWriter(capacity: 128 + 256 * places.count)
        try writer.write(self)
        return writer.bytes
    }
}

extension PlaceResponse {
    /// This place as JSON, exactly as `PetAPICoding.makeEncoder()` encodes it.
    public func jsonBytes() throws -> [UInt8] {
        var writer = AnimalJSONWriter(capacity: 384)
        try writer.write(self)
        return writer.bytes
    }
}
