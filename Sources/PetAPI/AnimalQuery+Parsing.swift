import PetSpotDomain

/// A query parameter that was missing, malformed or out of range.
public struct AnimalQueryError: Error, Equatable, Sendable, CustomStringConvertible {
    public var parameter: String
    public var message: String

    public init(parameter: String, message: String) {
        self.parameter = parameter
        self.message = message
    }

    public var description: String { message }

    /// The error body the server answers with (status 400).
    public var body: APIErrorBody {
        APIErrorBody(code: "invalid_parameter", parameter: parameter, message: message)
    }
}

extension AnimalQuery {
    /// The parameters the listing reads; others are ignored.
    public static let parameterNames: Set<String> = [
        "lat", "lon", "radiusKm", "species", "sex", "age", "sort", "limit", "page", "cursor",
    ]

    /// Parses and validates query parameters. Unknown names are ignored; one of ``parameterNames``
    /// given twice is refused (which value was meant is not for the server to guess). Every failure
    /// names the parameter and its allowed values.
    public static func parse(_ parameters: [(name: String, value: String)]) throws(AnimalQueryError) -> AnimalQuery {
        let first = try values(of: parameterNames, in: parameters)
        let lat = try first["lat"].map { value throws(AnimalQueryError) in
            try decimal(value, name: "lat", range: -90...90)
        }
        let lon = try first["lon"].map { value throws(AnimalQueryError) in
            try decimal(value, name: "lon", range: -180...180)
        }
        var query = AnimalQuery()
        switch (lat, lon) {
        case let (lat?, lon?):
            query.center = try? GeoCoordinate(latitude: lat, longitude: lon)
        case (.some, nil):
            throw AnimalQueryError(parameter: "lon", message: "lon is required when lat is given (a decimal between -180 and 180)")
        case (nil, .some):
            throw AnimalQueryError(parameter: "lat", message: "lat is required when lon is given (a decimal between -90 and 90)")
        case (nil, nil):
            break
        }
        if let radius = first["radiusKm"] {
            guard query.center != nil else {
                throw AnimalQueryError(parameter: "radiusKm", message: "radiusKm is allowed only together with lat and lon")
            }
            query.radiusKm = try decimal(radius, name: "radiusKm", range: radiusRange)
        }
        if let species = first["species"] { query.filter.species = try list(species, name: "species") }
        if let sex = first["sex"] { query.filter.sexes = try list(sex, name: "sex") }
        if let age = first["age"] { query.filter.ageBands = try list(age, name: "age") }
        if let sort = first["sort"] {
            guard query.center != nil else {
                throw AnimalQueryError(
                    parameter: "sort", message: "sort is allowed only together with lat and lon (without them the listing is newest first)"
                )
            }
            guard let order = AnimalSort(rawValue: sort) else {
                throw AnimalQueryError(parameter: "sort", message: "sort must be distance or recent (was \"\(sort.prefix(40))\")")
            }
            // The default order is kept as no order, so that one listing is one query (and one text).
            query.sort = order == query.ordering ? nil : order
        }
        if let limit = first["limit"] {
            query.limit = try integer(limit, name: "limit", range: limitRange, rangeText: "between 1 and 100")
        }
        if let page = first["page"] {
            query.page = try integer(page, name: "page", range: 1...Int.max, rangeText: "of at least 1")
        }
        // The cursor pages the listing without coordinates, and takes the place of page there; a nearby
        // listing pages by number and ignores a well-formed one (the API document cannot say "not
        // together"). A malformed one is refused either way.
        if let cursor = first["cursor"] {
            guard let position = AnimalCursor(encoded: cursor) else {
                throw AnimalQueryError(
                    parameter: "cursor",
                    message: "cursor must be a nextCursor: a decimal time, ~ and an id (was \"\(cursor.prefix(40))\")"
                )
            }
            if query.center == nil {
                query.cursor = position
                query.page = 1
            }
        }
        return query
    }

    /// The value of each parameter of `names` that `parameters` gives; unknown names are ignored, and
    /// one of `names` given twice is refused (which value was meant is not for the server to guess).
    static func values(of names: Set<String>, in parameters: [(name: String, value: String)]) throws(AnimalQueryError) -> [String: String] {
        var first: [String: String] = [:]
        for (name, value) in parameters where names.contains(name) {
            guard first[name] == nil else {
                throw AnimalQueryError(parameter: name, message: "\(name) is given more than once; give it once")
            }
            first[name] = value
        }
        return first
    }

    private static func decimal(_ text: String, name: String, range: ClosedRange<Double>) throws(AnimalQueryError) -> Double {
        let bounds = "between \(format(range.lowerBound)) and \(format(range.upperBound))"
        // Swift reads hexadecimal floats ("0x1p3") and "inf" too: only a decimal number is one here.
        guard isDecimal(text), let value = Double(text), value.isFinite else {
            throw AnimalQueryError(parameter: name, message: "\(name) must be a finite decimal number \(bounds) (was \"\(text.prefix(40))\")")
        }
        guard range.contains(value) else {
            throw AnimalQueryError(parameter: name, message: "\(name) must be \(bounds) (was \(text.prefix(40)))")
        }
        return value
    }

    /// A decimal number as JSON writes one, with an optional leading `+` and digits on either side of
    /// the point: `52`, `-0.5`, `.5`, `5.`, `1e3`, `2.5E-1`.
    public static func isDecimal(_ text: String) -> Bool {
        var characters = Substring(text).utf8[...]
        if let sign = characters.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { characters = characters.dropFirst() }
        let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        let whole = characters.prefix(while: isDigit)
        characters = characters.dropFirst(whole.count)
        var fractionDigits = 0
        if characters.first == UInt8(ascii: ".") {
            characters = characters.dropFirst()
            fractionDigits = characters.prefix(while: isDigit).count
            characters = characters.dropFirst(fractionDigits)
        }
        guard !whole.isEmpty || fractionDigits > 0 else { return false }
        if let marker = characters.first, marker == UInt8(ascii: "e") || marker == UInt8(ascii: "E") {
            characters = characters.dropFirst()
            if let sign = characters.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { characters = characters.dropFirst() }
            let exponent = characters.prefix(while: isDigit)
            guard !exponent.isEmpty else { return false }
            characters = characters.dropFirst(exponent.count)
        }
        return characters.isEmpty
    }

    /// One or more of `Value`'s names, separated by commas (`dog,cat`); a name given twice counts once.
    private static func list<Value: CaseIterable & RawRepresentable & Hashable>(
        _ text: String, name: String
    ) throws(AnimalQueryError) -> Set<Value> where Value.RawValue == String {
        var values: Set<Value> = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            guard let value = Value(rawValue: String(item)) else {
                let allowed = Value.allCases.map(\.rawValue).joined(separator: ", ")
                throw AnimalQueryError(
                    parameter: name,
                    message: "\(name) must be one or more of \(allowed), separated by commas (was \"\(text.prefix(40))\")"
                )
            }
            values.insert(value)
        }
        return values
    }

    private static func integer(_ text: String, name: String, range: ClosedRange<Int>, rangeText: String) throws(AnimalQueryError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw AnimalQueryError(parameter: name, message: "\(name) must be a whole number \(rangeText) (was \"\(text.prefix(40))\")")
        }
        return value
    }
}
