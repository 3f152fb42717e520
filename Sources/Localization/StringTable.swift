import Foundation

/// One string table (`<Name>.strings` with its `<Name>.stringsdict`) in every ``AppLanguage``, read
/// from a bundle's `<language>.lproj` folders once.
///
/// The files are read here rather than through `NSLocalizedString`, so that a text can be asked for in
/// a language other than the process's, and so that plural entries resolve the same way on every
/// platform (Foundation on Linux does not apply `.stringsdict` rules).
public struct StringTable: Sendable {
    /// The table's name: `Localizable` for `Localizable.strings`.
    public let name: String
    private let languages: [AppLanguage: Entries]

    /// The texts of one language.
    public struct Entries: Sendable, Equatable {
        /// `key = "text"` pairs of the `.strings` file.
        public var strings: [String: String]
        /// Plural entries of the `.stringsdict` file.
        public var plurals: [String: PluralEntry]

        public init(strings: [String: String] = [:], plurals: [String: PluralEntry] = [:]) {
            self.strings = strings
            self.plurals = plurals
        }
    }

    /// Reads `name` in every language from `bundle`. A file that is missing or unreadable leaves that
    /// language empty (its texts fall back to English); the completeness test keeps that from shipping.
    public init(name: String, bundle: Bundle) {
        self.init(name: name, directory: bundle.resourceURL ?? bundle.bundleURL)
    }

    /// Reads `name` in every language from the `<language>.lproj` folders in `directory`.
    ///
    /// A folder is found under its language's name as written (`pt-BR.lproj`) or in lower case
    /// (`pt-br.lproj`): SwiftPM lower-cases the names of the folders it copies into a bundle.
    public init(name: String, directory: URL) {
        var languages: [AppLanguage: Entries] = [:]
        for language in AppLanguage.allCases {
            let folders = [language.rawValue, language.rawValue.lowercased()].map {
                directory.appendingPathComponent("\($0).lproj", isDirectory: true)
            }
            guard let folder = folders.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else {
                languages[language] = Entries()
                continue
            }
            let strings = (try? Data(contentsOf: folder.appendingPathComponent("\(name).strings")))
                .flatMap { try? Self.parseStrings($0) } ?? [:]
            let plurals = (try? Data(contentsOf: folder.appendingPathComponent("\(name).stringsdict")))
                .flatMap { try? Self.parsePlurals($0) } ?? [:]
            languages[language] = Entries(strings: strings, plurals: plurals)
        }
        self.init(name: name, languages: languages)
    }

    /// A table from texts already in memory.
    public init(name: String, languages: [AppLanguage: Entries]) {
        self.name = name
        self.languages = languages
    }

    /// The texts of `language` as read.
    public func entries(_ language: AppLanguage) -> Entries {
        languages[language] ?? Entries()
    }

    /// The keys English has and `language` lacks, texts and plural entries alike, sorted: empty when
    /// the language was read completely.
    public func missingKeys(_ language: AppLanguage) -> [String] {
        let english = entries(.english)
        let translated = entries(language)
        let strings = english.strings.keys.filter { translated.strings[$0] == nil }
        let plurals = english.plurals.keys.filter { translated.plurals[$0] == nil }
        return (strings + plurals).sorted()
    }

    /// The text of `key` in `language`; the English text when the language lacks it; the key itself
    /// when English lacks it too (visible, and caught by the completeness test).
    public func string(_ key: String, _ language: AppLanguage) -> String {
        languages[language]?.strings[key] ?? languages[.english]?.strings[key] ?? key
    }

    /// `key`'s text with `arguments` put in its `%@` / `%1$@` placeholders.
    public func string(_ key: String, _ language: AppLanguage, _ arguments: String...) -> String {
        Self.format(string(key, language), arguments)
    }

    /// The plural entry `key` for a number shown as `number` (already formatted for the locale) whose
    /// operands are `operands`: the form of the number's category, its `%@` the number, then
    /// `arguments` in the entry's other placeholders.
    public func plural(
        _ key: String,
        _ language: AppLanguage,
        number: String,
        operands: PluralOperands,
        _ arguments: String...
    ) -> String {
        var entryLanguage = language
        var found = languages[language]?.plurals[key]
        if found == nil {
            entryLanguage = .english
            found = languages[.english]?.plurals[key]
        }
        guard let entry = found else { return key }
        let category = entryLanguage.pluralCategory(operands)
        return Self.format(entry.text(number: number, category: category), arguments)
    }

    /// Puts `arguments` into `%@`, `%1$@`… placeholders (objects only: every argument is already
    /// text, numbers formatted for the locale), and `%%` becomes `%`.
    public static func format(_ template: String, _ arguments: [String]) -> String {
        var result = ""
        var next = 0
        var index = template.startIndex
        while index < template.endIndex {
            let character = template[index]
            guard character == "%", let placeholder = FormatSpecifier.parse(template, at: index) else {
                result.append(character)
                index = template.index(after: index)
                continue
            }
            switch placeholder.specifier {
            case .percent:
                result.append("%")
            case .object(let position):
                let argumentIndex = position.map { $0 - 1 } ?? next
                if position == nil { next += 1 }
                result += arguments.indices.contains(argumentIndex) ? arguments[argumentIndex] : ""
            case .other:
                result += template[index..<placeholder.end]
            }
            index = placeholder.end
        }
        return result
    }
}

/// One entry of a `.stringsdict`: a format with one plural variable, and the variable's forms.
public struct PluralEntry: Sendable, Equatable {
    /// `NSStringLocalizedFormatKey`, e.g. `%#@pets@ near you`.
    public var format: String
    /// The variable's name (`pets` in `%#@pets@`).
    public var variable: String
    /// The forms by category; each has one `%@`, where the formatted number goes (`%@ pets`).
    public var forms: [PluralCategory: String]

    public init(format: String, variable: String, forms: [PluralCategory: String]) {
        self.format = format
        self.variable = variable
        self.forms = forms
    }

    /// The entry's text for a number in `category` (the `other` form when that one is missing).
    func text(number: String, category: PluralCategory) -> String {
        let form = forms[category] ?? forms[.other] ?? ""
        // The number goes into the form's own placeholder; `%%` stays for the outer format.
        let filled = StringTable.format(form.replacingOccurrences(of: "%%", with: "%%%%"), [number])
        return format.replacingOccurrences(of: "%#@\(variable)@", with: filled)
    }
}

extension StringTable {
    /// Reads a `.strings` file (`"key" = "text";` lines, comments allowed).
    public static func parseStrings(_ data: Data) throws -> [String: String] {
        let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        guard let table = plist as? [String: String] else { throw TableError("not a table of texts") }
        return table
    }

    /// Reads a `.stringsdict` file: each key a dictionary with `NSStringLocalizedFormatKey` naming one
    /// variable `%#@name@`, and that variable's `NSStringPluralRuleType` dictionary of forms.
    public static func parsePlurals(_ data: Data) throws -> [String: PluralEntry] {
        let plist = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        guard let root = plist as? [String: Any] else { throw TableError("not a dictionary") }
        var entries: [String: PluralEntry] = [:]
        for (key, value) in root {
            guard let entry = value as? [String: Any], let format = entry["NSStringLocalizedFormatKey"] as? String else {
                throw TableError("\(key): no NSStringLocalizedFormatKey")
            }
            let variables = entry.keys.filter { $0 != "NSStringLocalizedFormatKey" }
            guard variables.count == 1, let variable = variables.first, let rule = entry[variable] as? [String: Any] else {
                throw TableError("\(key): needs exactly one plural variable, has \(variables.sorted())")
            }
            guard format.contains("%#@\(variable)@") else {
                throw TableError("\(key): the format does not use %#@\(variable)@")
            }
            guard rule["NSStringFormatSpecTypeKey"] as? String == "NSStringPluralRuleType" else {
                throw TableError("\(key): \(variable) is not an NSStringPluralRuleType")
            }
            var forms: [PluralCategory: String] = [:]
            for category in PluralCategory.allCases {
                if let form = rule[category.rawValue] as? String { forms[category] = form }
            }
            entries[key] = PluralEntry(format: format, variable: variable, forms: forms)
        }
        return entries
    }

    /// A string table file that cannot be read.
    public struct TableError: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }
}

/// A `%` placeholder of a format: `%@`, `%2$@`, `%%`, or anything else printf knows (`%d`, `%.1f`).
public struct FormatSpecifier: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// `%%`
        case percent
        /// `%@`, or `%N$@` with its 1-based position.
        case object(position: Int?)
        /// Another conversion, kept as written (tables here use objects only; the test says so).
        case other
    }

    public var specifier: Kind
    /// Its text, e.g. `%2$@`.
    public var text: String
    /// Where it ends.
    public var end: String.Index

    /// The placeholder starting at `index` (a `%`), or nil when the `%` starts none.
    public static func parse(_ template: String, at index: String.Index) -> FormatSpecifier? {
        let afterPercent = template.index(after: index)
        guard afterPercent < template.endIndex else { return nil }
        if template[afterPercent] == "%" {
            return FormatSpecifier(specifier: .percent, text: "%%", end: template.index(after: afterPercent))
        }
        // An explicit position `N$`; digits without `$` are a width, read below.
        var cursor = afterPercent
        var digits = ""
        while cursor < template.endIndex, template[cursor].isASCII, template[cursor].isNumber {
            digits.append(template[cursor])
            cursor = template.index(after: cursor)
        }
        var position: Int?
        if !digits.isEmpty, cursor < template.endIndex, template[cursor] == "$" {
            position = Int(digits)
            cursor = template.index(after: cursor)
        } else {
            cursor = afterPercent
        }
        // Flags, width, precision and length modifiers, then the conversion.
        let modifiersStart = cursor
        while cursor < template.endIndex, "-+ #0123456789.lhqLzjt".contains(template[cursor]) {
            cursor = template.index(after: cursor)
        }
        guard cursor < template.endIndex else { return nil }
        let conversion = template[cursor]
        let end = template.index(after: cursor)
        let text = String(template[index..<end])
        if conversion == "@" && cursor == modifiersStart {
            return FormatSpecifier(specifier: .object(position: position), text: text, end: end)
        }
        guard conversion.isASCII, conversion.isLetter || conversion == "@" else { return nil }
        return FormatSpecifier(specifier: .other, text: text, end: end)
    }

    /// Every placeholder of `template`, `%%` included, in order.
    public static func all(in template: String) -> [FormatSpecifier] {
        var found: [FormatSpecifier] = []
        var index = template.startIndex
        while index < template.endIndex {
            if template[index] == "%", let specifier = parse(template, at: index) {
                found.append(specifier)
                index = specifier.end
            } else {
                index = template.index(after: index)
            }
        }
        return found
    }
}
