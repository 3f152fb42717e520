import PetAPI
import Testing

@Suite struct PetCursorTests {
    @Test(arguments: [
        PetCursor(publishedAt: 1_767_225_600.123_456, id: "demo-000001"),
        PetCursor(publishedAt: -0.000_012_5, id: "ünïcødé/+=~id"),
        PetCursor(publishedAt: 0, id: "x"),
        PetCursor(publishedAt: 1e300, id: "far"),
        PetCursor(publishedAt: 9.091_155_08, id: "\u{1F3FB}joins-the-tilde"),
    ])
    func givenCursor_whenEncodedAndRead_thenTheSamePositionToTheLastBit(cursor: PetCursor) throws {
        let read = try #require(PetCursor(encoded: cursor.encoded))
        #expect(read.publishedAt.bitPattern == cursor.publishedAt.bitPattern)
        #expect(read.id == cursor.id)
    }

    @Test(arguments: ["", "abc", "1700000000", "~id", "1.~id", ".5~id", "1e~id", "inf~id", "nan~id", "0x1p3~id", "1 ~id", "5~", "1~a\u{0}b", "1~tab\there", "1~\u{7F}",
                       "1~" + String(repeating: "é", count: 129)])
    func givenTextThatIsNoPosition_whenRead_thenNil(text: String) {
        #expect(PetCursor(encoded: text) == nil)
    }

    @Test func givenAnIdOfTheLongestLengthWithUnicode_whenRead_thenAccepted() throws {
        let id = String(repeating: "é", count: PetCursor.maximumIDLength)
        #expect(try #require(PetCursor(encoded: "1~" + id)).id == id)
    }

    @Test func givenTimeTooLargeForADouble_whenRead_thenAPositionAfterEverything() throws {
        #expect(try #require(PetCursor(encoded: "1e999~a")).publishedAt == .infinity)
    }

    @Test func givenCursor_whenParsedWithAndWithoutCoordinates_thenItPagesOnlyTheListingWithoutThem() throws {
        let cursor = PetCursor(publishedAt: 1, id: "a").encoded
        let listing = try PetQuery.parse([(name: "cursor", value: cursor), (name: "page", value: "3"), (name: "limit", value: "5")])
        #expect(listing.cursor == PetCursor(publishedAt: 1, id: "a"))
        #expect(listing.page == 1)
        #expect(listing.queryItems.map(\.name) == ["limit", "cursor"])
        let nearby = try PetQuery.parse([(name: "cursor", value: cursor), (name: "lat", value: "1"), (name: "lon", value: "2")])
        #expect(nearby.cursor == nil)
        #expect(throws: PetQueryError.self) {
            try PetQuery.parse([(name: "cursor", value: "nonsense"), (name: "lat", value: "1"), (name: "lon", value: "2")])
        }
        #expect(throws: PetQueryError(parameter: "cursor", message: "cursor must be a nextCursor: a decimal time, ~ and an id (was \"%%\")")) {
            try PetQuery.parse([(name: "cursor", value: "%%")])
        }
    }
}
