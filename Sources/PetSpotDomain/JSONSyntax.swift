import Foundation

/// What ``JSONSyntax`` found wrong, and where: the path of the value it was reading (`$` for the
/// document) and a message that says the line and column.
public struct JSONSyntaxError: Error, Equatable, Sendable {
    public var path: JSONPath
    public var message: String
}

/// Reads a JSON text once before it is parsed, so that what Foundation's parser would only call "not in
/// the correct format" is named, with where it is: invalid UTF-8 (its byte offset), nesting deeper than
/// ``maximumDepth``, a syntax error (its line and column), a key given twice in one object (JSON
/// allows it; a reader would silently take one of the values), and a number no `Double` holds (`1e309`).
///
/// Linear in the text: the path is one stack pushed and popped, and only keys are decoded into strings.
/// Scenario files and import files are both checked by it.
public struct JSONSyntax {
    /// Deeper than any scenario or import record needs, shallow enough for any parser.
    public static let maximumDepth = 64

    private let bytes: [UInt8]
    private var offset = 0
    private var line = 1
    private var lineStart = 0
    private var path: [JSONPath.Component] = []
    private let onKey: ((_ parent: [JSONPath.Component], _ key: String) -> Void)?

    /// Checks `data`; `onKey` sees every object key with the path of its object, in document order.
    public static func check(
        _ data: Data, onKey: ((_ parent: [JSONPath.Component], _ key: String) -> Void)? = nil
    ) throws(JSONSyntaxError) {
        let bytes = [UInt8](data)
        var reader = JSONSyntax(bytes: bytes, onKey: onKey)
        // A UTF-8 byte order mark, which Foundation's parser accepts, is skipped (and is no column).
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            reader.offset = 3
            reader.lineStart = 3
        }
        reader.skipWhitespace()
        try reader.value(depth: 1)
        reader.skipWhitespace()
        guard reader.offset == bytes.count else { throw reader.fail("unexpected text after the JSON value") }
    }

    private init(bytes: [UInt8], onKey: ((_ parent: [JSONPath.Component], _ key: String) -> Void)?) {
        self.bytes = bytes
        self.onKey = onKey
    }

    // MARK: Values

    private mutating func value(depth: Int) throws(JSONSyntaxError) {
        guard let byte = peek else { throw fail("the text ends where a value should start") }
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard depth <= Self.maximumDepth else { throw fail("nested deeper than \(Self.maximumDepth) levels") }
            if byte == UInt8(ascii: "{") { try object(depth: depth) } else { try array(depth: depth) }
        case UInt8(ascii: "\""): _ = try string(keep: false)
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw fail("expected a value (an object, array, string, number, true, false or null)")
        }
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) {
        offset += 1
        skipWhitespace()
        if peek == UInt8(ascii: "}") {
            offset += 1
            return
        }
        var keys: Set<String> = []
        while true {
            skipWhitespace()
            guard peek == UInt8(ascii: "\"") else { throw fail("expected a key in double quotes") }
            // Where the key starts, kept as offsets: its column is counted only if it is a repeat
            // (counting it for every key would read the line again and again, quadratic on one line).
            let keyStart = (line: line, lineStart: lineStart, offset: offset)
            let key = try string(keep: true)
            guard keys.insert(key).inserted else {
                let column = Self.column(of: keyStart.offset, lineStart: keyStart.lineStart, in: bytes)
                throw JSONSyntaxError(
                    path: JSONPath(components: path), message: "duplicate key `\(key)` (line \(keyStart.line), column \(column))"
                )
            }
            onKey?(path, key)
            skipWhitespace()
            guard peek == UInt8(ascii: ":") else { throw fail("expected ':' after the key `\(key)`") }
            offset += 1
            skipWhitespace()
            path.append(.key(key))
            try value(depth: depth + 1)
            path.removeLast()
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "}"):
                offset += 1
                return
            default: throw fail("expected ',' or '}' in the object")
            }
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) {
        offset += 1
        skipWhitespace()
        if peek == UInt8(ascii: "]") {
            offset += 1
            return
        }
        var index = 0
        while true {
            skipWhitespace()
            path.append(.index(index))
            try value(depth: depth + 1)
            path.removeLast()
            index += 1
            skipWhitespace()
            switch peek {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "]"):
                offset += 1
                return
            default: throw fail("expected ',' or ']' in the array")
            }
        }
    }

    /// A string's value (escapes decoded, so that `"a"` and `"\u0061"` are one key) when `keep`;
    /// otherwise only checked, and the empty string returned.
    private mutating func string(keep: Bool) throws(JSONSyntaxError) -> String {
        offset += 1
        var scalars = String.UnicodeScalarView()
        var pendingHigh: UInt32?
        var rawStart = offset
        func flushRaw(upTo end: Int) {
            if keep, end > rawStart { scalars.append(contentsOf: String(decoding: bytes[rawStart..<end], as: UTF8.self).unicodeScalars) }
        }
        while let byte = peek {
            offset += 1
            if pendingHigh != nil, byte != UInt8(ascii: "\\") {
                throw fail("a \\u escape of a high surrogate not followed by one of a low surrogate")
            }
            switch byte {
            case UInt8(ascii: "\""):
                // Most keys have no escape: one string straight from their bytes.
                if keep, scalars.isEmpty { return String(decoding: bytes[rawStart..<(offset - 1)], as: UTF8.self) }
                flushRaw(upTo: offset - 1)
                return keep ? String(scalars) : ""
            case UInt8(ascii: "\\"):
                flushRaw(upTo: offset - 1)
                guard let escape = peek else { break }
                offset += 1
                if pendingHigh != nil, escape != UInt8(ascii: "u") {
                    throw fail("a \\u escape of a high surrogate not followed by one of a low surrogate")
                }
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
                        throw fail("expected four hexadecimal digits after \\u")
                    }
                    offset += 4
                    // A surrogate must come in a high-low pair; alone it is no character (Foundation refuses it).
                    if let high = pendingHigh {
                        guard (0xDC00...0xDFFF).contains(code) else {
                            throw fail("a \\u escape of a high surrogate not followed by one of a low surrogate")
                        }
                        pendingHigh = nil
                        if let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00)) { scalars.append(scalar) }
                    } else if (0xD800...0xDBFF).contains(code) {
                        pendingHigh = code
                    } else if let scalar = Unicode.Scalar(code) {
                        scalars.append(scalar)
                    } else {
                        throw fail("a \\u escape of a low surrogate without a high one before it")
                    }
                default: throw fail("unknown escape \\\(Character(Unicode.Scalar(escape)))")
                }
                rawStart = offset
            case 0..<0x20:
                throw fail("a control character inside a string (write it as an escape such as \\n)")
            case 0x80...:
                // Outside strings any byte above ASCII is a syntax error already; inside, it must begin
                // a well-formed UTF-8 sequence, so that the error names the value it is in.
                guard let length = Self.utf8SequenceLength(bytes, at: offset - 1) else {
                    offset -= 1
                    throw fail("invalid UTF-8 (byte \(offset) of the file)")
                }
                offset += length - 1
            default:
                break
            }
        }
        throw fail("the text ends inside a string")
    }

    private mutating func number() throws(JSONSyntaxError) {
        let digits = UInt8(ascii: "0")...UInt8(ascii: "9")
        let start = offset
        if peek == UInt8(ascii: "-") { offset += 1 }
        let integerStart = offset
        while let byte = peek, digits.contains(byte) { offset += 1 }
        guard offset > integerStart else { throw fail("expected digits in the number") }
        if bytes[integerStart] == UInt8(ascii: "0"), offset - integerStart > 1 { throw fail("a number cannot start with 0") }
        let integerDigits = offset - integerStart
        if peek == UInt8(ascii: ".") {
            offset += 1
            let fraction = offset
            while let byte = peek, digits.contains(byte) { offset += 1 }
            guard offset > fraction else { throw fail("expected digits after the decimal point") }
        }
        var hasExponent = false
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            hasExponent = true
            offset += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { offset += 1 }
            let exponent = offset
            while let byte = peek, digits.contains(byte) { offset += 1 }
            guard offset > exponent else { throw fail("expected digits in the exponent") }
        }
        // Without an exponent, up to 308 integer digits always fit a Double; only the rest is parsed.
        if hasExponent || integerDigits > 308,
           Double(String(decoding: bytes[start..<offset], as: UTF8.self))?.isFinite != true {
            let text = String(decoding: bytes[start..<min(offset, start + 40)], as: UTF8.self)
            offset = start
            throw fail("the number \(text) is out of range (no 64-bit floating-point number holds it)")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes[offset..<min(bytes.count, offset + expected.count)].elementsEqual(expected) else {
            throw fail("expected a value (an object, array, string, number, true, false or null)")
        }
        offset += expected.count
    }

    /// The length of the well-formed UTF-8 sequence starting at `start` (Unicode's table 3-7: no
    /// overlong forms, no surrogates, nothing above U+10FFFF); nil when there is none.
    private static func utf8SequenceLength(_ bytes: [UInt8], at start: Int) -> Int? {
        let length: Int, second: ClosedRange<UInt8>
        switch bytes[start] {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return nil
        }
        guard start + length <= bytes.count, second.contains(bytes[start + 1]) else { return nil }
        for index in (start + 2)..<(start + length) where !(0x80...0xBF).contains(bytes[index]) { return nil }
        return length
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

    private func fail(_ message: String) -> JSONSyntaxError {
        let column = Self.column(of: offset, lineStart: lineStart, in: bytes)
        return JSONSyntaxError(path: JSONPath(components: path), message: "not valid JSON at line \(line), column \(column): \(message)")
    }
}
