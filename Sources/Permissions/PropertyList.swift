import Foundation

/// The top-level dictionary of a property list (an Info.plist or an entitlements file), reduced to
/// what the requirement checks need. Sendable, unlike the `[String: Any]` Foundation returns.
public struct PropertyList: Sendable, Equatable {
    /// One value of the dictionary.
    public indirect enum Value: Sendable, Equatable {
        case string(String)
        case bool(Bool)
        case number(Double)
        case dictionary([String: Value])
        case array([Value])
        /// Dates and data: kept only as the name of their type.
        case other(String)

        /// The plist type's name, for messages.
        public var typeName: String {
            switch self {
            case .string: "string"
            case .bool: "boolean"
            case .number: "number"
            case .dictionary: "dictionary"
            case .array: "array"
            case .other(let name): name
            }
        }
    }

    /// The file's format, as Foundation detected it.
    public enum Format: String, Sendable, Equatable {
        case xml, binary, openStep
    }

    public var values: [String: Value]
    public var format: Format

    public init(_ values: [String: Value] = [:], format: Format = .xml) {
        self.values = values
        self.format = format
    }

    public subscript(key: String) -> Value? { values[key] }

    /// The values of a bundle's Info.plist (`Bundle.main.infoDictionary`); nil gives an empty list.
    public init(infoDictionary: [String: Any]?) {
        self.init((infoDictionary ?? [:]).mapValues(Value.init(any:)))
    }

    /// Parses XML, binary or OpenStep property list data whose root is a dictionary.
    /// - Throws: ``PropertyListError`` saying what was wrong.
    public init(data: Data) throws(PropertyListError) {
        var format = PropertyListSerialization.PropertyListFormat.xml
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: data, options: [], format: &format)
        } catch {
            throw .unreadable(reason: Self.reason(error))
        }
        guard let dictionary = root as? [String: Any] else {
            throw .rootIsNotADictionary
        }
        self.values = dictionary.mapValues(Value.init(any:))
        switch format {
        case .binary: self.format = .binary
        case .openStep: self.format = .openStep
        default: self.format = .xml
        }
    }

    /// Foundation's message and, when present, its more precise debug description.
    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        guard let detail = nsError.userInfo[NSDebugDescriptionErrorKey] as? String else {
            return nsError.localizedDescription
        }
        return "\(nsError.localizedDescription) (\(detail))"
    }

    /// Reads and parses the property list file at `url`.
    public init(contentsOf url: URL) throws(PropertyListError) {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .cannotRead(path: url.path, reason: error.localizedDescription)
        }
        do {
            try self.init(data: data)
        } catch {
            throw error.at(path: url.path)
        }
    }
}

extension PropertyList.Value {
    /// Converts what `PropertyListSerialization` or `Bundle.infoDictionary` returns.
    public init(any value: Any) {
        if let string = value as? String {
            self = .string(string)
        } else if let dictionary = value as? [String: Any] {
            self = .dictionary(dictionary.mapValues(Self.init(any:)))
        } else if let array = value as? [Any] {
            self = .array(array.map(Self.init(any:)))
        } else if let number = value as? NSNumber {
            // A plist <true/>/<false/> is a boolean NSNumber; CFBoolean's type id tells them apart on
            // Apple, and on Linux Foundation the objCType is "c" for booleans.
            let type = String(cString: number.objCType)
            self = (type == "c" || type == "B") ? .bool(number.boolValue) : .number(number.doubleValue)
        } else if let bool = value as? Bool {
            self = .bool(bool)
        } else if value is Date {
            self = .other("date")
        } else if value is Data {
            self = .other("data")
        } else {
            self = .other(String(describing: type(of: value)))
        }
    }
}

/// Why a property list could not be used.
public indirect enum PropertyListError: Error, Sendable, Equatable, CustomStringConvertible {
    case cannotRead(path: String, reason: String)
    case unreadable(reason: String)
    case rootIsNotADictionary
    case invalidFile(path: String, PropertyListError)

    func at(path: String) -> PropertyListError {
        if case .cannotRead = self { return self }
        return .invalidFile(path: path, self)
    }

    public var description: String {
        switch self {
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        case .unreadable(let reason): "not a property list (XML or binary): \(reason)"
        case .rootIsNotADictionary: "the property list's root is not a dictionary"
        case .invalidFile(let path, let error): "\(path): \(error)"
        }
    }
}
