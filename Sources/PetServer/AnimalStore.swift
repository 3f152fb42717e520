import PetAPI
import PetSpotDomain

/// Where the server keeps its animals. Every implementation (SQLite, PostgreSQL) must pass the same
/// contract: the one `AnimalStoreContract` suite in the tests.
public protocol AnimalStore: Sendable {
    /// One page of animals for `query`.
    ///
    /// With a center: only animals within `radiusKm` (great-circle distance, the engine's own), nearest
    /// first, ties by id (as bytes), each with `distanceKm` set. Without: all animals, newest
    /// `publishedAt` first, ties by id, `distanceKm` nil, and `nextCursor` set when more follow: with a
    /// `cursor`, the page starts right after it. `totalCount` counts every match over all pages, up to
    /// the store's count cap for any listing but the whole one (``AnimalPage/totalCountIsExact``). With it, the data version
    /// read in the same snapshot: the version the page is of, which its strong `ETag` names (one tag,
    /// one body: RFC 9110 §8.8.3).
    func snapshot(matching query: AnimalQuery) async throws -> AnimalSnapshot

    /// The animal with this id (`distanceKm` nil), or why it left the listings, and the data version,
    /// all read in one snapshot.
    func lookup(id: String) async throws -> AnimalLookup

    /// Adds animals in one transaction: all of them, or none when any fails.
    /// - Throws: ``AnimalStoreError/duplicateID(index:id:)`` when an id is already stored or repeats.
    func insert(_ animals: [Animal]) async throws

    /// Applies a shelter's changes in one transaction, all or nothing: a listed pet is added, or
    /// replaces the stored one when any field differs (an unchanged one is left alone and moves no
    /// version); a withdrawn one leaves every listing and count at once, and ``withdrawal(id:)`` then
    /// says why. With `sync`, every stored pet the changes do not list is withdrawn as removed: the store
    /// becomes equal to the feed. Ids must not repeat in `changes`.
    /// - Throws: ``AnimalStoreError/invalidAnimal(index:field:message:)`` naming the first bad one.
    func apply(_ changes: [AnimalChange], sync: Bool) async throws -> ImportSummary
    /// How many animals are stored: a count the database maintains by triggers, O(1) in the number of animals.
    func count() async throws -> Int

    /// A number that changes whenever the stored animals change, whoever changes them: the database
    /// keeps it by triggers (SQLite migration v9, PostgreSQL migration 9). O(1); the server derives its
    /// `ETag`s from it.
    func dataVersion() async throws -> Int
}

/// What a shelter's feed says of one pet.
public enum AnimalChange: Sendable, Equatable {
    /// The pet as it is listed now.
    case listed(Animal)
    /// The pet is no longer offered.
    case withdrawn(id: String, Withdrawal)

    public var id: String {
        switch self {
        case .listed(let animal): animal.id
        case .withdrawn(let id, _): id
        }
    }
}

/// Why a pet is no longer offered (an imported record's `status`).
public enum Withdrawal: String, Sendable, Equatable, CaseIterable {
    case adopted, removed
}

/// What ``AnimalStore/apply(_:sync:)`` did.
public struct ImportSummary: Sendable, Equatable, CustomStringConvertible {
    public var added = 0
    public var updated = 0
    public var unchanged = 0
    /// Stored pets that left the listings (withdrawn by a record, or, with `sync`, absent from the feed).
    public var withdrawn = 0

    public init(added: Int = 0, updated: Int = 0, unchanged: Int = 0, withdrawn: Int = 0) {
        self.added = added
        self.updated = updated
        self.unchanged = unchanged
        self.withdrawn = withdrawn
    }

    public var description: String {
        "\(added) added, \(updated) updated, \(unchanged) unchanged, \(withdrawn) withdrawn"
    }
}

extension AnimalStore {
    /// One page of animals for `query` (``snapshot(matching:)`` without its version).
    public func animals(matching query: AnimalQuery) async throws -> AnimalPage {
        try await snapshot(matching: query).page
    }

    /// The animal with this id, with `distanceKm` nil; nil when there is none.
    public func animal(id: String) async throws -> Animal? {
        try await lookup(id: id).animal
    }

    /// Why the pet with this id left the listings, if it did and has not come back.
    public func withdrawal(id: String) async throws -> Withdrawal? {
        try await lookup(id: id).withdrawal
    }
}

/// One pet as a snapshot of the store has it.
public struct AnimalLookup: Sendable, Equatable {
    /// The pet, when it is listed.
    public var animal: Animal?
    /// Why it left the listings, when it did (never set together with `animal`).
    public var withdrawal: Withdrawal?
    public var dataVersion: Int

    public init(animal: Animal?, withdrawal: Withdrawal?, dataVersion: Int) {
        self.animal = animal
        self.withdrawal = withdrawal
        self.dataVersion = dataVersion
    }
}

/// A page and the data version of the snapshot it was read in.
public struct AnimalSnapshot: Sendable, Equatable {
    public var page: AnimalPage
    public var dataVersion: Int

    public init(page: AnimalPage, dataVersion: Int) {
        self.page = page
        self.dataVersion = dataVersion
    }
}

/// One page of a listing and the size of the whole result.
public struct AnimalPage: Sendable, Equatable {
    /// Where a store stops counting, unless told otherwise (`petspot serve --count-cap`).
    public static let defaultCountCap = 1_000

    public var animals: [Animal]
    /// Every match over all pages; the store's count cap when there are more (`totalCountIsExact` false).
    public var totalCount: Int
    /// False when more than `totalCount` (the cap) match: counting stopped there. The whole listing
    /// (no center, no filter) is always counted exactly, from the count the triggers keep.
    public var totalCountIsExact: Bool
    /// The listing without coordinates: where the next page starts; nil on the last page.
    public var nextCursor: AnimalCursor?

    public init(animals: [Animal], totalCount: Int, totalCountIsExact: Bool = true, nextCursor: AnimalCursor? = nil) {
        self.animals = animals
        self.totalCount = totalCount
        self.totalCountIsExact = totalCountIsExact
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
            "record \(index + 1): field id: \"\(id)\" is already taken"
        case .corruptRow(let id, let field):
            "stored pet \(id) has an unreadable \(field)"
        case .invalidAnimal(let index, let field, let message):
            "record \(index + 1): field \(field): \(message)"
        }
    }
}

extension Animal {
    /// Checks the animal as an imported or served one is checked (``AnimalDTO/toDomain()``), before a
    /// store writes it: what is stored can always be read back.
    /// - Throws: ``AnimalStoreError/invalidAnimal(index:field:message:)`` naming the first field that is wrong.
    func validateForStoring(index: Int) throws(AnimalStoreError) {
        let dto = AnimalDTO(self)
        do {
            _ = try dto.toDomain()
        } catch {
            throw .invalidAnimal(index: index, field: error.field, message: error.message)
        }
        // Every write path of both stores comes here, not only the importer's.
        if let (field, message) = TextRule.firstBreak(in: TextRule.fields(of: dto)) {
            throw .invalidAnimal(index: index, field: field, message: message)
        }
    }
}

/// Checks the id of a withdrawal before a store uses it: one a stored pet may have
/// (``AnimalID/mayNameStoredPet(_:)``) and no control character — SQLite would read `x\0zzz` as `x`
/// and withdraw that pet.
/// - Throws: ``AnimalStoreError/invalidAnimal(index:field:message:)`` naming the field `id`.
func validateWithdrawnID(_ id: String, index: Int) throws(AnimalStoreError) {
    guard AnimalID.mayNameStoredPet(id) else {
        throw .invalidAnimal(index: index, field: "id", message: AnimalID.storedLengthRule)
    }
    if let (field, message) = TextRule.firstBreak(in: [(field: "id", text: id)]) {
        throw .invalidAnimal(index: index, field: field, message: message)
    }
}

extension AnimalDTO {
    /// A stored row read back as a domain animal, checked as an imported or served animal is
    /// (``AnimalDTO/toDomain()``, the one validation of an animal's fields).
    /// - Throws: ``AnimalStoreError/corruptRow(id:field:)`` naming the first field that is wrong.
    func storedAnimal() throws(AnimalStoreError) -> Animal {
        do {
            return try toDomain(allowingOlderIDs: true)
        } catch {
            throw .corruptRow(id: id, field: error.field)
        }
    }
}
