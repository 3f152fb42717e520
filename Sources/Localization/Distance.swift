import Foundation

extension Localizer {
    /// How a distance is written.
    public enum DistanceStyle: Sendable {
        /// For the eye: "2.5 km", "1.6 mi".
        case abbreviated
        /// For the ear (VoiceOver) and sentences: "2.5 kilometres", "1 mile", with the language's
        /// plural form.
        case spelledOut
    }

    /// A distance in the locale's unit (miles where ``usesMiles``, kilometres elsewhere) with
    /// `fractionDigits` fraction digits, its number punctuated for the locale.
    public func distance(
        _ distance: Measurement<UnitLength>,
        style: DistanceStyle = .abbreviated,
        fractionDigits: Int = 1
    ) -> String {
        let unit = usesMiles ? "mi" : "km"
        let value = distance.converted(to: usesMiles ? .miles : .kilometers).value
        let shown = number(value, fractionDigits: fractionDigits)
        switch style {
        case .abbreviated:
            return Self.units.string("distance_abbreviated_\(unit)", language, shown)
        case .spelledOut:
            return Self.units.plural(
                "distance_spelled_out_\(unit)",
                language,
                number: shown,
                operands: PluralOperands(value, shownFractionDigits: fractionDigits)
            )
        }
    }

    /// `Units.strings` / `Units.stringsdict` of this module.
    static let units = StringTable(name: "Units", bundle: .module)

    /// Every table this module ships, as read from its bundle.
    public static let tables = [units]
}
