import Foundation
import Localization
import ScenarioRunner
import Testing

/// `petspot demo --language` and `petspot run --language`: the storyboards in each language PetSpot
/// speaks, with the locale's units, while the event log stays the same.
@Suite(.timeLimit(.minutes(2))) struct StoryboardLanguageTests {
    /// The languages besides English.
    static let languages = ["de", "es", "fr", "pl", "pt-BR", "ja"]

    /// The lines a person reads: everything but blank lines and the table's rule.
    private func readableLines(_ output: String) -> [Substring] {
        output.split(separator: "\n").filter { $0.contains(where: \.isLetter) }
    }

    @Test(arguments: languages)
    func givenTheDemo_whenToldInALanguage_thenNoLineIsTheEnglishOneAndNoKeyShows(language: String) async throws {
        // The English demo beside it, as a child task: a time limit stops both processes.
        async let englishRun = PetspotProcess.run(["demo"])
        let translated = try await PetspotProcess.run(["demo", "--language", language])
        let english = try await englishRun
        #expect(english.status == 0 && translated.status == 0, "\(translated.standardError)")

        let englishLines = readableLines(english.standardOutput)
        let translatedLines = readableLines(translated.standardOutput)
        #expect(translatedLines.count == englishLines.count)
        for (englishLine, line) in zip(englishLines, translatedLines) {
            #expect(line != englishLine, "left in English: \(line)")
        }
        // A text missing from every table shows as its key (`location_status_notDetermined`,
        // `scenario_us1-1`), in English too.
        let keyLike = try Regex(#"\b[a-z]+_[A-Za-z0-9_]+"#)
        for line in translatedLines + englishLines { #expect(line.firstMatch(of: keyLike) == nil, "a key shows: \(line)") }

        // The summary table's rows are padded to one width, measured in terminal columns (which
        // `Storyboard.columns` gets right is checked against known widths below).
        let lines = translated.standardOutput.split(separator: "\n").map(String.init)
        let rule = try #require(lines.firstIndex { $0.hasPrefix("─") })
        let rows = [lines[rule - 1]] + lines[(rule + 1)...].filter { !$0.isEmpty }
        #expect(rows.count == BundledScenarios.files.count + 1)
        for row in rows { #expect(Storyboard.columns(row) == lines[rule].count, "misaligned: \(row)") }
    }

    @Test func givenUnitedStatesEnglish_whenTheDemoIsTold_thenDistancesAreInMiles() async throws {
        let run = try await PetspotProcess.run(["demo", "--only", "us1-1", "--language", "en-US"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("Reksio, Terrier Mix (dog) in Warsaw, 1.6 mi away"))
        #expect(!run.standardOutput.contains(" km away"))

        let metric = try await PetspotProcess.run(["demo", "--only", "us1-1"])
        #expect(metric.standardOutput.contains("Reksio, Terrier Mix (dog) in Warsaw, 2.5 km away"))
    }

    @Test func givenAScenario_whenRunWithALanguage_thenTheStoryIsToldThereAndTheJSONLogIsUnchanged() async throws {
        let file = try #require(BundledScenarios.files.first { $0.lastPathComponent == "us3-1-denied-popup.json" })

        let json = try await PetspotProcess.run(["run", "--scenario", file.path, "--json"])
        let jsonInGerman = try await PetspotProcess.run(["run", "--scenario", file.path, "--json", "--language", "de"])
        let story = try await PetspotProcess.run(["run", "--scenario", file.path, "--language", "de"])

        #expect(json.status == 0 && jsonInGerman.status == 0 && story.status == 0, "\(story.standardError)")
        #expect(!json.standardOutput.isEmpty)
        #expect(jsonInGerman.standardOutput == json.standardOutput)
        // The German storyboard quotes the app's own German popup, under the scenario's German title.
        #expect(story.standardOutput.contains("Einstellungen"))
        #expect(!story.standardOutput.contains("customPopupShown"))
        let title = Storyboard.strings.string("scenario_us3-1-denied-popup", .german)
        #expect(title != Storyboard.strings.string("scenario_us3-1-denied-popup", .english))
        #expect(story.standardOutput.contains("━━ \(title)\n"))
    }

    @Test func givenAScenarioOfItsOwn_whenRunWithALanguage_thenItKeepsItsOwnTitle() async throws {
        let bundled = try #require(BundledScenarios.files.first { $0.lastPathComponent == "us3-1-denied-popup.json" })
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: bundled)) as? [String: Any])
        object["name"] = "Mein eigener Ablauf"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("own-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try JSONSerialization.data(withJSONObject: object).write(to: file)

        let story = try await PetspotProcess.run(["run", "--scenario", file.path, "--language", "de"])

        #expect(story.status == 0, "\(story.standardError)")
        #expect(story.standardOutput.contains("━━ Mein eigener Ablauf\n"))
    }

    @Test func givenTexts_whenTheirTerminalWidthIsMeasured_thenWideCharactersTakeTwoColumnsAndMarksNone() {
        #expect(Storyboard.columns("km") == 2)
        #expect(Storyboard.columns("設定") == 4)
        #expect(Storyboard.columns("すべて（位置情報なし）") == 22)
        #expect(Storyboard.columns("e\u{301}") == 1)
        #expect(Storyboard.columns("a\u{200B}b") == 2)
        #expect(Storyboard.columns("🐶") == 2)
        #expect(Storyboard.columns("Réglages › Confidentialité") == 26)
        #expect(Storyboard.columns("") == 0)
    }

    @Test(arguments: AppLanguage.allCases)
    func givenTheBuiltBundle_whenTheStoryboardTableIsRead_thenTheLanguageHasEveryEnglishKey(language: AppLanguage) {
        #expect(!Storyboard.strings.entries(.english).strings.isEmpty)
        #expect(Storyboard.strings.missingKeys(language) == [])
    }

    @Test func givenAnUnknownLanguage_whenTheDemoIsAsked_thenItStopsNamingTheLanguagesThereAre() async throws {
        let run = try await PetspotProcess.run(["demo", "--language", "klingon"])
        #expect(run.status != 0)
        #expect(run.standardError.contains("\"klingon\""))
        #expect(run.standardError.contains("pt-BR"))
        #expect(run.standardOutput.isEmpty)
    }
}
