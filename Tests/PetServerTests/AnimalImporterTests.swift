import Foundation
import PetAPI
@testable import PetServer
import PetSpotDomain
import Testing

@Suite(.timeLimit(.minutes(1))) struct AnimalImporterTests {
    private func record(_ id: String, lat: Any = 52.23, species: Any = "dog") -> [String: Any] {
        [
            "id": id, "name": "Burek", "species": species, "breed": "Mixed Breed", "sex": "male", "ageMonths": 30,
            "description": "Friendly.", "photoURL": NSNull(), "shelter": ["name": "Paws", "city": "Warsaw"],
            "location": ["lat": lat, "lon": 21.01], "publishedAt": "2025-06-01T12:00:00Z",
        ]
    }

    private func json(_ value: Any) throws -> Data {
        try JSONSerialization.data(withJSONObject: value)
    }

    @Test func givenValidArray_whenImporting_thenAllStoredAndSearchable() async throws {
        let store = try await AnimalFixtures.sqliteStore()
        let count = try await AnimalImporter.importPets(try json([record("a"), record("b")]), into: store)
        #expect(count == ImportSummary(added: 2))
        let nearby = try await store.animals(matching: AnimalQuery(center: try GeoCoordinate(latitude: 52.23, longitude: 21.01)))
        #expect(nearby.animals.map(\.id) == ["a", "b"])
        #expect(try await store.animal(id: "a")?.publishedAt == Date(timeIntervalSince1970: 1_748_779_200))
    }

    @Test func givenTheSampleFileOfTheDocs_whenImported_thenItsPetsAreListedAndTheAdoptedOneIsNot() async throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("docs/sample-pets.json")
        let store = try await AnimalFixtures.sqliteStore()
        let summary = try await AnimalImporter.importPets(try Data(contentsOf: file), into: store)
        #expect(summary.added == 3)
        #expect(try await store.animal(id: "sample-004") == nil)
        let nearby = try await store.animals(matching: AnimalQuery(center: try GeoCoordinate(latitude: 52.23, longitude: 21.01)))
        #expect(nearby.animals.map(\.id) == ["sample-001", "sample-002"])
    }

    @Test(arguments: [
        ("id", "demo-000002\u{0}zzz", "U+0000"), ("name", "Bu\u{1}rek", "U+0001"), ("breed", "Mix\u{7F}", "U+007F"),
        ("description", "Calm.\u{0}", "U+0000"), ("description", "Calm.\u{85}", "U+0085"),
        ("photoURL", "https://example.org/a\u{0}b.jpg", "U+0000"),
    ])
    func givenAControlCharacterInATextField_whenParsing_thenTheRecordAndFieldAreNamed(field: String, text: String, code: String) throws {
        var hostile = record("b")
        hostile[field] = text
        let data = try json([record("a"), hostile])
        #expect(throws: AnimalImportError(
            index: 1, field: field, message: "holds a control character (\(code)); text fields may not"
        )) { try AnimalImporter.parse(data) }
    }

    @Test func givenShelterAndWithdrawalFields_whenTheyHoldAControlCharacter_thenTheyAreNamedToo() throws {
        var shelter = record("a")
        shelter["shelter"] = ["name": "Paws", "city": "War\u{1B}saw"]
        #expect(throws: AnimalImportError(index: 0, field: "shelter.city", message: "holds a control character (U+001B); text fields may not")) {
            try AnimalImporter.parse(try json([shelter]))
        }
        #expect(throws: AnimalImportError(index: 0, field: "id", message: "holds a control character (U+0000); text fields may not")) {
            try AnimalImporter.parse(try json([["id": "a\u{0}b", "status": "adopted"]]))
        }
    }

    @Test func givenADescriptionWithLineBreaksAndTabs_whenParsing_thenItIsKept() throws {
        var multiline = record("a")
        multiline["description"] = "Calm.\n\tLikes walks.\r\n"
        let changes = try AnimalImporter.parse(try json([multiline]))
        guard case .listed(let animal) = changes.first else { Issue.record("not listed"); return }
        #expect(animal.description == "Calm.\n\tLikes walks.\r\n")
    }

    @Test func givenAStoredPet_whenAFileNamesItWithANULAndMore_thenNothingIsImportedAndThePetIsUnchanged() async throws {
        let store = try await AnimalFixtures.sqliteStore()
        _ = try await AnimalImporter.importPets(try json([record("demo-000002")]), into: store)
        var hostile = record("demo-000002\u{0}zzz")
        hostile["name"] = "HACKED"
        await #expect(throws: AnimalImportError.self) { try await AnimalImporter.importPets(try json([hostile]), into: store) }
        #expect(try await store.animal(id: "demo-000002")?.name == "Burek")
    }

    @Test func givenListResponseBody_whenImporting_thenItsAnimalsAreStored() async throws {
        let store = try await AnimalFixtures.sqliteStore()
        let body = ["animals": [record("x")], "pagination": ["page": 1, "limit": 20, "totalCount": 1, "totalPages": 1]] as [String: Any]
        #expect(try await AnimalImporter.importPets(try json(body), into: store).added == 1)
    }

    @Test func givenOutOfRangeLatitudeInThirdRecord_whenImporting_thenErrorNamesIndexAndFieldAndNothingIsStored() async throws {
        let store = try await AnimalFixtures.sqliteStore()
        let data = try json([record("a"), record("b"), record("c", lat: 95)])
        await #expect(throws: AnimalImportError(index: 2, field: "location.lat", message: "must be a finite number between -90 and 90")) {
            _ = try await AnimalImporter.importPets(data, into: store)
        }
        #expect(try await store.count() == 0)
    }

    @Test func givenABadThirdRecord_whenItsErrorIsPrinted_thenItIsRecordThreeCountingFromOne() {
        let error = AnimalImportError(index: 2, field: "location.lat", message: "must be a finite number between -90 and 90")
        #expect(error.description == "record 3: field location.lat: must be a finite number between -90 and 90")
        #expect(AnimalImportError(index: 0, field: nil, message: "x").description == "record 1: x")
    }

    @Test func givenMissingField_whenParsing_thenErrorNamesIt() throws {
        var broken = record("a")
        broken["shelter"] = ["name": "Paws"]
        #expect(throws: AnimalImportError(index: 1, field: "shelter.city", message: "is missing")) {
            try AnimalImporter.parse(try json([record("ok"), broken]))
        }
    }

    @Test func givenWrongType_whenParsing_thenErrorNamesField() throws {
        #expect(throws: AnimalImportError(index: 0, field: "location.lat", message: "must be a number")) {
            try AnimalImporter.parse(try json([record("a", lat: "north")]))
        }
    }

    @Test func givenUnknownSpecies_whenParsing_thenErrorNamesSpecies() throws {
        let data = try json([record("a", species: "dragon")])
        do {
            _ = try AnimalImporter.parse(data)
            Issue.record("expected an error")
        } catch {
            #expect(error.index == 0)
            #expect(error.field == "species")
        }
    }

    @Test func givenIdRepeatedInFile_whenParsing_thenSecondOccurrenceIsNamed() throws {
        #expect(throws: AnimalImportError(index: 2, field: "id", message: "\"a\" repeats record 1")) {
            try AnimalImporter.parse(try json([record("a"), record("b"), record("a")]))
        }
    }

    /// Ids are counted in Unicode scalars, as a cursor counts them: `e` + U+0301 a hundred times (100
    /// characters) was once taken, and the listing's `nextCursor` for it then refused.
    @Test func givenIdsCountedInScalars_whenParsing_then128AreTakenAnd129RefusedNamingRecordAndField() throws {
        let longest = String(repeating: "e\u{301}", count: 64)
        #expect(longest.count == 64 && longest.unicodeScalars.count == 128)
        let ids = [longest, String(repeating: "ß", count: 128), String(repeating: "🐶", count: 128)]
        let taken = try AnimalImporter.parse(try json([record(ids[0]), ["id": ids[1], "status": "adopted"], record(ids[2])])).map(\.id)
        #expect(taken.map { Array($0.utf8) } == ids.map { Array($0.utf8) })
        #expect(throws: AnimalImportError(index: 1, field: "id", message: AnimalID.lengthRule)) {
            try AnimalImporter.parse(try json([record("a"), record(longest + "e")]))
        }
        // A withdrawal may name a pet stored under the older rule (100 characters, 200 scalars), and
        // no longer one.
        let older = String(repeating: "e\u{301}", count: 100)
        #expect(try AnimalImporter.parse(try json([["id": older, "status": "removed"]])).map { Array($0.id.utf8) } == [Array(older.utf8)])
        #expect(throws: AnimalImportError(index: 1, field: "id", message: AnimalID.storedLengthRule)) {
            try AnimalImporter.parse(try json([record("a"), ["id": String(repeating: "e\u{301}", count: 129), "status": "removed"]]))
        }
    }

    @Test func givenIdAlreadyInDatabase_whenImporting_thenTheRecordReplacesTheStoredPet() async throws {
        let store = try await AnimalFixtures.sqliteStore([try AnimalFixtures.animal("taken", lat: 1, lon: 1)])
        let summary = try await AnimalImporter.importPets(try json([record("fresh"), record("taken")]), into: store)
        #expect(summary == ImportSummary(added: 1, updated: 1))
        #expect(try await store.count() == 2)
        #expect(try await store.animal(id: "taken")?.location.latitude == 52.23)
    }

    @Test func givenOnePageOfAListingOrNothing_whenCheckedAsAWholeFeed_thenRefused() throws {
        let page = ["animals": [record("x")], "pagination": ["page": 1, "limit": 1, "totalCount": 500, "totalPages": 500]] as [String: Any]
        #expect(throws: AnimalImportError.self) { try AnimalImporter.checkWholeFeed(try json(page), records: 1) }
        #expect(throws: AnimalImportError.self) { try AnimalImporter.checkWholeFeed(try json([Any]()), records: 0) }
        // A page of a capped count: how many there are is not known, so it is never the whole feed.
        let capped = ["animals": [record("x")], "pagination": ["page": 1, "limit": 20, "totalCount": 1, "totalCountIsExact": false, "totalPages": 1]] as [String: Any]
        #expect(throws: AnimalImportError.self) { try AnimalImporter.checkWholeFeed(try json(capped), records: 1) }
        let whole = ["animals": [record("x")], "pagination": ["page": 1, "limit": 20, "totalCount": 1, "totalPages": 1]] as [String: Any]
        try AnimalImporter.checkWholeFeed(try json(whole), records: 1)
        try AnimalImporter.checkWholeFeed(try json([record("x"), record("y")]), records: 2)
    }

    @Test func givenRecordsWithAStatus_whenParsed_thenAdoptedAndRemovedWithdrawByIdAlone() throws {
        let changes = try AnimalImporter.parse(try json([
            record("kept"), ["id": "gone", "status": "adopted"], ["id": "away", "status": "removed", "name": 5],
            record("listed").merging(["status": "available"]) { $1 },
        ]))
        #expect(changes.map(\.id) == ["kept", "gone", "away", "listed"])
        #expect(changes[1] == .withdrawn(id: "gone", .adopted))
        #expect(changes[2] == .withdrawn(id: "away", .removed))
    }

    @Test(arguments: [
        (#"{"id": "x", "status": "sold"}"#, "status"), (#"{"id": "x", "status": 1}"#, "status"),
        (#"{"status": "adopted"}"#, "id"), (#"{"id": "", "status": "adopted"}"#, "id"), (#"{"id": 7, "status": "removed"}"#, "id"),
    ])
    func givenABadStatusRecord_whenParsed_thenTheErrorNamesRecordAndField(_ bad: String, _ field: String) throws {
        let badRecord = try JSONSerialization.jsonObject(with: Data(bad.utf8))
        let data = try json([record("ok"), badRecord])
        do {
            _ = try AnimalImporter.parse(data)
            Issue.record("expected an error")
        } catch {
            #expect(error.index == 1)
            #expect(error.field == field)
        }
    }

    @Test(arguments: ["not json", "{\"pets\": []}", "42"])
    func givenFileThatIsNotAnArrayOfAnimals_whenParsing_thenWholeFileErrorWithoutIndex(_ text: String) {
        do {
            _ = try AnimalImporter.parse(Data(text.utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.index == nil)
        }
    }

    @Test func givenExportedListing_whenImportedIntoAnotherDatabase_thenAnimalsAreEqual() async throws {
        let source = try await AnimalFixtures.sqliteStore(DemoPetGenerator().animals(count: 30))
        let page = try await source.animals(matching: AnimalQuery(limit: 100))
        let body = AnimalListResponse(animals: page.animals.map(AnimalDTO.init), pagination: .init(page: 1, limit: 100, totalCount: 30))
        let target = try await AnimalFixtures.sqliteStore()
        #expect(try await AnimalImporter.importPets(try PetAPICoding.makeEncoder().encode(body), into: target).added == 30)
        #expect(try await target.animals(matching: AnimalQuery(limit: 100)) == page)
    }

    @Test(arguments: [
        ("42", nil, nil, "expected a JSON array of animals or an object with an \"animals\" array"),
        ("{\"pets\": []}", nil, nil, "expected a JSON array of animals or an object with an \"animals\" array"),
        ("[1]", 0, nil, "must be a JSON object"),
        ("[{\"id\": \"x\", \"status\": \"adopted\"}, {\"status\": 3}]", 1, "status", "must be available, adopted or removed"),
        ("{\"animals\": [{\"status\": \"removed\"}]}", 0, "id", "is missing (a withdrawn pet is named by its id)"),
        ("[{\"id\": \"\", \"status\": \"adopted\"}]", 0, "id", AnimalID.storedLengthRule),
    ] as [(String, Int?, String?, String)])
    func givenAFileOfTheWrongShape_whenParsing_thenTheRecordAndFieldAreNamed(
        _ text: String, _ index: Int?, _ field: String?, _ message: String
    ) {
        #expect(throws: AnimalImportError(index: index, field: field, message: message)) {
            try AnimalImporter.parse(Data(text.utf8))
        }
    }

    @Test(arguments: [
        ("[{\"id\": ", 0, "id", "not valid JSON at line 1, column 9: the text ends where a value should start"),
        ("[\n  {\"id\": \"a\"}\n  {\"id\": \"b\"}\n]", nil, nil, "not valid JSON at line 3, column 3: expected ',' or ']' in the array"),
        ("[{\"id\": \"a\", \"id\": \"b\"}]", 0, nil, "duplicate key `id` (line 1, column 14)"),
        ("{\"animals\": [{}, {\"ageMonths\": NaN}]}", 1, "ageMonths", "not valid JSON at line 1, column 32: expected a value (an object, array, string, number, true, false or null)"),
        ("[{\"location\": {\"lat\": 1e309}}]", 0, "location.lat", "not valid JSON at line 1, column 23: the number 1e309 is out of range (no 64-bit floating-point number holds it)"),
        ("   \n", nil, nil, "the file is empty; expected a JSON array of animals or an object with an \"animals\" array"),
    ] as [(String, Int?, String?, String)])
    func givenAFileThatIsNotValidJSON_whenParsing_thenTheErrorSaysWhere(_ text: String, _ index: Int?, _ field: String?, _ message: String) {
        #expect(throws: AnimalImportError(index: index, field: field, message: message)) {
            try AnimalImporter.parse(Data(text.utf8))
        }
    }

    @Test func givenInvalidUTF8InAName_whenParsing_thenTheRecordAndFieldAreNamed() throws {
        var data = try json([record("a")])
        data.removeLast()
        data.append(Data(#",{"id":"b","name":"caf"#.utf8))
        data.append(contentsOf: [0xC3, 0x28])
        data.append(Data(#""}]"#.utf8))
        #expect(throws: AnimalImportError(index: 1, field: "name", message: "not valid JSON at line 1, column \(data.count - 4): invalid UTF-8 (byte \(data.count - 5) of the file)")) {
            try AnimalImporter.parse(data)
        }
    }

    @Test(arguments: [
        ("ageMonths", "1.5", "must be a whole number of months, not 1.5"),
        ("ageMonths", "1e30", "must be between 0 and 600, not 1e+30"),
        ("ageMonths", "600.5", "must be a whole number of months, not 600.5"),
        ("publishedAt", "\"yesterday\"", "must be an ISO-8601 date-time such as 2024-05-01T12:00:00Z, not \"yesterday\""),
    ])
    func givenAValueFoundationReportsWithoutItsField_whenParsing_thenTheRecordAndFieldAreNamed(field: String, value: String, message: String) throws {
        var bad = record("b")
        bad[field] = "the-value"
        let text = String(decoding: try json([record("a"), bad]), as: UTF8.self).replacingOccurrences(of: "\"the-value\"", with: value)
        #expect(throws: AnimalImportError(index: 1, field: field, message: message)) {
            try AnimalImporter.parse(Data(text.utf8))
        }
    }

    @Test func givenFieldsNoAnimalHas_whenParsing_thenEachIsListedOnceAndTheRecordsImported() throws {
        var first = record("a"), second = record("b")
        first["colour"] = "red"
        second["colour"] = "black"
        second["location"] = ["lat": 52.0, "lon": 21.0, "alt": 100]
        second["shelter"] = ["name": "Paws", "city": "Warsaw", "phone": "123"]
        let feed = try AnimalImporter.parseFeed(try json(["animals": [first, second], "pagination": ["page": 1], "links": []]))
        #expect(feed.changes.count == 2)
        #expect(feed.ignoredFields == ["$.links", "colour", "location.alt", "shelter.phone"])
    }

    @Test func givenAnAnimalWithEveryField_whenEncoded_thenItsKeysAreTheOnesTheImporterKnows() throws {
        var dto = AnimalDTO(try #require(DemoPetGenerator().animals(count: 1).first))
        dto.photoURL = "https://example.org/a.jpg"
        dto.distanceKm = 1
        let object = try #require(JSONSerialization.jsonObject(with: PetAPICoding.makeEncoder().encode(dto)) as? [String: Any])
        var keys: [String: Set<String>] = ["": Set(object.keys).union(["status"])]
        for (key, value) in object {
            if let nested = value as? [String: Any] { keys[key] = Set(nested.keys) }
        }
        #expect(keys == AnimalImporter.UnknownFields.known)
    }

    @Test func givenAFileWithAUTF8ByteOrderMark_whenParsing_thenItsRecordsAreRead() throws {
        let data = Data([0xEF, 0xBB, 0xBF]) + (try json([record("a")]))
        #expect(try AnimalImporter.parse(data).count == 1)
    }

    @Test(arguments: [#"\uD83D"#, #"\uDE00"#, #"\uD83Dx\uDE00"#, #"\uD83D\u0041"#])
    func givenALoneSurrogateEscape_whenParsing_thenTheRecordAndFieldAreNamed(escape: String) throws {
        let text = String(decoding: try json([record("a")]), as: UTF8.self).replacingOccurrences(of: "Burek", with: "Bu" + escape)
        do {
            _ = try AnimalImporter.parse(Data(text.utf8))
            Issue.record("accepted \(escape)")
        } catch {
            #expect(error.index == 0 && error.field == "name", "\(error)")
            #expect(error.message.contains("surrogate"), "\(error)")
        }
    }
}
