import PetAPI
import Testing

@Suite struct AnimalCursorTests {
    @Test(arguments: [
        AnimalCursor(publishedAt: 1_767_225_600.123_456, id: "demo-000001"),
        AnimalCursor(publishedAt: -0.000_012_5, id: "ünïcødé/+=~id"),
        AnimalCursor(publishedAt: 0, id: "x"),
        AnimalCursor(publishedAt: 1e99, id: "far"),
        AnimalCursor(publishedAt: -1.25e-05, id: "tiny"),
        AnimalCursor(publishedAt: 9.091_155_08, id: "\u{1F3FB}joins-the-tilde"),
    ])
    func givenCursor_whenEncodedAndRead_thenTheSamePositionToTheLastBit(cursor: AnimalCursor) throws {
        let read = try #require(AnimalCursor(encoded: cursor.encoded))
        #expect(read.publishedAt.bitPattern == cursor.publishedAt.bitPattern)
        #expect(read.id == cursor.id)
    }

    @Test(arguments: ["", "abc", "1700000000", "~id", "1.~id", ".5~id", "1e~id", "inf~id", "nan~id", "0x1p3~id", "1 ~id", "5~", "1~a\u{0}b", "1~tab\there", "1~\u{7F}", "1e309~x", "-1e999~a", "1e100~a", "123456789012345678901~a",
                       "1~" + String(repeating: "é", count: 129)])
    func givenTextThatIsNoPosition_whenRead_thenNil(text: String) {
        #expect(AnimalCursor(encoded: text) == nil)
    }

    @Test func givenAnIdOfTheLongestLengthWithUnicode_whenRead_thenAccepted() throws {
        let id = String(repeating: "é", count: AnimalCursor.maximumIDLength)
        #expect(try #require(AnimalCursor(encoded: "1~" + id)).id == id)
    }

    @Test func givenCursor_whenParsedWithAndWithoutCoordinates_thenItPagesOnlyTheListingWithoutThem() throws {
        let cursor = AnimalCursor(publishedAt: 1, id: "a").encoded
        let listing = try AnimalQuery.parse([(name: "cursor", value: cursor), (name: "page", value: "3"), (name: "limit", value: "5")])
        #expect(listing.cursor == AnimalCursor(publishedAt: 1, id: "a"))
        #expect(listing.page == 1)
        #expect(listing.queryItems.map(\.name) == ["limit", "cursor"])
        let nearby = try AnimalQuery.parse([(name: "cursor", value: cursor), (name: "lat", value: "1"), (name: "lon", value: "2")])
        #expect(nearby.cursor == nil)
        #expect(throws: AnimalQueryError.self) {
            try AnimalQuery.parse([(name: "cursor", value: "nonsense"), (name: "lat", value: "1"), (name: "lon", value: "2")])
        }
        #expect(throws: AnimalQueryError(parameter: "cursor", message: "cursor must be a nextCursor: a decimal time, ~ and an id (was \"%%\")")) {
            try AnimalQuery.parse([(name: "cursor", value: "%%")])
        }
    }
}
