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
/// transaction. `distanceKm` in the file is ignored.
public enum AnimalImporter {
    /// Validates every record of `data`.
    /// - Throws: ``AnimalImportError`` naming the first bad record's index and field.
    public static func parse(_ data: Data) throws(AnimalImportError) -> [Animal] {
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
        var animals: [Animal] = []
        var seen: [String: Int] = [:]
        for (index, record) in records.enumerated() {
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
            if let earlier = seen[animal.id] {
                throw AnimalImportError(index: index, field: "id", message: "\"\(animal.id)\" repeats record \(earlier)")
            }
            seen[animal.id] = index
            animal.distanceKm = nil
            animals.append(animal)
        }
        return animals
    }

    /// Parses `data` and inserts all of its animals into `store` in one transaction.
    /// - Returns: how many animals were imported.
    public static func importPets(_ data: Data, into store: any AnimalStore) async throws -> Int {
        try await importPets(try parse(data), into: store)
    }

    /// Inserts already parsed animals in one transaction, naming the record whose id is taken.
    public static func importPets(_ animals: [Animal], into store: any AnimalStore) async throws -> Int {
        do {
            try await store.insert(animals)
        } catch let AnimalStoreError.duplicateID(index, id) {
            throw AnimalImportError(index: index, field: "id", message: "\"\(id)\" is already in the database")
        }
        return animals.count
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
