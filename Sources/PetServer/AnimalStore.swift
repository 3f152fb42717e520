import PetAPI
import PetSpotDomain

/// Where the server keeps its animals. Every implementation (SQLite, PostgreSQL) must pass the same
/// contract: the one `AnimalStoreContract` suite in the tests.
public protocol AnimalStore: Sendable {
    /// One page of animals for `query`.
    ///
    /// With a center: only animals within `radiusKm` (great-circle distance, ``GreatCircle``), nearest
    /// first, ties by id, each with `distanceKm` set. Without: all animals, newest `publishedAt` first,
    /// ties by id, `distanceKm` nil, and `nextCursor` set when more follow: with a `cursor`, the page
    /// starts right after it. `totalCount` counts every match over all pages.
    func animals(matching query: AnimalQuery) async throws -> AnimalPage

    /// The animal with this id, with `distanceKm` nil; nil when there is none.
    func animal(id: String) async throws -> Animal?

    /// Adds animals in one transaction: all of them, or none when any fails.
    /// - Throws: ``AnimalStoreError/duplicateID(index:id:)`` when an id is already stored or repeats.
    func insert(_ animals: [Animal]) async throws

    /// How many animals are stored: a count the database maintains by triggers, O(1) in the number of animals.
    func count() async throws -> Int

    /// A number that changes whenever the stored animals change, whoever changes them: the database
    /// keeps it by triggers (SQLite migration v6, PostgreSQL migration 5). O(1); the server derives its
    /// `ETag`s from it.
    func dataVersion() async throws -> Int
}

/// One page of a listing and the size of the whole result.
public struct AnimalPage: Sendable, Equatable {
    public var animals: [Animal]
    public var totalCount: Int
    /// The listing without coordinates: where the next page starts; nil on the last page.
    public var nextCursor: AnimalCursor?

    public init(animals: [Animal], totalCount: Int, nextCursor: AnimalCursor? = nil) {
        self.animals = animals
        self.totalCount = totalCount
        self.nextCursor = nextCursor
    }
}

/// Errors a ``AnimalStore`` reports in terms of the data, not of the database engine.
public enum AnimalStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// `animals[index]` has an id that is already stored (or appears earlier in the same batch).
    case duplicateID(index: Int, id: String)
    /// A stored row could not be read back as an animal.
    case corruptRow(id: String, field: String)
    /// `animals[index]` breaks a rule of an animal's fields (``AnimalDTO/toDomain()``): nothing is stored.
    case invalidAnimal(index: Int, field: String, message: String)

    public var description: String {
        switch self {
        case .duplicateID(let index, let id):
            "record \(index): field id: \"\(id)\" is already taken"
        case .corruptRow(let id, let field):
            "stored pet \(id) has an unreadable \(field)"
        case .invalidAnimal(let index, let field, let message):
            "record \(index): field \(field): \(message)"
        }
    }
}

extension Animal {
    /// Checks the animal as an imported or served one is checked (``AnimalDTO/toDomain()``), before a
    /// store writes it: what is stored can always be read back.
    /// - Throws: ``AnimalStoreError/invalidAnimal(index:field:message:)`` naming the first field that is wrong.
    func validateForStoring(index: Int) throws(AnimalStoreError) {
        do {
            _ = try AnimalDTO(self).toDomain()
        } catch {
            throw .invalidAnimal(index: index, field: error.field, message: error.message)
        }
    }
}

extension AnimalDTO {
    /// A stored row read back as a domain animal, checked as an imported or served animal is
    /// (``AnimalDTO/toDomain()``, the one validation of an animal's fields).
    /// - Throws: ``AnimalStoreError/corruptRow(id:field:)`` naming the first field that is wrong.
    func storedAnimal() throws(AnimalStoreError) -> Animal {
        do {
            return try toDomain()
        } catch {
            throw .corruptRow(id: id, field: error.field)
        }
    }
}
