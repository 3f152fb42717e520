import Foundation
import PetAPI
import PetSpotDomain

/// Why an import file was refused. Nothing is imported when this is thrown.
public struct AnimalImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Position of the bad record in the file's array; nil when the file as a whole is wrong.
    public var index: Int?
    /// The JSON field at fault, e.g. `location.lat`; nil when the whole record or file is wrong.
    public var field: String?
    public var message: String

    public init(index: Int?, field: String?, message: String) {
        self.index = index
        self.field = field
        self.message = message
    }

    public var description: String {
        switch (index, field) {
        case let (index?, field?): "record \(index): field \(field): \(message)"
        case let (index?, nil): "record \(index): \(message)"
        default: message
        }
    }
}

/// Loads animals given in the API's animal shape: a JSON array of animals, or a `GET /api/pets` body
/// (`{"animals": [...]}`). Every record is checked before anything is written, and the write is one
/// transaction. `distanceKm` in the file is ignored. A record may carry `status`: `available` (the
/// default) lists the pet; `adopted` or `removed` withdraws it, and then only its `id` is read.
public enum AnimalImporter {
    /// Validates every record of `data`.
    /// - Throws: ``AnimalImportError`` naming the first bad record's index and field.
    public static func parse(_ data: Data) throws(AnimalImportError) -> [AnimalChange] {
        let records: [Any]
        do {
            let json = try JSONSerialization.jsonObject(with: data)
            if let array = json as? [Any] {
                records = array
            } else if let object = json as? [String: Any], let array = object["animals"] as? [Any] {
                records = array
            } else {
                throw AnimalImportError(index: nil, field: nil, message: "expected a JSON array of animals or an object with an \"animals\" array")
            }
        } catch let error as AnimalImportError {
            throw error
        } catch {
            throw AnimalImportError(index: nil, field: nil, message: "the file is not valid JSON (\(error.localizedDescription))")
        }
        let decoder = PetAPICoding.makeDecoder()
        var changes: [AnimalChange] = []
        var seen: [String: Int] = [:]
        func firstSighting(_ id: String, at index: Int) throws(AnimalImportError) {
            if let earlier = seen[id] {
                throw AnimalImportError(index: index, field: "id", message: "\"\(id)\" repeats record \(earlier)")
            }
            seen[id] = index
        }
        for (index, record) in records.enumerated() {
            if let withdrawal = try withdrawal(record, index: index) {
                try firstSighting(withdrawal.id, at: index)
                changes.append(.withdrawn(id: withdrawal.id, withdrawal.why))
                continue
            }
            let dto: AnimalDTO
            do {
                let recordData = try JSONSerialization.data(withJSONObject: record, options: [.fragmentsAllowed])
                dto = try decoder.decode(AnimalDTO.self, from: recordData)
            } catch let error as DecodingError {
                let (field, message) = describe(error)
                throw AnimalImportError(index: index, field: field, message: message)
            } catch {
                throw AnimalImportError(index: index, field: nil, message: "unreadable record")
            }
            var animal: Animal
            do {
                animal = try dto.toDomain()
            } catch {
                throw AnimalImportError(index: index, field: error.field, message: error.message)
            }
            try firstSighting(animal.id, at: index)
            animal.distanceKm = nil
            changes.append(.listed(animal))
        }
        return changes
    }

    /// A record whose `status` withdraws its pet: its id and why; nil for a listed one.
    private static func withdrawal(_ record: Any, index: Int) throws(AnimalImportError) -> (id: String, why: Withdrawal)? {
        guard let fields = record as? [String: Any], let status = fields["status"] else { return nil }
        guard let text = status as? String, text == "available" || Withdrawal(rawValue: text) != nil else {
            throw AnimalImportError(index: index, field: "status", message: "must be available, adopted or removed")
        }
        guard let why = Withdrawal(rawValue: text) else { return nil }
        guard let value = fields["id"] else {
            throw AnimalImportError(index: index, field: "id", message: "is missing (a withdrawn pet is named by its id)")
        }
        // The rule of a listed pet's id (AnimalDTO.toDomain()).
        guard let id = value as? String else { throw AnimalImportError(index: index, field: "id", message: "must be a string") }
        guard !id.isEmpty, id.count <= 128 else {
            throw AnimalImportError(index: index, field: "id", message: "must be 1 to 128 characters")
        }
        return (id, why)
    }

    /// Refuses, for `--sync`, a file that cannot be a shelter's whole feed: one page of a listing (its
    /// `pagination.totalCount` says more pets exist than it holds), or no record at all — either would
    /// remove pets the shelter still offers.
    public static func checkWholeFeed(_ data: Data, records: Int) throws(AnimalImportError) {
        guard records > 0 else {
            throw AnimalImportError(index: nil, field: nil, message: "an empty feed would remove every pet; --sync refuses it")
        }
        let body = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        if let pagination = body?["pagination"] as? [String: Any], let total = pagination["totalCount"] as? Int, total > records {
            throw AnimalImportError(
                index: nil, field: "pagination.totalCount",
                message: "the file is one page of a listing (\(records) of \(total) pets); --sync needs the whole feed"
            )
        }
    }

    /// Parses `data` and applies its records to `store` in one transaction (see ``importPets(_:into:sync:)``).
    public static func importPets(_ data: Data, into store: any AnimalStore, sync: Bool = false) async throws -> ImportSummary {
        try await importPets(try parse(data), into: store, sync: sync)
    }

    /// Applies parsed records in one transaction: listed pets are added or replace the stored ones,
    /// withdrawn ones leave the listings; with `sync` every stored pet the file does not name leaves too.
    public static func importPets(_ changes: [AnimalChange], into store: any AnimalStore, sync: Bool = false) async throws -> ImportSummary {
        do {
            return try await store.apply(changes, sync: sync)
        } catch let AnimalStoreError.invalidAnimal(index, field, message) {
            throw AnimalImportError(index: index, field: field, message: message)
        }
    }

    private static func describe(_ error: DecodingError) -> (field: String?, message: String) {
        func path(_ codingPath: [any CodingKey], _ key: (any CodingKey)? = nil) -> String? {
            let path = JSONPath(codingPath: codingPath + (key.map { [$0] } ?? []))
            return path.components.isEmpty ? nil : path.relativeDescription
        }
        switch error {
        case .keyNotFound(let key, let context):
            return (path(context.codingPath, key), "is missing")
        case .typeMismatch(let type, let context):
            return (path(context.codingPath), "must be \(typeName(type))")
        case .valueNotFound(let type, let context):
            return (path(context.codingPath), "must be \(typeName(type)), not null")
        case .dataCorrupted(let context):
            return (path(context.codingPath), context.debugDescription)
        @unknown default:
            return (nil, "unreadable record")
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        case is Date.Type: "an ISO-8601 date-time"
        default: "a JSON object"
        }
    }
}
