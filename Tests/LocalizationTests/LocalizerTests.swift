import Foundation
import Localization
import Testing

@Suite struct LocalizerTests {
    @Test func givenLanguageTags_whenParsed_thenTheLanguageRegionAndUnitExtensionAreKept() throws {
        #expect(try Localizer(tag: "fr-CA").language == .french)
        #expect(try Localizer(tag: "fr_CA").locale.region == .canada)
        #expect(try Localizer(tag: "de").language == .german)
        #expect(try Localizer(tag: "de-AT").language == .german)
        #expect(try Localizer(tag: "pt-BR").language == .brazilianPortuguese)
        #expect(try Localizer(tag: "pt_PT").language == .brazilianPortuguese)
        #expect(try Localizer(tag: "ja").language == .japanese)
        #expect(try Localizer(tag: "en-US").locale.region == .unitedStates)
        // Either separator, as iOS and POSIX write them.
        for tag in ["en_US", "pt_BR", "ja-JP", "ja_JP", " fr-CA "] {
            #expect(try Localizer(tag: tag).locale.region != nil, "\(tag)")
        }
        #expect(try Localizer(tag: "en_US").usesMiles)
        // A BCP 47 tag keeps its extensions: US English with metric units.
        #expect(try Localizer(tag: "en-US-u-ms-metric").usesMiles == false)
        #expect(try Localizer(tag: "en-US").usesMiles)
    }

    @Test func givenAnUnknownOrEmptyTag_whenParsed_thenTheErrorNamesItAndTheLanguagesThereAre() {
        #expect(throws: UnsupportedLanguage(tag: "xx")) { try Localizer(tag: "xx") }
        #expect(throws: UnsupportedLanguage(tag: "")) { try Localizer(tag: "") }
        #expect(UnsupportedLanguage(tag: "zh").description.contains("pt-BR"))
    }

    @Test func givenLocales_whenADistanceIsShown_thenMilesOnlyWhereTheRegionSignsRoadsInMiles() throws {
        let distance = Measurement(value: 2.5, unit: UnitLength.kilometers)
        #expect(try Localizer(tag: "en-US").distance(distance) == "1.6 mi")
        #expect(try Localizer(tag: "en-GB").distance(distance) == "1.6 mi")
        #expect(try Localizer(tag: "en").distance(distance) == "2.5 km")
        #expect(try Localizer(tag: "en-IE").distance(distance) == "2.5 km")
        #expect(try Localizer(tag: "fr-FR").distance(distance).hasPrefix("2,5"))
        #expect(try Localizer(tag: "en-US").distance(distance, style: .spelledOut) == "1.6 miles")
        #expect(try Localizer(tag: "en").distance(Measurement(value: 1, unit: .kilometers), style: .spelledOut, fractionDigits: 0) == "1 kilometre")
    }

    @Test func givenLocales_whenNumbersAreShown_thenTheyAreGroupedAndPunctuatedForTheLocale() throws {
        #expect(try Localizer(tag: "en").number(1_234) == "1,234")
        #expect(try Localizer(tag: "de").number(1_234) == "1.234")
        #expect(try Localizer(tag: "de").number(0.04, fractionDigits: 3) == "0,040")
        #expect(try Localizer(tag: "fr").number(0.04, fractionDigits: 3) == "0,040")
    }
}
