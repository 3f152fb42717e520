/// The body of `GET /api/pets`: one page of animals and where it sits in the whole result.
public struct AnimalListResponse: Codable, Sendable, Equatable {
    public struct Pagination: Codable, Sendable, Equatable {
        public var page: Int
        public var limit: Int
        /// Animals matching the query over all pages, up to the server's count cap.
        public var totalCount: Int
        /// False when more animals match than `totalCount`, where the server stopped counting.
        /// A server from before the field sends none: its counts were exact.
        public var totalCountIsExact: Bool
        /// `ceil(totalCount / limit)`; 0 when nothing matched.
        public var totalPages: Int
        /// The listing without coordinates: the `cursor` of the next page, absent on the last one.
        public var nextCursor: String?

        public init(page: Int, limit: Int, totalCount: Int, totalCountIsExact: Bool = true, nextCursor: String? = nil) {
            self.page = page
            self.limit = limit
            self.totalCount = totalCount
            self.totalCountIsExact = totalCountIsExact
            self.totalPages = limit > 0 ? (totalCount + limit - 1) / limit : 0
            self.nextCursor = nextCursor
        }

        private enum CodingKeys: String, CodingKey {
            case page, limit, totalCount, totalCountIsExact, totalPages, nextCursor
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            page = try container.decode(Int.self, forKey: .page)
            limit = try container.decode(Int.self, forKey: .limit)
            totalCount = try container.decode(Int.self, forKey: .totalCount)
            totalCountIsExact = try container.decodeIfPresent(Bool.self, forKey: .totalCountIsExact) ?? true
            totalPages = try container.decode(Int.self, forKey: .totalPages)
            nextCursor = try container.decodeIfPresent(String.self, forKey: .nextCursor)
        }
    }

    public var animals: [AnimalDTO]
    public var pagination: Pagination

    public init(animals: [AnimalDTO], pagination: Pagination) {
        self.animals = animals
        self.pagination = pagination
    }
}
