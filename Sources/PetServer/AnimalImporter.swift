import Foundation
import PetAPI
import PetSpotDomain

/// Why an import file was refused. Nothing is imported when this is thrown.
public struct AnimalImportError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Position of the bad record in the file's array, from 0; nil when the file as a whole is wrong.
    /// What a person reads counts records from 1 (``description``).
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
        case let (index?, field?): "record \(index + 1): field \(field): \(message)"
        case let (index?, nil): "record \(index + 1): \(message)"
        default: message
        }
    }
}

/// Loads animals given in the API's animal shape: a JSON array of animals, or a `GET /api/pets` body
/// (`{"animals": [...]}`). Every record is checked before anything is written, and the write is one
/// transaction. `distanceKm` in the file is ignored. A record may carry `status`: `available` (the
/// default) lists the pet; `adopted` or `removed` withdraws it, and then only its `id` is read.
public enum AnimalImporter {
    /// Validates every record of `data`: first that each decodes, then that each keeps the field rules
    /// and no id repeats.
    /// - Throws: ``AnimalImportError`` naming a bad record's index and field: the first that does not
    ///   decode, or else the first that breaks a rule.
    public static func parse(_ data: Data) throws(AnimalImportError) -> [AnimalChange] {
        try parseFeed(data).changes
    }

    /// A file's records, and the fields it gives that no animal has (ignored).
    public struct ParsedFeed: Sendable {
        public var changes: [AnimalChange]
        /// Paths within a record (`colour`, `location.alt`), sorted, each once however many records give it.
        public var ignoredFields: [String]
    }

    /// ``parse(_:)``, with the fields the file gives that no animal has.
    public static func parseFeed(_ data: Data) throws(AnimalImportError) -> ParsedFeed {
        // One pass of the decoder over the whole file: decoding each record again from a parsed tree
        // cost a million-pet file minutes.
        // First one linear pass that names what Foundation's decoder would not: a syntax error's line and
        // column, invalid UTF-8, a key given twice, a number out of range — each with its record and
        // field — and the fields no record has.
        var unknown = UnknownFields()
        // JSON's whitespace: space, tab, line feed, carriage return.
        guard data.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
            throw AnimalImportError(index: nil, field: nil, message: "the file is empty; expected a JSON array of animals or an object with an \"animals\" array")
        }
        do {
            try JSONSyntax.check(data) { parent, key in unknown.see(key, in: parent) }
        } catch {
            throw importError(error)
        }
        let records: [ImportRecord]
        do {
            records = try PetAPICoding.makeDecoder().decode(ImportFile.self, from: data).records
        } catch let error as DecodingError {
            throw importError(error)
        } catch {
            throw AnimalImportError(index: nil, field: nil, message: "unreadable file (\(error.localizedDescription))")
        }
        var changes: [AnimalChange] = []
        changes.reserveCapacity(records.count)
        // Keyed by the id's bytes: Swift's `String` equality is canonical equivalence, so "é" and
        // "e" + U+0301 would meet as one key, though the stores keep them as two pets.
        var seen: [[UInt8]: Int] = [:]
        func firstSighting(_ id: String, at index: Int) throws(AnimalImportError) {
            let bytes = Array(id.utf8)
            if let earlier = seen[bytes] {
                throw AnimalImportError(index: index, field: "id", message: "\"\(id)\" repeats record \(earlier + 1)")
            }
            seen[bytes] = index
        }
        for (index, record) in records.enumerated() {
            switch record {
            case .withdrawn(let id, let why):
                try refuseControlCharacters(in: [("id", id)], at: index)
                try firstSighting(id, at: index)
                changes.append(.withdrawn(id: id, why))
            case .listed(let dto):
                try refuseControlCharacters(in: TextRule.fields(of: dto), at: index)
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
        }
        return ParsedFeed(changes: changes, ignoredFields: unknown.paths.sorted())
    }

    /// The error of a syntax error: its record and field when it is inside one.
    private static func importError(_ error: JSONSyntaxError) -> AnimalImportError {
        var components = error.path.components[...]
        if case .key("animals")? = components.first { components = components.dropFirst() }
        guard case .index(let index)? = components.first else {
            return AnimalImportError(index: nil, field: nil, message: error.message)
        }
        let field = JSONPath(components: Array(components.dropFirst())).relativeDescription
        return AnimalImportError(index: index, field: field.isEmpty ? nil : field, message: error.message)
    }

    /// The keys of the records, their shelters and locations that no field of an animal has, as paths
    /// within a record (`colour`, `location.alt`), and those of the file's own object besides `animals`
    /// and `pagination` (`$.links`): they are ignored, and the summary lists them once.
    struct UnknownFields {
        /// The API's animal (``AnimalDTO``) and `status`; a test holds it to what `AnimalDTO` encodes.
        static let known: [String: Set<String>] = [
            "": ["id", "name", "species", "breed", "sex", "ageMonths", "description", "photoURL", "shelter",
                 "location", "publishedAt", "distanceKm", "status"],
            "shelter": ["name", "city"],
            "location": ["lat", "lon"],
        ]

        private(set) var paths: Set<String> = []

        mutating func see(_ key: String, in parent: [JSONPath.Component]) {
            // The file's own object: `animals` and a listing's `pagination` are read, nothing else.
            if parent.isEmpty {
                if key != "animals", key != "pagination" { paths.insert("$." + key) }
                return
            }
            var components = parent[...]
            if case .key("animals")? = components.first { components = components.dropFirst() }
            guard case .index? = components.first else { return }
            let within: String
            switch components.count {
            case 1: within = ""
            case 2: if case .key(let object) = components.last { within = object } else { return }
            default: return
            }
            guard let known = Self.known[within], !known.contains(key) else { return }
            paths.insert(within.isEmpty ? key : within + "." + key)
        }
    }

    /// Refuses a text field holding a control character (`TextRule`), naming the record and field.
    private static func refuseControlCharacters(
        in fields: [(field: String, text: String)], at index: Int
    ) throws(AnimalImportError) {
        if let (field, message) = TextRule.firstBreak(in: fields) {
            throw AnimalImportError(index: index, field: field, message: message)
        }
    }

    /// The file: an array of records, or an object whose `animals` is one (a `GET /api/pets` body).
    private struct ImportFile: Decodable {
        var records: [ImportRecord]

        private enum Keys: String, CodingKey { case animals }

        init(from decoder: any Decoder) throws {
            if let object = try? decoder.container(keyedBy: Keys.self) {
                guard object.contains(.animals) else {
                    throw DecodingError.typeMismatch([ImportRecord].self, .init(codingPath: [], debugDescription: "no animals"))
                }
                records = try object.decode([ImportRecord].self, forKey: .animals)
            } else {
                records = try [ImportRecord](from: decoder)
            }
        }
    }

    /// One record: a listed pet, or one its `status` withdraws (then only its `id` is read).
    private enum ImportRecord: Decodable {
        case listed(AnimalDTO)
        case withdrawn(id: String, Withdrawal)

        private enum Keys: String, CodingKey { case status, id, ageMonths, publishedAt }

        init(from decoder: any Decoder) throws {
            let fields = try decoder.container(keyedBy: Keys.self)
            func refuse(_ key: Keys, _ message: String) -> DecodingError {
                .dataCorrupted(.init(codingPath: fields.codingPath + [key], debugDescription: message))
            }
            if fields.contains(.status) {
                let status = try? fields.decode(String.self, forKey: .status)
                guard let status, status == "available" || Withdrawal(rawValue: status) != nil else {
                    throw refuse(.status, "must be available, adopted or removed")
                }
                if let why = Withdrawal(rawValue: status) {
                    guard fields.contains(.id) else { throw refuse(.id, "is missing (a withdrawn pet is named by its id)") }
                    guard let id = try? fields.decode(String.self, forKey: .id) else { throw refuse(.id, "must be a string") }
                    // Any id a stored pet may have, one stored under the older rule too (AnimalID).
                    guard AnimalID.mayNameStoredPet(id) else { throw refuse(.id, AnimalID.storedLengthRule) }
                    self = .withdrawn(id: id, why)
                    return
                }
            }
            do {
                self = .listed(try AnimalDTO(from: decoder))
            } catch {
                // Foundation's decoder reports these two without the field they are in; looked at only
                // once a record fails, so that a good file pays nothing for it.
                if fields.contains(.ageMonths), (try? fields.decode(Int.self, forKey: .ageMonths)) == nil,
                   let number = try? fields.decode(Double.self, forKey: .ageMonths) {
                    throw refuse(.ageMonths, number.rounded() == number
                        ? "must be between 0 and 600, not \(number)" : "must be a whole number of months, not \(number)")
                }
                if fields.contains(.publishedAt), (try? fields.decode(Date.self, forKey: .publishedAt)) == nil,
                   let text = try? fields.decode(String.self, forKey: .publishedAt) {
                    throw refuse(.publishedAt, "must be an ISO-8601 date-time such as 2024-05-01T12:00:00Z, not \"\(text.prefix(40))\"")
                }
                throw error
            }
        }
    }

    /// The error of a decoding failure: the record by its position in the array, the field by its
    /// path inside the record.
    private static func importError(_ error: DecodingError) -> AnimalImportError {
        let context: DecodingError.Context? = switch error {
        case .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context
        @unknown default:
            nil
        }
        let path = context?.codingPath ?? []
        guard let position = path.firstIndex(where: { $0.intValue != nil }), let index = path[position].intValue else {
            if case .dataCorrupted(let context) = error, path.isEmpty {
                // Foundation's decoder on Linux gives no position; Apple's underlying error does.
                let cause = context.underlyingError.map { " (\(String(describing: $0)))" } ?? ""
                return AnimalImportError(index: nil, field: nil, message: "the file is not valid JSON\(cause)")
            }
            return AnimalImportError(index: nil, field: nil, message: "expected a JSON array of animals or an object with an \"animals\" array")
        }
        let (field, message) = describe(error, dropping: position + 1)
        return AnimalImportError(index: index, field: field, message: message)
    }

    /// Refuses, for `--sync`, a file that cannot be a shelter's whole feed: one page of a listing (its
    /// `pagination.totalCount` says more pets exist than it holds), or no record at all — either would
    /// remove pets the shelter still offers.
    public static func checkWholeFeed(_ data: Data, records: Int) throws(AnimalImportError) {
        guard records > 0 else {
            throw AnimalImportError(index: nil, field: nil, message: "an empty feed would remove every pet; --sync refuses it")
        }
        let body = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        if let pagination = body?["pagination"] as? [String: Any], pagination["totalCountIsExact"] as? Bool == false {
            throw AnimalImportError(
                index: nil, field: "pagination.totalCountIsExact",
                message: "the file is one page of a listing whose count was capped; --sync needs the whole feed"
            )
        }
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

    /// The field (its path after the first `dropping` components: the record's own) and what is wrong.
    private static func describe(_ error: DecodingError, dropping: Int) -> (field: String?, message: String) {
        func path(_ codingPath: [any CodingKey], _ key: (any CodingKey)? = nil) -> String? {
            let path = JSONPath(codingPath: Array((codingPath + (key.map { [$0] } ?? [])).dropFirst(dropping)))
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
