/// A language PetSpot's texts are written in. The raw value is the name of its `.lproj` folder.
public enum AppLanguage: String, Sendable, Hashable, CaseIterable, Codable {
    case english = "en"
    case german = "de"
    case spanish = "es"
    case french = "fr"
    case polish = "pl"
    case brazilianPortuguese = "pt-BR"
    case japanese = "ja"

    /// The plural categories this language's counted texts need, by the CLDR plural rules for
    /// cardinals: every plural entry of a string table has exactly these forms.
    public var pluralCategories: [PluralCategory] {
        switch self {
        case .english, .german: [.one, .other]
        case .spanish, .french, .brazilianPortuguese: [.one, .many, .other]
        case .polish: [.one, .few, .many, .other]
        case .japanese: [.other]
        }
    }

    /// The plural category of a number shown in this language (CLDR 44 cardinal rules).
    public func pluralCategory(_ number: PluralOperands) -> PluralCategory {
        let i = number.integerDigits
        let v = number.visibleFractionDigits
        switch self {
        case .english, .german:
            return i == 1 && v == 0 ? .one : .other
        case .spanish:
            if number.isExactly(1) { return .one }
            return number.isWholeMillions ? .many : .other
        case .french, .brazilianPortuguese:
            if i == 0 || i == 1 { return .one }
            return number.isWholeMillions ? .many : .other
        case .polish:
            guard v == 0 else { return .other }
            if i == 1 { return .one }
            let lastDigit = i % 10
            let lastTwo = i % 100
            if (2...4).contains(lastDigit) && !(12...14).contains(lastTwo) { return .few }
            return .many
        case .japanese:
            return .other
        }
    }
}

/// A CLDR plural category.
public enum PluralCategory: String, Sendable, Hashable, CaseIterable {
    case zero, one, two, few, many, other
}

/// The parts of a number as it is shown that plural rules look at (CLDR's operands `i`, `v`, `f`):
/// "2.50" has integer digits 2, two visible fraction digits and fraction digits 50.
public struct PluralOperands: Sendable, Hashable {
    /// `i`: the integer part, without sign.
    public var integerDigits: Int
    /// `v`: how many fraction digits are shown, trailing zeros included.
    public var visibleFractionDigits: Int
    /// `f`: the shown fraction digits as a whole number.
    public var fractionDigits: Int

    /// A whole count, shown without fraction digits.
    public init(_ count: Int) {
        integerDigits = count.magnitude > UInt(Int.max) ? Int.max : Int(count.magnitude)
        visibleFractionDigits = 0
        fractionDigits = 0
    }

    /// `value` as it is shown with exactly `shownFractionDigits` fraction digits (rounded half to even
    /// as number formatting does; the difference never changes a category here).
    public init(_ value: Double, shownFractionDigits: Int) {
        let digits = max(0, min(shownFractionDigits, 6))
        var scale = 1
        for _ in 0..<digits { scale *= 10 }
        let magnitude = abs(value)
        let scaled = (magnitude * Double(scale)).rounded(.toNearestOrEven)
        let whole = scaled.isFinite && scaled < 9e15 ? Int(scaled) : Int.max / 2
        integerDigits = whole / scale
        visibleFractionDigits = digits
        fractionDigits = whole % scale
    }

    /// `n = value`: the shown number equals `value` (so 1.0 is exactly 1, as CLDR's `n = 1` means).
    func isExactly(_ value: Int) -> Bool {
        integerDigits == value && fractionDigits == 0
    }

    /// CLDR's "many" of Spanish, French and Portuguese: a whole number of millions ("1 million de …").
    var isWholeMillions: Bool {
        visibleFractionDigits == 0 && integerDigits != 0 && integerDigits % 1_000_000 == 0
    }
}
