import PetSpotDomain

/// The validated query of `GET /api/pets`, shared by the server (parsing) and the client (encoding).
public struct AnimalQuery: Sendable, Equatable {
    public static let radiusRange: ClosedRange<Double> = 1...500
    public static let defaultRadiusKm: Double = 50
    public static let limitRange: ClosedRange<Int> = 1...100
    public static let defaultLimit = 20

    /// The searched point; nil lists every animal, newest first.
    public var center: GeoCoordinate?
    /// Which pets are listed and counted; by default all.
    public var filter: AnimalFilter
    /// The order asked for; nil is the default of ``ordering``.
    public var sort: AnimalSort?
    /// Search radius in kilometres; only meaningful with a ``center``.
    public var radiusKm: Double
    public var limit: Int
    /// 1-based page number.
    public var page: Int
    /// Continue the listing without coordinates after this position (keyset paging); only without a
    /// ``center``, and in place of ``page``.
    public var cursor: AnimalCursor?

    public init(
        center: GeoCoordinate? = nil, radiusKm: Double = defaultRadiusKm, filter: AnimalFilter = AnimalFilter(),
        sort: AnimalSort? = nil, limit: Int = defaultLimit, page: Int = 1, cursor: AnimalCursor? = nil
    ) {
        self.center = center
        self.filter = filter
        self.sort = sort
        self.radiusKm = radiusKm
        self.limit = limit
        self.page = page
        self.cursor = cursor
    }

    /// The order the listing has: ``sort``, or nearest first with a center and newest first without.
    /// (Nearest first without a center means nothing: parsing refuses it.)
    public var ordering: AnimalSort {
        sort ?? (center == nil ? .recent : .distance)
    }

    /// How many results come before this page, saturating instead of overflowing for huge pages.
    public var offset: Int {
        let (product, overflow) = (page - 1).multipliedReportingOverflow(by: limit)
        return overflow ? Int.max : max(0, product)
    }

    /// The query items the client sends: coordinates and radius only with a center; defaults omitted;
    /// a filter's values in one order, so that one query has one text (the server's cache key).
    public var queryItems: [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        if let center {
            items.append(("lat", Self.format(center.latitude)))
            items.append(("lon", Self.format(center.longitude)))
            if radiusKm != Self.defaultRadiusKm { items.append(("radiusKm", Self.format(radiusKm))) }
        }
        func list<Value: CaseIterable & RawRepresentable>(_ values: Set<Value>) -> String where Value.RawValue == String {
            Value.allCases.filter(values.contains).map(\.rawValue).joined(separator: ",")
        }
        if !filter.species.isEmpty { items.append(("species", list(filter.species))) }
        if !filter.sexes.isEmpty { items.append(("sex", list(filter.sexes))) }
        if !filter.ageBands.isEmpty { items.append(("age", list(filter.ageBands))) }
        if center != nil, ordering == .recent { items.append(("sort", AnimalSort.recent.rawValue)) }
        if limit != Self.defaultLimit { items.append(("limit", String(limit))) }
        if page != 1 { items.append(("page", String(page))) }
        if let cursor { items.append(("cursor", cursor.encoded)) }
        return items
    }

    /// Shortest decimal text of a number (`52.23`, not `52.230000000000004`).
    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }
}
