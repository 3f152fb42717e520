import Localization
import Testing

/// The plural rules against CLDR's own sample numbers (plurals.xml, cardinal).
@Suite struct PluralRulesTests {
    private func category(_ language: AppLanguage, _ count: Int) -> PluralCategory {
        language.pluralCategory(PluralOperands(count))
    }

    private func category(_ language: AppLanguage, _ value: Double, digits: Int) -> PluralCategory {
        language.pluralCategory(PluralOperands(value, shownFractionDigits: digits))
    }

    @Test func givenEnglishAndGerman_whenCounting_thenOnlyAWholeOneIsSingular() {
        for language in [AppLanguage.english, .german] {
            #expect(category(language, 1) == .one)
            for count in [0, 2, 5, 11, 21, 101, 1_000_000] { #expect(category(language, count) == .other) }
            #expect(category(language, 1.0, digits: 1) == .other)
            #expect(category(language, 2.5, digits: 1) == .other)
        }
    }

    @Test func givenPolish_whenCounting_thenOneFewManyAndOtherFollowCLDR() {
        #expect(category(.polish, 1) == .one)
        for count in [2, 3, 4, 22, 23, 24, 32, 102, 1_002] { #expect(category(.polish, count) == .few, "\(count)") }
        for count in [0, 5, 6, 11, 12, 13, 14, 19, 20, 21, 25, 100, 111, 112, 1_000] {
            #expect(category(.polish, count) == .many, "\(count)")
        }
        for value in [0.5, 1.0, 1.5, 2.5, 10.1] { #expect(category(.polish, value, digits: 1) == .other, "\(value)") }
    }

    @Test func givenFrenchAndBrazilianPortuguese_whenCounting_thenZeroToOneNineIsSingularAndMillionsAreMany() {
        for language in [AppLanguage.french, .brazilianPortuguese] {
            #expect(category(language, 0) == .one)
            #expect(category(language, 1) == .one)
            #expect(category(language, 1.5, digits: 1) == .one)
            #expect(category(language, 2) == .other)
            #expect(category(language, 2.5, digits: 1) == .other)
            #expect(category(language, 1_000_000) == .many)
            #expect(category(language, 3_000_000) == .many)
            #expect(category(language, 1_000_001) == .other)
            #expect(category(language, 1_000_000.0, digits: 1) == .other)
        }
    }

    @Test func givenSpanish_whenCounting_thenExactlyOneIsSingularAndMillionsAreMany() {
        #expect(category(.spanish, 1) == .one)
        #expect(category(.spanish, 1.0, digits: 1) == .one)
        #expect(category(.spanish, 0) == .other)
        #expect(category(.spanish, 1.5, digits: 1) == .other)
        #expect(category(.spanish, 2_000_000) == .many)
    }

    @Test func givenJapanese_whenCounting_thenThereIsOneForm() {
        for count in [0, 1, 2, 5, 1_000_000] { #expect(category(.japanese, count) == .other) }
    }

    @Test(arguments: AppLanguage.allCases)
    func givenALanguage_whenSampleNumbersAreCategorised_thenExactlyItsListedCategoriesOccur(language: AppLanguage) {
        var seen = Set((0...1_100).map { category(language, $0) })
        seen.formUnion((0...300).map { category(language, Double($0) / 10, digits: 1) })
        seen.insert(category(language, 1_000_000))
        // Every category answered is listed (so tables have its form), and every listed one is answered
        // (so no table carries a form no number can reach).
        #expect(seen == Set(language.pluralCategories))
    }
}
