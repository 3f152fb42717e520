import Foundation
import Permissions
import Testing

@Suite struct PropertyListTests {
    @Test func givenXMLData_whenParsed_thenStringsDictionariesAndFormatAreRead() throws {
        let list = try PropertyList(data: PlistFixtures.xml(PlistFixtures.completeInfo))
        #expect(list.format == .xml)
        #expect(list["NSMotionUsageDescription"] == .string("Counts walks."))
        #expect(list["NSLocationTemporaryUsageDescriptionDictionary"] == .dictionary(["NearbyPets": .string("Exact distances.")]))
    }

    @Test func givenBinaryData_whenParsed_thenSameValuesAndBinaryFormat() throws {
        let list = try PropertyList(data: PlistFixtures.binary(PlistFixtures.completeInfo))
        #expect(list.format == .binary)
        #expect(list.values == (try PropertyList(data: PlistFixtures.xml(PlistFixtures.completeInfo))).values)
    }

    @Test(arguments: [true, false])
    func givenBooleanAndNumber_whenParsed_thenTheyAreToldApart(binary: Bool) throws {
        let source: [String: Any] = ["flag": true, "off": false, "count": 1, "text": "1"]
        let data = binary ? try PlistFixtures.binary(source) : try PlistFixtures.xml(source)
        let list = try PropertyList(data: data)
        #expect(list["flag"] == .bool(true))
        #expect(list["off"] == .bool(false))
        #expect(list["count"] == .number(1))
        #expect(list["text"] == .string("1"))
    }

    @Test func givenTextThatIsNoPropertyList_whenParsed_thenUnreadable() {
        #expect {
            try PropertyList(data: Data("just text, no plist".utf8))
        } throws: { error in
            if case .unreadable = error as? PropertyListError { return true }
            return false
        }
    }

    @Test func givenArrayRoot_whenParsed_thenRootIsNotADictionary() throws {
        let data = try PropertyListSerialization.data(fromPropertyList: ["a", "b"], format: .xml, options: 0)
        #expect(throws: PropertyListError.rootIsNotADictionary) { try PropertyList(data: data) }
    }

    @Test func givenMissingFile_whenRead_thenCannotReadNamesThePath() {
        let url = URL(fileURLWithPath: "/nonexistent/PetSpot/Info.plist")
        #expect {
            try PropertyList(contentsOf: url)
        } throws: { error in
            guard case .cannotRead(let path, _) = error as? PropertyListError else { return false }
            return path == url.path && "\(error)".contains(url.path)
        }
    }

    @Test func givenBundleInfoDictionary_whenConverted_thenValuesAreKept() {
        let list = PropertyList(infoDictionary: ["NSMotionUsageDescription": "Counts walks.", "LSRequiresIPhoneOS": true])
        #expect(list["NSMotionUsageDescription"] == .string("Counts walks."))
        #expect(list["LSRequiresIPhoneOS"] == .bool(true))
    }
}
