import Foundation
import PetSpotDomain

/// Reads a JSON text once before it is parsed, so that what Foundation's parser would only call "not in
/// the correct format" is named, with where it is: invalid UTF-8 (its byte offset), nesting deeper than
/// ``maximumDepth``, a syntax error (its line and column), and a key given twice in one object (JSON
/// allows it; a scenario would silently take the later value).
struct JSONSyntax {
    /// Deeper than any scenario needs (its deepest value is 3 levels down), shallow enough for any parser.
    static let maximumDepth = 64

    private let bytes: [UInt8]
    private var offset = 0
    private var line = 1
    private var lineStart = 0

    static func check(_ data: Data) throws(ScenarioFileError) {
        let bytes = [UInt8](data)
        try checkUTF8(bytes)
        var reader = JSONSyntax(bytes: bytes)
        reader.skipWhitespace()
        try reader.value(path: .root, depth: 1)
        reader.skipWhitespace()
        guard reader.offset == bytes.count else { throw reader.fail(.root, "unexpected text after the JSON value") }
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private static func checkUTF8(_ bytes: [UInt8]) throws(ScenarioFileError) {
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return
            case .error:
                throw ScenarioFileError(path: JSONPath.root.description, message: "invalid UTF-8 at byte \(offset)")
            }
        }
    }

    // MARK: Values

    private mutating func value(path: JSONPath, depth: Int) throws(ScenarioFileError) {
        guard let byte = peek else { throw fail(path, "the text ends where a value should start") }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth <= Self.maximumDepth else { throw fail(path, "nested deeper than \(Self.maximumDepth) levels") }
            if byte == UInt8(ascii: "{") { try object(path: path, depth: depth) } else { try array(path: path, depth: depth) }
        case UInt8(ascii: "\""): _ = try string(path: path)
        case UInt8(ascii: "t"): try literal("true", path: path)
        case UInt8(ascii: "f"): try literal("false", path: path)
        case UInt8(ascii: "n"): try literal("null", path: path)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number(path: path)
        default: throw fail(path, "expected a value (an object, array, string, number, true, false or null)")
        }
    }

    private mutating func object(path: JSONPath, depth: Int) throws(ScenarioFileError) {
        offset += 1
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            offset += 1
            return
        }
        var keys: Set<String> = []
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { throw fail(path, "expected a key in double quotes") }
            // Where the key starts, kept as offsets: its column is counted only if it is a repeat
            // (counting it for every key would read the line again and again, quadratic on one line).
            let keyStart = (line: line, lineStart: lineStart, offset: offset)
            let key = try string(path: path)
            guard keys.insert(key).inserted else {
                let column = Self.column(of: keyStart.offset, lineStart: keyStart.lineStart, in: bytes)
                throw ScenarioFileError(
                    path: path.description, message: "duplicate key `\(key)` (line \(keyStart.line), column \(column))"
                )
            }
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw fail(path, "expected ':' after the key `\(key)`") }
            offset += 1
            skipWhitespace()
            try value(path: path.appending(key), depth: depth + 1)
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "}"):
                offset += 1
                return
            default: throw fail(path, "expected ',' or '}' in the object")
            }
        }
    }

    private mutating func array(path: JSONPath, depth: Int) throws(ScenarioFileError) {
        offset += 1
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
            offset += 1
            return
        }
        var index = 0
        while true {
            skipWhitespace()
            try value(path: path.appending(index: index), depth: depth + 1)
            index += 1
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "]"):
                offset += 1
                return
            default: throw fail(path, "expected ',' or ']' in the array")
            }
        }
    }

    /// A string's value (escapes decoded, so that `"a"` and `"\u0061"` are one key).
    private mutating func string(path: JSONPath) throws(ScenarioFileError) -> String {
        offset += 1
        var scalars = String.UnicodeScalarView()
        var pendingHigh: UInt32?
        var raw: [UInt8] = []
        func flushRaw() {
            scalars.append(contentsOf: String(decoding: raw, as: UTF8.self).unicodeScalars)
            raw.removeAll()
        }
        while let byte = peek {
            offset += 1
            switch byte {
            case UInt8(ascii: "\""):
                flushRaw()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flushRaw()
                guard let escape = peek else { break }
                offset += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(Unicode.Scalar(escape))
                case UInt8(ascii: "b"): scalars.append("\u{8}")
                case UInt8(ascii: "f"): scalars.append("\u{C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    let hex = bytes[offset..<min(bytes.count, offset + 4)]
                    guard hex.count == 4, let code = UInt32(String(decoding: hex, as: UTF8.self), radix: 16) else {
                        throw fail(path, "expected four hexadecimal digits after \\u")
                    }
                    offset += 4
                    if let high = pendingHigh, (0xDC00...0xDFFF).contains(code) {
                        pendingHigh = nil
                        if let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)) { scalars.append(scalar) }
                    } else if (0xD800...0xDBFF).contains(code) {
                        pendingHigh = code
                    } else if let scalar = Unicode.Scalar(code) {
                        scalars.append(scalar)
                    }
                default: throw fail(path, "unknown escape \\\(Character(Unicode.Scalar(escape)))")
                }
            case 0..<0x20:
                throw fail(path, "a control character inside a string (write it as an escape such as \\n)")
            default:
                raw.append(byte)
            }
        }
        throw fail(path, "the text ends inside a string")
    }

    private mutating func number(path: JSONPath) throws(ScenarioFileError) {
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        if peek == UInt8(ascii: "-") { offset += 1 }
        let integerStart = offset
        while let byte = peek, digits.contains(byte) { offset += 1 }
        guard offset > integerStart else { throw fail(path, "expected digits in the number") }
        if bytes[integerStart] == UInt8(ascii: "0"), offset - integerStart > 1 { throw fail(path, "a number cannot start with 0") }
        if peek == UInt8(ascii: ".") {
            offset += 1
            let fraction = offset
            while let byte = peek, digits.contains(byte) { offset += 1 }
            guard offset > fraction else { throw fail(path, "expected digits after the decimal point") }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            offset += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { offset += 1 }
            let exponent = offset
            while let byte = peek, digits.contains(byte) { offset += 1 }
            guard offset > exponent else { throw fail(path, "expected digits in the exponent") }
        }
    }

    private mutating func literal(_ word: String, path: JSONPath) throws(ScenarioFileError) {
        let expected = Array(word.utf8)
        guard bytes[offset..<min(bytes.count, offset + expected.count)].elementsEqual(expected) else {
            throw fail(path, "expected a value (an object, array, string, number, true, false or null)")
        }
        offset += expected.count
    }

    // MARK: Position

    private var peek: UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func skipWhitespace() {
        while let byte = peek {
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                lineStart = offset + 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"): break
            default: return
            }
            offset += 1
        }
    }

    /// The column (in characters, from 1) of the byte at `offset` on the line starting at `lineStart`.
    private static func column(of offset: Int, lineStart: Int, in bytes: [UInt8]) -> Int {
        bytes[lineStart..<min(offset, bytes.count)].count { $0 & 0xC0 != 0x80 } + 1
    }

    private func fail(_ path: JSONPath, _ message: String) -> ScenarioFileError {
        let column = Self.column(of: offset, lineStart: lineStart, in: bytes)
        return ScenarioFileError(path: path.description, message: "not valid JSON at line \(line), column \(column): \(message)")
    }
}
