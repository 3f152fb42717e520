import PetAPI

/// What a stored text may hold: no control character (Unicode's `Cc`: NUL, the C0 and C1 controls,
/// DEL), except the line breaks and tabs of a description, as shelters write them.
///
/// The trap it closes: SQLite reads a bound text up to its first NUL, so `"demo-000002\u{0}zzz"`
/// would be taken for the id `demo-000002` and overwrite that pet. Checked on the UTF-8 bytes: a
/// million-pet import reads every field once.
enum TextRule {
    /// Every text field of a record, by its path in the file and the API.
    static func fields(of dto: AnimalDTO) -> [(field: String, text: String)] {
        [
            ("id", dto.id), ("name", dto.name), ("breed", dto.breed), ("description", dto.description),
            ("shelter.name", dto.shelter.name), ("shelter.city", dto.shelter.city),
        ] + (dto.photoURL.map { [("photoURL", $0)] } ?? [])
    }

    /// The first field of `fields` that breaks the rule, with what to say of it; nil when none does.
    static func firstBreak(in fields: [(field: String, text: String)]) -> (field: String, message: String)? {
        for (field, text) in fields {
            if let code = firstControl(in: text, allowingLineBreaks: field == "description") {
                let hex = String(code, radix: 16, uppercase: true)
                let padded = String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                return (field, "holds a control character (U+\(padded)); text fields may not")
            }
        }
        return nil
    }

    /// Whether `text` holds any control character at all (a path id, an id to withdraw).
    static func hasControl(_ text: String) -> Bool {
        firstControl(in: text, allowingLineBreaks: false) != nil
    }

    /// The code point of the first control character of `text`; `\n`, `\r` and `\t` pass when
    /// `allowingLineBreaks`.
    private static func firstControl(in text: String, allowingLineBreaks: Bool) -> UInt32? {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            defer { previous = byte }
            if allowingLineBreaks, byte == 0x09 || byte == 0x0A || byte == 0x0D { continue }
            if byte < 0x20 || byte == 0x7F { return UInt32(byte) }
            // C1 controls, U+0080 to U+009F: the lead byte 0xC2, then a continuation byte below 0xA0
            // (whose value is then the code point).
            if previous == 0xC2, (0x80...0x9F).contains(byte) { return UInt32(byte) }
        }
        return nil
    }
}
