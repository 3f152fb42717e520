import Foundation

/// Who reads a text: the language its words are in, and the locale its numbers and units follow.
///
/// The two are separate on purpose: a person reading German in the United States reads German words
/// with miles. Everything a person sees is produced through a localizer passed in explicitly, so one
/// process can speak several languages (tests, `petspot demo --language`).
public struct Localizer: Sendable, Hashable {
    /// The language of the words.
    public var language: AppLanguage
    /// Numbers, decimal separators and distance units follow this locale.
    public var locale: Locale

    public init(language: AppLanguage, locale: Locale) {
        self.language = language
        self.locale = locale
    }

    /// English words, kilometres, the project's default.
    public static let english = Localizer(language: .english, locale: Locale(identifier: "en"))

    /// The language the person chose for this device (the first of their preferred languages PetSpot
    /// speaks, English otherwise) and the device's own locale for numbers and units.
    public static var system: Localizer {
        let language = Locale.preferredLanguages.lazy.compactMap(AppLanguage.init(bestMatchFor:)).first ?? .english
        return Localizer(language: language, locale: .autoupdatingCurrent)
    }

    /// A localizer for a language tag such as `de`, `en-US`, `pt-BR` or `ja_JP`: its language decides
    /// the words, the whole tag the locale (a region decides the units: `en-US` shows miles, `en` and
    /// `en-IE` kilometres).
    ///
    /// - Throws: ``UnsupportedLanguage`` when PetSpot has no texts in the tag's language.
    public init(tag: String) throws(UnsupportedLanguage) {
        let trimmed = tag.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, let language = AppLanguage(bestMatchFor: trimmed) else {
            throw UnsupportedLanguage(tag: tag)
        }
        self.init(language: language, locale: Locale(identifier: trimmed))
    }

    /// Whether distances are shown in miles: where the locale names a region whose roads are signed
    /// in miles (the United States, the United Kingdom, Liberia, Myanmar). Without a region, kilometres.
    public var usesMiles: Bool {
        guard locale.region != nil else { return false }
        return locale.measurementSystem != .metric
    }

    /// A number with exactly `fractionDigits` fraction digits, grouped and punctuated for the locale.
    public func number(_ value: Double, fractionDigits: Int) -> String {
        value.formatted(.number.precision(.fractionLength(fractionDigits)).locale(locale))
    }

    /// A whole number, grouped for the locale ("1,234", "1.234", "1 234").
    public func number(_ value: Int) -> String {
        value.formatted(.number.locale(locale))
    }
}

/// A language tag PetSpot has no texts for.
public struct UnsupportedLanguage: Error, Sendable, Equatable, CustomStringConvertible {
    public var tag: String

    public init(tag: String) {
        self.tag = tag
    }

    public var description: String {
        let known = AppLanguage.allCases.map(\.rawValue).joined(separator: ", ")
        return "no texts in language \"\(tag)\"; PetSpot speaks \(known) (a region may follow, e.g. en-US, de-AT)"
    }
}

extension AppLanguage {
    /// The language of a tag such as `de-AT`, `pt_BR`, `zh-Hant-TW`: its first subtag decides
    /// (Portuguese is written the Brazilian way); nil when PetSpot does not speak it.
    public init?(bestMatchFor tag: String) {
        let primary = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        switch primary {
        case "en": self = .english
        case "de": self = .german
        case "es": self = .spanish
        case "fr": self = .french
        case "pl": self = .polish
        case "pt": self = .brazilianPortuguese
        case "ja": self = .japanese
        default: return nil
        }
    }
}
