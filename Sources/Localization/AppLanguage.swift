/// A language PetSpot's texts are written in. The raw value is the name of its `.lproj` folder.
public enum AppLanguage: String, Sendable, Hashable, CaseIterable, Codable {
    case english = "en"
    case french = "fr"

    /// The plural categories this language's counted texts need, by the CLDR plural rules for
    /// cardinals: every plural entry of a string table has exactly these forms.
    public var pluralCategories: [PluralCategory] {
        switch self {
        case .english: [.one, .other]
        case .french: [.one, .many, .other]
        }
    }

    /// The plural category of a number shown in this language (CLDR 44 cardinal rules).
    public func pluralCategory(_ number: PluralOperands) -> PluralCategory {
        let i = number.integerDigits
        let v = number.visibleFractionDigits
        switch self {
        case .english:
            return i == 1 && v == 0 ? .one : .other
        case .french:
            if i == 0 || i == 1 { return .one }
            return number.isWholeMillions ? .many : .other
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

    /// CLDR's "many" of French: a whole number of millions ("1 000 000 d’animaux").
    var isWholeMillions: Bool {
        visibleFractionDigits == 0 && integerDigits != 0 && integerDigits % 1_000_000 == 0
    }
}
