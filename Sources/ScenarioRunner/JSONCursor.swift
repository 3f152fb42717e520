import Foundation
import PetSpotDomain

/// Why a scenario file was refused: the JSON path of the problem and what was wrong there.
public struct ScenarioFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A JSON path such as `$.steps[1].choice`.
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

/// A position in parsed JSON that knows its path, so every error can name where it is.
struct JSONCursor {
    let value: Any
    let path: JSONPath

    static func parse(_ data: Data) throws(ScenarioFileError) -> JSONCursor {
        // What Foundation's parser would call only "not in the correct format", named with where it is.
        do {
            try JSONSyntax.check(data)
        } catch {
            throw ScenarioFileError(path: error.path.description, message: error.message)
        }
        do {
            let value = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return JSONCursor(value: value, path: .root)
        } catch {
            throw ScenarioFileError(path: JSONPath.root.description, message: "not valid JSON (\(error.localizedDescription))")
        }
    }

    func fail(_ message: String) -> ScenarioFileError {
        ScenarioFileError(path: path.description, message: message)
    }

    /// The object here, refusing keys not in `known` (a misspelt key would otherwise be ignored).
    func object(known: Set<String>) throws(ScenarioFileError) -> [String: Any] {
        guard let object = value as? [String: Any] else { throw fail("expected an object, found \(kind)") }
        if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
            throw ScenarioFileError(
                path: path.appending(unknown).description,
                message: "unknown key; expected one of \(known.sorted().joined(separator: ", "))"
            )
        }
        return object
    }

    func array() throws(ScenarioFileError) -> [JSONCursor] {
        guard let array = value as? [Any] else { throw fail("expected an array, found \(kind)") }
        return array.enumerated().map { JSONCursor(value: $1, path: path.appending(index: $0)) }
    }

    func string() throws(ScenarioFileError) -> String {
        guard let string = value as? String else { throw fail("expected a string, found \(kind)") }
        return string
    }

    func bool() throws(ScenarioFileError) -> Bool {
        guard let number = value as? NSNumber, isBoolean(number) else {
            throw fail("expected true or false, found \(kind)")
        }
        return number.boolValue
    }

    func double() throws(ScenarioFileError) -> Double {
        guard let number = value as? NSNumber, !isBoolean(number) else {
            throw fail("expected a number, found \(kind)")
        }
        let double = number.doubleValue
        guard double.isFinite else { throw fail("expected a finite number") }
        return double
    }

    /// A whole number within `range`.
    func integer(in range: ClosedRange<Int>) throws(ScenarioFileError) -> Int {
        let double = try self.double()
        guard double.rounded() == double, double >= Double(range.lowerBound), double <= Double(range.upperBound)
        else {
            throw fail("expected a whole number from \(range.lowerBound) to \(range.upperBound), found \(double)")
        }
        return Int(double)
    }

    /// One of the raw values of `T`.
    func oneOf<T: RawRepresentable & CaseIterable>(_: T.Type) throws(ScenarioFileError) -> T
    where T.RawValue == String {
        let raw = try string()
        guard let value = T(rawValue: raw) else {
            let allowed = T.allCases.map(\.rawValue).joined(separator: " | ")
            throw fail("\"\(raw)\" is not one of \(allowed)")
        }
        return value
    }

    var isNull: Bool { value is NSNull }

    private var kind: String {
        switch value {
        case is NSNull: "null"
        case is String: "a string"
        case let number as NSNumber: isBoolean(number) ? "a boolean" : "a number"
        case is [Any]: "an array"
        case is [String: Any]: "an object"
        default: "something else"
        }
    }

    /// JSON `true`/`false` arrive as NSNumber too; Foundation gives them the `__NSCFBoolean` class
    /// on every platform, which is how they are told apart from 1 and 0.
    private func isBoolean(_ number: NSNumber) -> Bool {
        String(describing: type(of: number)) == "__NSCFBoolean"
    }
}

extension [String: Any] {
    /// The member `key` of the object at `cursor`, as a cursor; nil when absent.
    func member(_ key: String, of cursor: JSONCursor) -> JSONCursor? {
        self[key].map { JSONCursor(value: $0, path: cursor.path.appending(key)) }
    }

    func required(_ key: String, of cursor: JSONCursor) throws(ScenarioFileError) -> JSONCursor {
        guard let member = member(key, of: cursor) else {
            throw ScenarioFileError(path: cursor.path.appending(key).description, message: "required key is missing")
        }
        return member
    }
}
