/// The body of `GET /api/pets`: one page of animals and where it sits in the whole result.
public struct AnimalListResponse: Codable, Sendable, Equatable {
    public struct Pagination: Codable, Sendable, Equatable {
        public var page: Int
        public var limit: Int
        /// Animals matching the query over all pages.
        public var totalCount: Int
        /// `ceil(totalCount / limit)`; 0 when nothing matched.
        public var totalPages: Int
        /// The listing without coordinates: the `cursor` of the next page, absent on the last one.
        public var nextCursor: String?

        public init(page: Int, limit: Int, totalCount: Int, nextCursor: String? = nil) {
            self.page = page
            self.limit = limit
            self.totalCount = totalCount
            self.totalPages = limit > 0 ? (totalCount + limit - 1) / limit : 0
            self.nextCursor = nextCursor
        }
    }

    public var animals: [AnimalDTO]
    public var pagination: Pagination

    public init(animals: [AnimalDTO], pagination: Pagination) {
        self.animals = animals
        self.pagination = pagination
    }
}
