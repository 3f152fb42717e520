import PetSpotDomain

/// A query parameter that was missing, malformed or out of range.
public struct PetQueryError: Error, Equatable, Sendable, CustomStringConvertible {
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

extension PetQuery {
    /// Parses and validates query parameters. Unknown names are ignored; when a name repeats, its first
    /// value counts. Every failure names the parameter and its allowed values.
    public static func parse(_ parameters: [(name: String, value: String)]) throws(PetQueryError) -> PetQuery {
        var first: [String: String] = [:]
        for (name, value) in parameters where first[name] == nil {
            first[name] = value
        }
        let lat = try first["lat"].map { value throws(PetQueryError) in
            try decimal(value, name: "lat", range: -90...90)
        }
        let lon = try first["lon"].map { value throws(PetQueryError) in
            try decimal(value, name: "lon", range: -180...180)
        }
        var query = PetQuery()
        switch (lat, lon) {
        case let (lat?, lon?):
            query.center = try? GeoCoordinate(latitude: lat, longitude: lon)
        case (.some, nil):
            throw PetQueryError(parameter: "lon", message: "lon is required when lat is given (a decimal between -180 and 180)")
        case (nil, .some):
            throw PetQueryError(parameter: "lat", message: "lat is required when lon is given (a decimal between -90 and 90)")
        case (nil, nil):
            break
        }
        if let radius = first["radiusKm"] {
            guard query.center != nil else {
                throw PetQueryError(parameter: "radiusKm", message: "radiusKm is allowed only together with lat and lon")
            }
            query.radiusKm = try decimal(radius, name: "radiusKm", range: radiusRange)
        }
        if let limit = first["limit"] {
            query.limit = try integer(limit, name: "limit", range: limitRange, rangeText: "between 1 and 100")
        }
        if let page = first["page"] {
            query.page = try integer(page, name: "page", range: 1...Int.max, rangeText: "of at least 1")
        }
        if let cursor = first["cursor"] {
            guard query.center == nil else {
                throw PetQueryError(parameter: "cursor", message: "cursor pages the listing without lat and lon; nearby pages use page")
            }
            guard first["page"] == nil else {
                throw PetQueryError(parameter: "cursor", message: "cursor and page exclude each other: send the nextCursor of the page before, or a page number")
            }
            guard let position = PetCursor(encoded: cursor) else {
                throw PetQueryError(parameter: "cursor", message: "cursor must be the nextCursor of an earlier page (was \"\(cursor.prefix(40))\")")
            }
            query.cursor = position
        }
        return query
    }

    private static func decimal(_ text: String, name: String, range: ClosedRange<Double>) throws(PetQueryError) -> Double {
        let bounds = "between \(format(range.lowerBound)) and \(format(range.upperBound))"
        guard let value = Double(text), value.isFinite else {
            throw PetQueryError(parameter: name, message: "\(name) must be a finite decimal number \(bounds) (was \"\(text.prefix(40))\")")
        }
        guard range.contains(value) else {
            throw PetQueryError(parameter: name, message: "\(name) must be \(bounds) (was \(text.prefix(40)))")
        }
        return value
    }

    private static func integer(_ text: String, name: String, range: ClosedRange<Int>, rangeText: String) throws(PetQueryError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw PetQueryError(parameter: name, message: "\(name) must be a whole number \(rangeText) (was \"\(text.prefix(40))\")")
        }
        return value
    }
}
