import Foundation
import Localization
import Testing

/// Every string table of the project, in every language PetSpot speaks, read from the source tree:
/// `Sources/<Target>/Resources/<lang>.lproj/*.strings|*.stringsdict` and `App/<App>/<lang>.lproj/InfoPlist.strings`.
/// A gap fails here: a missing file or key, an empty text, a placeholder lost or added, a text left in
/// English, a plural form missing.
@Suite struct TranslationCompletenessTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Texts that are rightly the same as English in every language, by key: "OK" is the button iOS
    /// shows on the Motion alert everywhere; km, mi and s are international symbols.
    static let sameAsEnglishEverywhere: Set<String> = [
        "choice_allow", "distance_abbreviated_km", "distance_abbreviated_mi", "time_format",
    ]

    /// Texts that are rightly the same as English in one language, by key (a plural form as
    /// `key.category`), with why.
    static let sameAsEnglish: [AppLanguage: Set<String>] = [
        // The Health app keeps its English name in German iOS ("Health"), and Apple's German pages
        // call the service "Apple Health". "Start" and "Pause" are German words for the walk's buttons.
        .german: ["permission_health_title", "walk_start", "walk_pause"],
        // French spells the unit "mile(s)" as English does, and "Pause" is French too.
        .french: ["distance_spelled_out_mi.one", "distance_spelled_out_mi.other", "walk_pause"],
        // Polish buttons say "Start", as the storyboard's Polish does.
        .polish: ["walk_start"],
    ]

    /// Whole English words that never belong in another language's text.
    static let englishWords: Set<String> = ["the", "and", "your", "you", "with", "they", "pets", "tap", "away", "allow", "settings"]

    /// A table in English, and where its translations live.
    struct Table: CustomStringConvertible {
        var folder: URL
        var file: String
        var description: String { folder.path.replacingOccurrences(of: TranslationCompletenessTests.root.path + "/", with: "") + "/*.lproj/" + file }
        func url(_ language: AppLanguage) -> URL {
            folder.appendingPathComponent("\(language.rawValue).lproj").appendingPathComponent(file)
        }
    }

    static var tables: [Table] {
        let fileManager = FileManager.default
        let sources = root.appendingPathComponent("Sources")
        var folders = ((try? fileManager.contentsOfDirectory(atPath: sources.path)) ?? []).sorted()
            .map { sources.appendingPathComponent($0).appendingPathComponent("Resources") }
        folders += Self.apps.map { root.appendingPathComponent("App").appendingPathComponent($0) }
        return folders.flatMap { folder -> [Table] in
            let english = folder.appendingPathComponent("en.lproj")
            let files = (try? fileManager.contentsOfDirectory(atPath: english.path)) ?? []
            return files.filter { $0.hasSuffix(".strings") || $0.hasSuffix(".stringsdict") }.sorted()
                .map { Table(folder: folder, file: $0) }
        }
    }

    @Test func givenTheSourceTree_whenTablesAreListed_thenEveryKnownTableIsFound() {
        let names = Set(Self.tables.map(\.description))
        for expected in [
            "Sources/Localization/Resources/*.lproj/Units.strings",
            "Sources/Localization/Resources/*.lproj/Units.stringsdict",
            "Sources/StartupFeature/Resources/*.lproj/Localizable.strings",
            "Sources/StartupFeature/Resources/*.lproj/Localizable.stringsdict",
            "Sources/Permissions/Resources/*.lproj/Localizable.strings",
            "Sources/Permissions/Resources/*.lproj/PetSpot.strings",
            "Sources/Permissions/Resources/*.lproj/PaintMyTown.strings",
            "Sources/ScenarioRunner/Resources/*.lproj/Storyboard.strings",
            "Sources/ScenarioRunner/Resources/*.lproj/Storyboard.stringsdict",
            "App/PetSpot/*.lproj/InfoPlist.strings",
            "App/PaintMyTown/*.lproj/InfoPlist.strings",
        ] {
            #expect(names.contains(expected), "\(expected) not found")
        }
    }

    @Test(arguments: AppLanguage.allCases.filter { $0 != .english })
    func givenEveryTable_whenReadInALanguage_thenItHasEveryKeyTranslatedWithTheSamePlaceholders(language: AppLanguage) throws {
        for table in Self.tables {
            let english = try Data(contentsOf: table.url(.english))
            guard let translated = try? Data(contentsOf: table.url(language)) else {
                Issue.record("\(table): no \(language.rawValue).lproj/\(table.file)")
                continue
            }
            if table.file.hasSuffix(".stringsdict") {
                try checkPlurals(table, language, english: StringTable.parsePlurals(english), translated: StringTable.parsePlurals(translated))
            } else {
                try checkStrings(table, language, english: StringTable.parseStrings(english), translated: StringTable.parseStrings(translated))
            }
        }
    }

    @Test func givenEnglishTables_whenRead_thenNoTextIsEmptyAndEveryPluralHasEnglishsForms() throws {
        for table in Self.tables {
            let data = try Data(contentsOf: table.url(.english))
            if table.file.hasSuffix(".stringsdict") {
                for (key, entry) in try StringTable.parsePlurals(data) {
                    #expect(Set(entry.forms.keys) == Set(AppLanguage.english.pluralCategories), "\(table) \(key)")
                }
            } else {
                for (key, text) in try StringTable.parseStrings(data) {
                    #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty, "\(table) \(key) is empty")
                }
            }
        }
    }

    /// The iOS apps' folders under `App/`.
    static let apps = ["PetSpot", "PaintMyTown"]

    @Test(arguments: apps)
    func givenAnAppsEnglishUsageDescriptions_whenComparedWithInfoPlist_thenTheyAreTheSame(app: String) throws {
        let folder = Self.root.appendingPathComponent("App").appendingPathComponent(app)
        let plistData = try Data(contentsOf: folder.appendingPathComponent("Info.plist"))
        let plist = try #require(try PropertyListSerialization.propertyList(from: plistData, format: nil) as? [String: Any])
        var expected: [String: String] = [:]
        for (key, value) in plist where key.hasSuffix("UsageDescription") {
            expected[key] = value as? String
        }
        for (key, value) in plist["NSLocationTemporaryUsageDescriptionDictionary"] as? [String: String] ?? [:] {
            expected[key] = value
        }
        let strings = try StringTable.parseStrings(Data(contentsOf: folder.appendingPathComponent("en.lproj/InfoPlist.strings")))
        #expect(strings == expected)
    }

    @Test func givenTheBundledScenarios_whenTheirTitlesAreLookedUp_thenEachHasOneAndEnglishMatchesTheFile() throws {
        let folder = Self.root.appendingPathComponent("Sources/ScenarioRunner/Scenarios")
        let storyboard = try StringTable.parseStrings(
            Data(contentsOf: Self.root.appendingPathComponent("Sources/ScenarioRunner/Resources/en.lproj/Storyboard.strings")))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") && !$0.hasSuffix(".expected.json") }
        #expect(!files.isEmpty)
        for file in files {
            let object = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent(file)))
            let name = (object as? [String: Any])?["name"] as? String
            let label = String(file.dropLast(".json".count))
            #expect(storyboard["scenario_\(label)"] == name, "scenario_\(label) differs from the name in \(file)")
        }
    }

    // MARK: - Checks

    private func checkStrings(_ table: Table, _ language: AppLanguage, english: [String: String], translated: [String: String]) {
        for key in Set(english.keys).subtracting(translated.keys).sorted() {
            Issue.record("\(table) \(language.rawValue): missing \(key)")
        }
        for key in Set(translated.keys).subtracting(english.keys).sorted() {
            Issue.record("\(table) \(language.rawValue): \(key) is not in English")
        }
        for (key, source) in english.sorted(by: { $0.key < $1.key }) {
            guard let text = translated[key] else { continue }
            checkText(table, language, key: key, english: source, text: text)
        }
    }

    private func checkPlurals(
        _ table: Table,
        _ language: AppLanguage,
        english: [String: PluralEntry],
        translated: [String: PluralEntry]
    ) {
        #expect(Set(translated.keys) == Set(english.keys), "\(table) \(language.rawValue): keys differ from English")
        for (key, source) in english.sorted(by: { $0.key < $1.key }) {
            guard let entry = translated[key] else { continue }
            #expect(
                Set(entry.forms.keys) == Set(language.pluralCategories),
                "\(table) \(language.rawValue) \(key): forms \(entry.forms.keys.map(\.rawValue).sorted()), needs \(language.pluralCategories.map(\.rawValue))"
            )
            #expect(entry.variable == source.variable, "\(table) \(language.rawValue) \(key): variable")
            checkText(table, language, key: key, english: source.format, text: entry.format, mayEqualEnglish: source.format == "%#@\(source.variable)@")
            for (category, form) in entry.forms {
                let englishForm = source.forms[.other] ?? ""
                checkText(table, language, key: "\(key).\(category.rawValue)", english: englishForm, text: form)
            }
        }
    }

    private func checkText(_ table: Table, _ language: AppLanguage, key: String, english: String, text: String, mayEqualEnglish: Bool = false) {
        let place = "\(table) \(language.rawValue) \(key)"
        #expect(!text.trimmingCharacters(in: .whitespaces).isEmpty, "\(place) is empty")
        #expect(Self.placeholders(text) == Self.placeholders(english), "\(place): placeholders \(text) vs \(english)")
        // Placeholders, plural variables included, are not words.
        let prose = text.replacing(try! Regex(#"%#@[A-Za-z0-9_]+@"#), with: " ")
        let words = Set(prose.lowercased().split(whereSeparator: { !$0.isLetter }).map(String.init))
        let hasWords = !FormatSpecifier.all(in: prose).reduce(prose) { $0.replacingOccurrences(of: $1.text, with: " ") }
            .filter(\.isLetter).isEmpty
        let allowed = Self.sameAsEnglishEverywhere.contains(key) || (Self.sameAsEnglish[language]?.contains(key) ?? false)
        if !mayEqualEnglish, hasWords, !allowed {
            #expect(text != english, "\(place) is still English: \(text)")
        }
        let english = words.intersection(Self.englishWords)
        #expect(english.isEmpty, "\(place) has English words \(english.sorted()): \(text)")
    }

    /// The placeholders of a text, independent of order: positions of objects (sequential ones
    /// numbered as they come), then the others as written.
    static func placeholders(_ text: String) -> [String] {
        var next = 0
        return FormatSpecifier.all(in: text).map { specifier -> String in
            switch specifier.specifier {
            case .object(let position?): return "@\(position)"
            case .object(nil):
                next += 1
                return "@\(next)"
            case .percent: return "%%"
            case .other: return specifier.text
            }
        }.sorted()
    }
}
