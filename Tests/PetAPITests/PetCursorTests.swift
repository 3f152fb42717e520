import PetAPI
import Testing

@Suite struct PetCursorTests {
    @Test(arguments: [
        PetCursor(publishedAt: 1_767_225_600.123_456, id: "demo-000001"),
        PetCursor(publishedAt: -0.5, id: "ünïcødé/+=:id"),
        PetCursor(publishedAt: 0, id: "x"),
    ])
    func givenCursor_whenEncodedAndRead_thenTheSamePositionToTheLastBit(cursor: PetCursor) throws {
        let encoded = cursor.encoded
        #expect(encoded.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }, "URL-safe: \(encoded)")
        let read = try #require(PetCursor(encoded: encoded))
        #expect(read.publishedAt.bitPattern == cursor.publishedAt.bitPattern)
        #expect(read.id == cursor.id)
    }

    @Test(arguments: ["", "abc", "!!!", "bm90LWEtY3Vyc29y", String(repeating: "A", count: 401), "ZmZmMDAwMDAwMDAwMDAwMDo"])
    func givenTextThatNoPageGave_whenRead_thenNil(text: String) {
        #expect(PetCursor(encoded: text) == nil)
    }

    @Test func givenCursorWithCoordinatesOrPage_whenParsed_thenRefusedNamingCursor() throws {
        let cursor = PetCursor(publishedAt: 1, id: "a").encoded
        for parameters in [[("cursor", cursor), ("lat", "1"), ("lon", "2")], [("cursor", cursor), ("page", "2")], [("cursor", "%%")]] {
            #expect(throws: PetQueryError.self) { try PetQuery.parse(parameters.map { (name: $0.0, value: $0.1) }) }
            do {
                _ = try PetQuery.parse(parameters.map { (name: $0.0, value: $0.1) })
            } catch {
                #expect(error.parameter == "cursor")
            }
        }
        let query = try PetQuery.parse([(name: "cursor", value: cursor), (name: "limit", value: "5")])
        #expect(query.cursor == PetCursor(publishedAt: 1, id: "a"))
        #expect(query.queryItems.map(\.name) == ["limit", "cursor"])
    }
}
