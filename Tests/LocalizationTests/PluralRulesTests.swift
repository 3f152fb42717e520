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

    @Test func givenEnglish_whenCounting_thenOnlyAWholeOneIsSingular() {
        #expect(category(.english, 1) == .one)
        for count in [0, 2, 5, 11, 21, 101, 1_000_000] { #expect(category(.english, count) == .other) }
        #expect(category(.english, 1.0, digits: 1) == .other)
        #expect(category(.english, 2.5, digits: 1) == .other)
    }

    @Test func givenFrench_whenCounting_thenZeroToOneNineIsSingularAndMillionsAreMany() {
        #expect(category(.french, 0) == .one)
        #expect(category(.french, 1) == .one)
        #expect(category(.french, 1.5, digits: 1) == .one)
        #expect(category(.french, 2) == .other)
        #expect(category(.french, 2.5, digits: 1) == .other)
        #expect(category(.french, 1_000_000) == .many)
        #expect(category(.french, 3_000_000) == .many)
        #expect(category(.french, 1_000_001) == .other)
        #expect(category(.french, 1_000_000.0, digits: 1) == .other)
    }

    @Test(arguments: AppLanguage.allCases)
    func givenALanguage_whenEveryCategoryItUsesIsListed_thenTheRulesNeverAnswerAnother(language: AppLanguage) {
        let needed = Set(language.pluralCategories)
        for count in 0...1_100 { #expect(needed.contains(category(language, count))) }
        for tenths in 0...300 { #expect(needed.contains(category(language, Double(tenths) / 10, digits: 1))) }
        #expect(needed.contains(category(language, 1_000_000)))
    }
}
