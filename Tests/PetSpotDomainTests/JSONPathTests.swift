import PetSpotDomain
import Testing

@Suite struct JSONPathTests {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int?
        init(stringValue: String) { self.stringValue = stringValue }
        init(intValue: Int) {
            self.stringValue = "Index \(intValue)"
            self.intValue = intValue
        }
    }

    @Test func givenKeysAndIndexes_whenDescribed_thenRootedAndRelativeFormsRead() {
        let path = JSONPath.root.appending("steps").appending(index: 1).appending("choice")
        #expect(path.description == "$.steps[1].choice")
        #expect(path.relativeDescription == "steps[1].choice")
        #expect(JSONPath.root.description == "$")
        #expect(JSONPath.root.relativeDescription.isEmpty)
    }

    @Test func givenDecodingCodingPath_whenConverted_thenIntegerKeysBecomeIndexes() {
        let path = JSONPath(codingPath: [Key(stringValue: "animals"), Key(intValue: 2), Key(stringValue: "location")])
        #expect(path.description == "$.animals[2].location")
        #expect(JSONPath(codingPath: [Key(stringValue: "location"), Key(stringValue: "lat")]).relativeDescription == "location.lat")
    }
}
