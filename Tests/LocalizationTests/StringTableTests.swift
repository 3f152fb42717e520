import Foundation
import Localization
import Testing

@Suite struct StringTableTests {
    @Test func givenTemplates_whenFormatted_thenPlainAndPositionalPlaceholdersTakeTheirArguments() {
        #expect(StringTable.format("%@ and %@", ["a", "b"]) == "a and b")
        #expect(StringTable.format("%2$@ before %1$@", ["a", "b"]) == "b before a")
        #expect(StringTable.format("100%% of %@", ["pets"]) == "100% of pets")
        #expect(StringTable.format("%@ and %@", ["only"]) == "only and ")
    }

    @Test func givenATemplate_whenItsPlaceholdersAreListed_thenEachIsFoundWithItsPosition() {
        let found = FormatSpecifier.all(in: "%1$@ · %@ %% %#@pets@ %d").map(\.specifier)
        #expect(found == [.object(position: 1), .object(position: nil), .percent, .other, .other])
    }

    @Test func givenStringsAndStringsdictFiles_whenParsed_thenTextsAndPluralFormsResolve() throws {
        let strings = try StringTable.parseStrings(Data(#""greeting" = "Hallo %@";"#.utf8))
        let plurals = try StringTable.parsePlurals(Data(Self.stringsdict.utf8))
        let table = StringTable(name: "T", languages: [.german: .init(strings: strings, plurals: plurals)])
        #expect(table.string("greeting", .german, "Reksio") == "Hallo Reksio")
        #expect(table.plural("pets", .german, number: "1", operands: PluralOperands(1)) == "1 Tier in der Nähe")
        #expect(table.plural("pets", .german, number: "3", operands: PluralOperands(3)) == "3 Tiere in der Nähe")
        // Missing in the language and in English: the key shows, and the completeness test fails.
        #expect(table.string("absent", .german) == "absent")
    }

    @Test func givenLprojFoldersNamedAsWrittenOrInLowerCase_whenRead_thenBothAreFound() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("StringTableTests-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        // SwiftPM copies pt-BR.lproj into a bundle as pt-br.lproj.
        for (folder, text) in [("en", "Hello"), ("pt-br", "Olá"), ("de", "Hallo")] {
            let lproj = directory.appendingPathComponent("\(folder).lproj")
            try FileManager.default.createDirectory(at: lproj, withIntermediateDirectories: true)
            try Data(#""greeting" = "\#(text)";"#.utf8).write(to: lproj.appendingPathComponent("T.strings"))
        }
        let table = StringTable(name: "T", directory: directory)
        #expect(table.string("greeting", .brazilianPortuguese) == "Olá")
        #expect(table.string("greeting", .german) == "Hallo")
        #expect(table.string("greeting", .japanese) == "Hello")
        #expect(table.missingKeys(.german).isEmpty)
        #expect(table.missingKeys(.japanese) == ["greeting"])
    }

    @Test(arguments: AppLanguage.allCases)
    func givenTheBuiltBundle_whenTheUnitsTableIsRead_thenTheLanguageHasEveryEnglishKey(language: AppLanguage) {
        for table in Localizer.tables {
            #expect(!table.entries(.english).strings.isEmpty)
            #expect(table.missingKeys(language) == [], "\(table.name) in \(language.rawValue)")
        }
    }

    @Test func givenAStringsdictWithTwoVariables_whenParsed_thenTheErrorNamesTheKey() {
        let twoVariables = Self.stringsdict.replacingOccurrences(
            of: "<key>NSStringLocalizedFormatKey</key>",
            with: "<key>other</key><dict/><key>NSStringLocalizedFormatKey</key>"
        )
        let error = #expect(throws: StringTable.TableError.self) { try StringTable.parsePlurals(Data(twoVariables.utf8)) }
        #expect(error?.description.contains("pets") == true, "\(String(describing: error))")
    }

    static let stringsdict = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict>
        <key>pets</key><dict>
        <key>NSStringLocalizedFormatKey</key><string>%#@n@ in der Nähe</string>
        <key>n</key><dict>
        <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
        <key>NSStringFormatValueTypeKey</key><string>@</string>
        <key>one</key><string>%@ Tier</string>
        <key>other</key><string>%@ Tiere</string>
        </dict></dict></dict></plist>
        """
}
